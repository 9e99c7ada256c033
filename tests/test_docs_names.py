"""Every module, file, class and function that docs/ names in backticks exists (issue 38, item 7).

What counts as a code name: only inline code spans (single backticks) outside fenced code
blocks, and in them only these four shapes, so prose in backticks (commands, JSON, messages,
formulas) is never read as a name:

Spans are read within a paragraph (a span may wrap onto the next line).

1. **A dotted name under ``euchre``** at the start of the span (``euchre.env.encode_view``,
   ``euchre.bots.hard.HardBot(seed=None)``; what follows the name is ignored): its longest
   importable prefix is imported and the rest looked up as attributes (a class's annotated or
   slotted fields count). ``euchre.toml`` and the like (a file extension last) are files.
2. **A path**: any whitespace-separated word of the span with a ``/`` and a known file
   extension (``scripts/bench/bench_env.py``, ``tests/env/test_aec.py::test_x``, in a command too).
   It must be a file of the repository, or the end of one's path (docs write
   ``table/actor.py`` for ``src/euchre/table/actor.py`` and ``js/leaders.js`` for the web
   client's ``src/euchre/web/static/js/leaders.js``); a ``::name`` suffix must name a function
   defined in that file. URLs, absolute and home paths, words with ``*``, ``<``, ``{`` or
   ``…`` (patterns and placeholders) and what npm installs (``node_modules/…``) are not
   paths. A bare module or script name (a word ``name.py`` or ``name.js`` with no ``/``, such
   as ``sampling.py``) must be the name of some file of the repository.
3. **A call**: the whole span is one call, ``name(...)`` or ``a.b.name(...)``, optionally with
   ``-> type``. The called name must be defined in ``src/euchre``, ``scripts`` or ``tests``
   (a function, class, method, attribute or variable) or in the web client's JavaScript (a
   function, class or constant), unless it belongs to another library (its first part is a
   module of the standard library or an installed package, or in ``FOREIGN_HEADS``; or its
   name is in ``FOREIGN_NAMES``) or is a builtin.
4. **A class name**: the whole span is one CamelCase word of two or more parts (``HandView``):
   it must be a class (or a type alias) defined there, a builtin, or in ``FOREIGN_NAMES``.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

EXTENSIONS = {"py", "md", "json", "toml", "txt", "js", "css", "html", "sh", "c", "so", "yml",
              "yaml", "ini", "cfg", "png", "svg", "sql", "lock", "csv", "jsonl", "mjs"}
SKIP_DIRS = {".git", ".venv", ".tools", "node_modules", "__pycache__", ".hypothesis",
             ".mypy_cache", ".ruff_cache", ".pytest_cache"}

FOREIGN_HEADS = {"np", "gym"}
"""First parts of dotted calls that belong to another library, beyond the importable module
names (``pyspiel.load_game(...)``, ``gc.freeze()``): the usual abbreviations."""

FOREIGN_NAMES = {
    # OpenSpiel (docs/engine.md, docs/interop.md compare with it)
    "new_initial_state", "chance_outcomes", "load_game", "get_parameters", "apply_action",
    "resample_from_infostate", "information_state_string",
    # Gymnasium, PettingZoo, sb3-contrib
    "Discrete", "Box", "TerminateIllegalWrapper", "AssertOutOfBoundsWrapper",
    "OrderEnforcingWrapper", "SyncVectorEnv", "AsyncVectorEnv", "MaskablePPO",
    # the standard library, httpx
    "Random", "ThreadPoolExecutor", "QueueEmpty", "suppress", "sha256", "ConnectTimeout",
    "PoolTimeout", "ReadError",
}
"""Names from other libraries that docs mention in backticks."""

_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_SPAN = re.compile(r"`([^`]+)`")
_DOTTED = re.compile(r"euchre(?:\.[A-Za-z_]\w*)+")
_CALL = re.compile(r"((?:[A-Za-z_]\w*\.)*)([A-Za-z_]\w*)\(.*\)(?:\s*->\s*.+)?")
_JS_NAME = re.compile(r"(?:function\s*\*?\s*|(?:const|let|class)\s+)([A-Za-z_$][\w$]*)")
_BARE_FILE = re.compile(r"[\w-]+\.(?:py|js)")
_CLASS = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+")


def code_spans(text: str) -> list[str]:
    """The inline code spans of a Markdown text, fenced blocks left out; a span may run over
    a line break (read as one space) but not over a blank line."""
    spans: list[str] = []
    for paragraph in re.split(r"\n[ \t]*\n", _FENCE.sub("", text)):
        spans += (" ".join(span.split()) for span in _SPAN.findall(paragraph))
    return spans


@functools.cache
def defined_names() -> frozenset[str]:
    """Every name defined in our Python files: functions, classes, methods, attributes and
    variables (type aliases among them)."""
    names: set[str] = set()
    for folder in ("src/euchre", "scripts", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
    for path in (ROOT / "src/euchre/web/static").rglob("*.js"):  # the web client's functions
        names.update(_JS_NAME.findall(path.read_text()))
    return frozenset(names)


@functools.cache
def is_foreign_module(head: str) -> bool:
    """Whether a name is a module of the standard library or an installed package."""
    try:
        return importlib.util.find_spec(head) is not None and head != "euchre"
    except (ImportError, ValueError):
        return False


def dotted_exists(name: str) -> bool:
    """Whether ``euchre.a.b.c`` is a module, or an attribute reached from one."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                # a field set on each instance counts (annotated or slotted on the class)
                return isinstance(obj, type) and any(
                    attr in getattr(k, "__annotations__", {}) or attr in getattr(k, "__slots__", ())
                    for k in obj.__mro__
                )
            obj = getattr(obj, attr)
        return True
    return False


