"""mingshu (命书): Zi Wei Dou Shu and BaZi charts computed exactly, with sourced tables.

The front door::

    from mingshu import ziwei
    chart = ziwei.by_solar("1987-05-16", "10:30", "female")
"""

from mingshu.errors import InputError, MingshuError, OutOfRangeError

__all__ = ["InputError", "MingshuError", "OutOfRangeError", "__version__"]

__version__ = "0.1.0"
