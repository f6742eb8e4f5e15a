"""The layering of CONTRIBUTING.md, checked on the source: every import between the top-level
parts of ``src/mingshu`` goes down the layers or sideways within one, never up; ziwei and
bazi never import each other; no two parts of one layer import each other in a loop.

Imports are read with ``ast`` (nothing is imported): ``import``/``from ... import`` anywhere
in a module (inside functions too) and ``importlib.import_module`` calls whose module name
can be read from the source (a string, an f-string's fixed start, a module-level constant or
a loop over a module-level tuple of strings).  An ``import_module`` whose target cannot be
read fails the test, so no import slips past the check by being dynamic.

The check is between parts, not between the modules of one part (the lazy imports between
ziwei.chart, ziwei.horoscope and ziwei.analysis are not its business), except inside the
library: its engine look-ups and its table, problem and diagram kinds never import the
modules that check and render articles with them, no library module reaches another through
importlib, and the library's modules import each other without a loop.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "mingshu"

# Bottom first.  "mingshu" is the package's own __init__ (the version, the errors).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"mingshu", "errors", "named", "arguments", "choices", "options", "inputs", "files"}),
    frozenset({"cycles"}),
    frozenset({"gender", "calendar"}),  # Gender.polarity is a cycles.Polarity
    frozenset({"birth"}),
    frozenset({"ziwei", "bazi"}),  # the engines
    frozenset({"present"}),
    frozenset({"crosscheck", "space", "library"}),
    frozenset({"cli", "web"}),
    frozenset({"__main__"}),  # `python -m mingshu`: the command line
)
LAYER = {part: i for i, layer in enumerate(LAYERS) for part in layer}
ENGINES = ("ziwei", "bazi")


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (packages by their __init__.py)."""
    out = {}
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _part(module: str) -> str:
    """The top-level part a module belongs to: ``mingshu.ziwei.chart`` -> ``ziwei``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "mingshu"


def _literal(tree: ast.Module, value: ast.expr | None) -> list[str] | None:
    """The strings an expression stands for: a string, a tuple/list of strings, or the name of
    a module-level constant holding one of those; None when it is anything else."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [value.value]
    if isinstance(value, ast.Tuple | ast.List):
        items = [_literal(tree, e) for e in value.elts]
        return None if None in items else [s for item in items if item for s in item]
    if isinstance(value, ast.Name):
        for node in tree.body:
            if isinstance(node, ast.Assign):
                targets, bound = node.targets, node.value
            elif isinstance(node, ast.AnnAssign):
                targets, bound = [node.target], node.value
            else:
                continue
            if any(isinstance(t, ast.Name) and t.id == value.id for t in targets):
                return _literal(tree, bound)
    return None


def _dynamic(tree: ast.Module, call: ast.Call) -> list[str] | None:
    """The module names an ``import_module(...)`` call can load, or None when unreadable."""
    arg = call.args[0] if call.args else None
    if isinstance(arg, ast.JoinedStr) and arg.values and isinstance(arg.values[0], ast.Constant):
        start = str(arg.values[0].value)  # "mingshu.library.{name}": some module of that package
        return [start.rpartition(".")[0]]
    found = _literal(tree, arg)
    if found is None and isinstance(arg, ast.Name):
        # for NAME in CONSTANT: import_module(NAME)
        loops = [
            _literal(tree, node.iter)
            for node in ast.walk(tree)
            if isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and node.target.id == arg.id
        ]
        if loops and None not in loops:
            found = [s for loop in loops if loop for s in loop]
    return found