@functools.cache
def repository_files() -> tuple[str, ...]:
    """Every file and folder of the work tree, as paths from its root (caches left out)."""
    out: list[str] = []
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for entry in folder.iterdir():
            if entry.name in SKIP_DIRS:
                continue
            out.append(entry.relative_to(ROOT).as_posix())
            if entry.is_dir():
                stack.append(entry)
    return tuple(out)


def path_exists(word: str) -> bool:
    """Whether a path word names a file (and its ``::function``, if given)."""
    path, _, function = word.partition("::")
    path = path.removeprefix("./")
    found = [f for f in repository_files() if f == path or f.endswith("/" + path)]
    if not found or not function:
        return bool(found)
    pattern = rf"def {re.escape(function.split('[')[0])}\b"
    return any(re.search(pattern, (ROOT / f).read_text()) for f in found)


def _is_path(word: str) -> bool:
    word = word.split("::")[0]
    if "/" not in word or "://" in word or word[0] in "/~$" or any(c in word for c in "*<{…"):
        return False
    if word.startswith("node_modules/"):
        return False  # installed by npm, not kept in the repository
    ext = word.rsplit(".", 1)[-1] if "." in word.rsplit("/", 1)[-1] else ""
    return ext in EXTENSIONS


def problems(span: str) -> list[str]:
    """What a code span names that does not exist (empty when all is well)."""
    out: list[str] = []
    span = span.strip()
    dotted = _DOTTED.match(span)
    if (dotted and dotted.group(0).rsplit(".", 1)[-1] not in EXTENSIONS
            and not dotted_exists(dotted.group(0))):
        out.append(dotted.group(0))
    for word in span.split():
        word = word.strip("()[],;:'\"")
        is_file = _is_path(word) or _BARE_FILE.fullmatch(word.split("::")[0]) is not None
        if is_file and not path_exists(word):
            out.append(word)
    call = _CALL.fullmatch(span)
    if call and not dotted:
        head = (call.group(1) or call.group(2)).split(".")[0]
        name = call.group(2)
        foreign = (head in FOREIGN_HEADS or name in FOREIGN_NAMES or hasattr(builtins, head)
                   or (bool(call.group(1)) and is_foreign_module(head)))
        if not foreign and name not in defined_names():
            out.append(name + "()")
    if _CLASS.fullmatch(span) and not (
        span in defined_names() or span in FOREIGN_NAMES or hasattr(builtins, span)
    ):
        out.append(span)
    return out


@pytest.mark.parametrize("doc", sorted(p.name for p in DOCS.glob("*.md")))
def test_every_name_a_doc_gives_in_backticks_exists(doc: str) -> None:
    missing = [p for span in code_spans((DOCS / doc).read_text()) for p in problems(span)]
    assert not missing, f"docs/{doc} names what does not exist: {sorted(set(missing))}"


def test_the_checker_reads_the_four_shapes_and_nothing_else() -> None:
    assert problems("euchre.env.encode_view") == []
    assert problems("euchre.bots.hard.HardBot(seed=None)") == []
    assert problems("euchre.HandState.phase") == []  # a slotted field
    assert problems("euchre.nothing_here") == ["euchre.nothing_here"]
    assert problems("euchre.toml") == []
    assert problems(".venv/bin/python scripts/bench/bench_env.py --steps 5") == []
    assert problems("scripts/no_such_script.py") == ["scripts/no_such_script.py"]
    assert problems("table/actor.py") == []
    assert problems("actor.py") == [] and problems("gone.py") == ["gone.py"]
    gone = "tests/env/test_aec.py::no_such_test"
    assert problems(gone) == [gone]
    assert problems("legal_actions()") == []
    assert problems("state.apply(action, seat=None) -> HandState") == []
    assert problems("vanished_function(x)") == ["vanished_function()"]
    assert problems("pyspiel.load_game(\"euchre\")") == []
    assert problems("HandView") == [] and problems("NoSuchThing") == ["NoSuchThing"]
    assert problems("navigate()") == []  # the web client's (js/nav.js)
    assert problems("max(p, floor) ** temper") == []  # an expression, not one call
    assert problems("https://example.org/a/b.json") == []
    assert code_spans("a `x` b\n```\n`y`\n```\n`z\n  w`") == ["x", "z w"]
    assert code_spans("a ` b\n\nc ` d") == []  # a lone backtick pairs with nothing
