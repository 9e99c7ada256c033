"""Attribute docstrings (the string under each field) read from a class's source."""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap


def field_docs(cls: type) -> dict[str, str]:
    """Field name -> the docstring written under it, with whitespace folded."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    body = ast.parse(source).body[0]
    if not isinstance(body, ast.ClassDef):
        return {}
    docs: dict[str, str] = {}
    items = body.body
    for node, after in itertools.pairwise(items):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs
