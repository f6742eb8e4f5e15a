"""The knowledge library: short articles whose every table, diagram, worked answer and
claim comes from the engines and is checked (``mingshu library check``).

::

    from mingshu import library
    lib = library.load()                       # the articles shipped in the package
    article = lib.articles[0]
    from mingshu.library.render import article_html, index_html
    html = article_html(article, lib, link=lambda article_id: f"{article_id}.html")

Needs the ``library`` extra (PyYAML, markdown-it-py with mdit-py-plugins, Pillow).
"""

from mingshu.library.model import Article, Library, Problem, Question, Reference, Step, load

__all__ = ["Article", "Library", "Problem", "Question", "Reference", "Step", "load"]
