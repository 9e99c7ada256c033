"""docs/server.md's layer lists agree with the import contracts and with the folders on disk.

The doc holds three fenced lists, each after a marker line: ``<!-- layers: euchre -->`` (the
packages of ``euchre``), ``<!-- layers: euchre.server -->`` (the server's subpackages and
top modules) and ``<!-- layers: euchre.table -->`` (the table's rooms). A line that starts
in the first column is a layer: its names come before the first run of two spaces, joined
by ``|``; the rest, and the indented lines after it, describe it. The lists must name the
same layers in the same order as the layers contracts in ``pyproject.toml``, every package
(and every server or table subpackage and module) on disk must be in them, and a
subpackage's description must name exactly the modules it holds.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "server.md"
PYPROJECT = ROOT / "pyproject.toml"
SRC = ROOT / "src" / "euchre"

Layers = list[frozenset[str]]


@dataclass
class Layer:
    """One line of a layer list: its names and what its description says."""

    names: frozenset[str]
    text: str = ""
    modules: set[str] = field(default_factory=set)


def _bare(name: str) -> str:
    """``tables/`` and ``app.py`` are the names ``tables`` and ``app``."""
    return name.strip().removesuffix("/").removesuffix(".py")


def doc_layers(doc: str, marker: str) -> list[Layer]:
    """The layer list fenced after ``<!-- layers: marker -->`` in ``doc``."""
    found = re.search(
        r"^<!-- layers: " + re.escape(marker) + r" -->\n```[^\n]*\n(.*?)^```", doc, re.M | re.S
    )
    assert found, f"docs/server.md has no fenced list after '<!-- layers: {marker} -->'"
    layers: list[Layer] = []
    for line in found.group(1).splitlines():
        if not line.strip():
            continue
        if line[0].isspace():
            assert layers, f"docs/server.md: {marker} list starts with an indented line: {line!r}"
            layers[-1].text += " " + line.strip()
            continue
        head, *rest = re.split(r" {2,}", line, maxsplit=1)
        text = rest[0] if rest else ""
        names = frozenset(_bare(n) for n in head.split("|"))
        layers.append(Layer(names, text.strip()))
    for layer in layers:
        layer.modules = {m.removesuffix(".py") for m in re.findall(r"\b\w+\.py\b", layer.text)}
    return layers


def contract_layers(config: dict[str, Any], container: str | None) -> Layers:
    """The layers of the layers contract in ``container`` (None: the one over all euchre)."""
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] != "layers":
            continue
        if container is None and "containers" not in contract:
            prefix = "euchre."
        elif container is not None and contract.get("containers") == [container]:
            prefix = ""
        else:
            continue
        return [
            frozenset(n.strip().removeprefix(prefix) for n in layer.split("|"))
            for layer in contract["layers"]
        ]
    raise AssertionError(f"pyproject.toml has no layers contract for {container or 'euchre'}")


def on_disk(package: Path, *, modules: bool) -> set[str]:
    """The subpackages of ``package`` (and its modules, but ``__init__``, when ``modules``)."""
    names = {p.name for p in package.iterdir() if (p / "__init__.py").is_file()}
    if modules:
        names |= {p.stem for p in package.glob("*.py") if p.stem != "__init__"}
    return names


def _show(layers: Layers) -> str:
    return "\n".join("  " + " | ".join(sorted(layer)) for layer in layers)


def drift(doc: str, config: dict[str, Any], src: Path) -> list[str]:
    """Every way the doc's lists, the contracts and the folders disagree, in plain words."""
    problems: list[str] = []
    for marker, container, package, modules in (
        ("euchre", None, src, False),
        ("euchre.server", "euchre.server", src / "server", True),
        ("euchre.table", "euchre.table", src / "table", True),
    ):
        written = doc_layers(doc, marker)
        listed = [layer.names for layer in written]
        contract = contract_layers(config, container)
        if listed != contract:
            problems.append(
                f"docs/server.md's '{marker}' layers differ from pyproject.toml's contract:\n"
                f" the doc says (top down):\n{_show(listed)}\n the contract says:\n"
                f"{_show(contract)}"
            )
        named = set().union(*listed)
        disk = on_disk(package, modules=modules)
        if disk - named:
            problems.append(
                f"in {package.relative_to(src.parent)} but not in the '{marker}' layers of "
                f"docs/server.md: {', '.join(sorted(disk - named))}"
            )
        if named - disk:
            problems.append(
                f"the '{marker}' layers of docs/server.md name what is not in "
                f"{package.relative_to(src.parent)}: {', '.join(sorted(named - disk))}"
            )
        if not modules:
            continue
        for layer in written:
            name = next(iter(layer.names))
            if len(layer.names) > 1 or not (package / name / "__init__.py").is_file():
                continue
            held = {p.stem for p in (package / name).glob("*.py") if p.stem != "__init__"}
            if held != layer.modules:
                problems.append(
                    f"docs/server.md's line for {package.name}/{name}/ names the modules "
                    f"{sorted(layer.modules)}, but the folder holds {sorted(held)}"
                )
    return problems


def _config() -> dict[str, Any]:
    return tomllib.loads(PYPROJECT.read_text())


def test_the_layer_lists_in_the_server_doc_match_the_contracts_and_the_code() -> None:
    """The doc, pyproject.toml's layers contracts and src/euchre tell one story."""
    problems = drift(DOC.read_text(), _config(), SRC)
    assert not problems, "\n\n".join(problems)


def test_a_drifted_doc_is_caught_with_a_clear_message() -> None:
    """A layer dropped, a module left unnamed or two layers swapped each fail the check."""
    doc = DOC.read_text()
    config = _config()
    dropped = doc.replace("ops/             endpoints.py", "ops-gone/        endpoints.py")
    assert any("ops" in p and "not in the 'euchre.server' layers" in p
               for p in drift(dropped, config, SRC))
    unnamed = doc.replace("   socket_rate.py (a token bucket per socket)", "")
    assert any("server/tables/" in p and "socket_rate" in p for p in drift(unnamed, config, SRC))
    online = "online/          online_api.py"
    accounts = "accounts/        accounts_api.py"
    swapped = doc.replace(online, "\0").replace(accounts, online).replace("\0", accounts)
    problems = drift(swapped, config, SRC)
    assert any("differ from pyproject.toml's contract" in p for p in problems), problems