def _within(name: str) -> str:
    """The longest existing module a dotted import names (``mingshu.x.y.Name`` -> ``mingshu.x.y``)."""
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(path: Path, module: str) -> Iterator[tuple[str, int]]:
    """(imported mingshu module, line) for every import in the source at PATH, read as the
    module MODULE (relative imports count from its package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            # ``from mingshu import ziwei`` imports the module mingshu.ziwei
            names = [f"{base}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and _called(node) in ("import_module", "__import__"):
            found = _dynamic(tree, node)
            assert found is not None, (
                f"{path}:{node.lineno}: an import_module whose module the layering check "
                "cannot read; name the module with a string or a module-level constant"
            )
            names = found
        for name in names:
            if name == "mingshu" or name.startswith("mingshu."):
                yield _within(name), node.lineno


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


@functools.cache  # read when a test runs, not at collection
def _edges() -> dict[tuple[str, str], list[str]]:
    """(from part, to part) -> where, for every import between two different parts."""
    out: dict[tuple[str, str], list[str]] = {}
    for module, path in MODULES.items():
        for target, line in imports(path, module):
            a, b = _part(module), _part(target)
            if a != b:
                out.setdefault((a, b), []).append(f"{path.relative_to(ROOT)}:{line} -> {target}")
    return out


def test_every_part_has_a_layer() -> None:
    assert {_part(m) for m in MODULES} == set(LAYER)


def test_no_part_imports_from_a_layer_above_it() -> None:
    upward = [
        where
        for (a, b), places in sorted(_edges().items())
        if LAYER[b] > LAYER[a]
        for where in places
    ]
    assert upward == []


def test_engines_import_neither_each_other_nor_what_is_built_on_them() -> None:
    above = {"present", "crosscheck", "space", "library", "cli", "web"}
    for engine in ENGINES:
        wrong = {b for (a, b) in _edges() if a == engine and (b in above or b in ENGINES)}
        assert wrong == set(), f"{engine} imports {sorted(wrong)}"


def test_no_two_parts_of_a_layer_import_each_other_in_a_loop() -> None:
    edges = _edges()
    for layer in LAYERS:
        reach = {a: {b for (x, b) in edges if x == a and b in layer} for a in layer}
        for _ in layer:  # transitive closure; the layers are small
            for a in layer:
                reach[a] |= {c for b in reach[a] for c in reach[b]}
        loops = sorted(a for a in layer if a in reach[a])
        assert loops == [], [edges[a, b] for a in loops for b in loops if (a, b) in edges]


def test_contributing_lists_every_part_after_what_it_imports() -> None:
    """The layout in CONTRIBUTING.md names every part, each below every part it imports."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    layout = text.split("```", 2)[1]
    listed = re.findall(r"^  (\w+)(?:\.py|/)", layout, flags=re.MULTILINE)
    assert sorted(listed) == sorted(set(LAYER) - {"mingshu"})
    below = [
        where
        for (a, b), places in sorted(_edges().items())
        if a in listed and b in listed and listed.index(b) > listed.index(a)
        for where in places
    ]
    assert below == []


def test_the_reader_finds_every_form_of_import(tmp_path: Path) -> None:
    """On a made-up engine module: each form of import the check relies on is found."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import importlib\n"
        "from mingshu import web\n"
        "from ..cli import app\n"
        "def f():\n"
        "    import mingshu.space.claims\n"
        "    return importlib.import_module('mingshu.library.check')\n"
        "MOD = 'mingshu.present'\n"
        "for m in ('mingshu.crosscheck',):\n"
        "    importlib.import_module(m)\n"
        "importlib.import_module(MOD)\n"
        "importlib.import_module(f'mingshu.bazi.{m}')\n",
        encoding="utf-8",
    )
    found = {target for target, _ in imports(probe, "mingshu.ziwei.probe")}
    assert found == {
        "mingshu.web",
        "mingshu.cli",
        "mingshu.space.claims",
        "mingshu.library.check",
        "mingshu.present",
        "mingshu.crosscheck",
        "mingshu.bazi",
    }


def test_an_unreadable_dynamic_import_fails_the_check(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import importlib\nimportlib.import_module(input())\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="cannot read"):
        list(imports(probe, "mingshu.ziwei.probe"))


# The library's inner layering: the look-ups on the engines (engine), the kinds built on
# them (bazi_stars, selfcheck, tables, problems, svg), and the modules that use the kinds to
# check and render articles.
LIBRARY = "mingshu.library"
LIBRARY_LOOKUPS = frozenset({"engine"})
LIBRARY_KINDS = LIBRARY_LOOKUPS | {
    "bazi_stars",
    "frame",
    "god_cycles",
    "selfcheck",
    "tables",
    "problems",
    "svg",
}
LIBRARY_KINDS = LIBRARY_LOOKUPS | {
    "bazi_stars",
    "patterns",
    "selfcheck",
    "tables",
    "problems",
    "svg",
}
LIBRARY_USERS = frozenset({"check", "render", "show", "cards", "summary", "build"})


def _library_edges() -> dict[str, set[str]]:
    """Library module (short name) -> the library modules it imports, for every module of
    mingshu.library (its __init__ as ``__init__``)."""

    def short(module: str) -> str:
        return module.removeprefix(LIBRARY).removeprefix(".") or "__init__"

    out: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        if module == LIBRARY or module.startswith(LIBRARY + "."):
            out[short(module)] = {
                short(target)
                for target, _ in imports(path, module)
                if target.startswith(LIBRARY + ".") and target != module
            }
    return out


def test_the_library_names_every_module_it_layers() -> None:
    assert set(_library_edges()) >= LIBRARY_KINDS | LIBRARY_USERS


def test_the_library_kinds_never_import_what_checks_or_renders_them() -> None:
    edges = _library_edges()
    upward = {
        m: sorted(edges[m] & LIBRARY_USERS) for m in LIBRARY_KINDS if edges[m] & LIBRARY_USERS
    }
    assert upward == {}
    lookups = {m: sorted(edges[m]) for m in LIBRARY_LOOKUPS if edges[m]}
    assert lookups == {}, "the engine look-ups import no other library module"


def test_no_library_module_imports_through_importlib() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for module, path in MODULES.items()
        if module.startswith(LIBRARY + ".")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and _called(node) in ("import_module", "__import__")
    ]
    assert found == []


def test_the_library_modules_import_each_other_without_a_loop() -> None:
    edges = _library_edges()
    loops = []
    for start in edges:
        seen, todo = set(), list(edges[start])
        while todo:
            m = todo.pop()
            if m == start:
                loops.append(start)
                break
            if m not in seen and m in edges:
                seen.add(m)
                todo.extend(edges[m])
    assert loops == []
