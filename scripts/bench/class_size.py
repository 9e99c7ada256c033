"""The size of one class in a module: its lines, methods, attributes and constructor
parameters (what docs/server.md records for ``TableActor``)::

    python3 scripts/bench/class_size.py src/euchre/table/actor.py TableActor

Lines are the class's ``end_lineno - lineno + 1``; methods its ``def``s (properties too);
attributes the distinct names assigned as ``self.<name>`` anywhere in it; parameters
``__init__``'s arguments after ``self``.
"""

from __future__ import annotations

import ast
import sys


def class_size(source: str, name: str) -> str:
    """A line saying the size of class ``name`` in ``source`` (and the file's lines)."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            methods = [n for n in node.body
                       if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            attrs = set()
            for n in ast.walk(node):
                targets: list[ast.expr] = []
                if isinstance(n, ast.Assign):
                    targets = n.targets
                elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
                    targets = [n.target]
                for t in targets:
                    for e in ast.walk(t):
                        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) \
                                and e.value.id == "self":
                            attrs.add(e.attr)
            init = next((m for m in methods if m.name == "__init__"), None)
            params = 0 if init is None else len(init.args.args) - 1 + len(init.args.kwonlyargs)
            assert node.end_lineno is not None
            return (f"file {len(source.splitlines())} lines; {name} "
                    f"{node.end_lineno - node.lineno + 1} lines, {len(methods)} methods, "
                    f"{len(attrs)} attributes, {params} constructor parameters")
    raise SystemExit(f"no class {name}")


if __name__ == "__main__":
    path, name = sys.argv[1], sys.argv[2]
    with open(path) as f:
        print(class_size(f.read(), name))
