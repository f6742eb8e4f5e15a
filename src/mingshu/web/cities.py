"""An offline city search for the birth form: English and Chinese names, giving latitude,
longitude and the city's own IANA time zone.

The table (``data/cities.tsv``, about 8,000 cities) is built from GeoNames by
``tools/build_cities.py`` at development time; see ``data/CITIES-LICENCE.txt``.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

__all__ = ["City", "by_id", "resolve", "search"]

MAX_RESULTS: Final = 20


@dataclass(frozen=True, slots=True)
class City:
    id: int
    name: str
    chinese: tuple[str, ...]
    country: str
    latitude: float
    longitude: float
    timezone: str
    population: int

    @property
    def label(self) -> str:
        """Name, Chinese name, country, zone and coordinates: cities that share a name
        (Yichun 伊春 and Yichun 宜春, three Springfields) differ at least in coordinates."""
        zh = f" {self.chinese[0]}" if self.chinese else ""
        return f"{self.name}{zh}, {self.country} ({self.timezone}), {self.where}"

    @property
    def where(self) -> str:
        """Latitude and longitude in degrees, as a reader writes them."""
        ns = "N" if self.latitude >= 0 else "S"
        ew = "E" if self.longitude >= 0 else "W"
        return f"{abs(self.latitude):.2f}°{ns} {abs(self.longitude):.2f}°{ew}"


def _fold(text: str) -> str:
    """Case- and accent-insensitive form for matching (Zürich ~ zurich)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@cache
def _table() -> tuple[tuple[City, ...], dict[int, City], tuple[tuple[str, ...], ...]]:
    text = resources.files("mingshu.web").joinpath("data/cities.tsv").read_text("utf-8")
    cities: list[City] = []
    for line in text.splitlines():
        if line.startswith("#") or line.startswith("id\t") or not line:
            continue
        f = line.split("\t")
        cities.append(
            City(
                int(f[0]),
                f[1],
                tuple(x for x in f[2].split("|") if x),
                f[3],
                float(f[4]),
                float(f[5]),
                f[6],
                int(f[7]),
            )
        )
    keys = tuple((_fold(c.name), *c.chinese) for c in cities)
    return tuple(cities), {c.id: c for c in cities}, keys


def by_id(city_id: int) -> City | None:
    """The city with GeoNames id ``city_id``, or ``None``."""
    return _table()[1].get(city_id)


def search(query: str, limit: int = MAX_RESULTS) -> list[City]:
    """Cities whose English or Chinese name starts with ``query`` (then those that contain
    it), largest first; at most ``limit``."""
    q = _fold(query.strip())
    if not q:
        return []
    cities, _, keys = _table()
    starts: list[City] = []
    contains: list[City] = []
    for city, names in zip(cities, keys, strict=True):
        if any(n.startswith(q) for n in names):
            starts.append(city)
        elif len(contains) < limit and any(q in n for n in names):
            contains.append(city)
        if len(starts) >= limit:
            break
    return (starts + contains)[: max(0, limit)]


def resolve(text: str, limit: int = MAX_RESULTS) -> list[City]:
    """The cities a typed place can mean: the one whose whole :attr:`City.label` it is (a
    suggestion taken without its id); else every city of exactly that English or Chinese
    name; else what :func:`search` finds.  More than one means the reader must choose:
    the largest is never picked for them (伊春 is not 宜春, though both are Yichun)."""
    q = _fold(text.strip())
    if not q:
        return []
    labelled = _by_label().get(q)
    if labelled is not None:
        return [labelled]
    cities, _, keys = _table()
    exact = [city for city, names in zip(cities, keys, strict=True) if q in names]
    return exact[: max(0, limit)] or search(text, limit)


@cache
def _by_label() -> dict[str, City]:
    return {_fold(c.label): c for c in _table()[0]}
