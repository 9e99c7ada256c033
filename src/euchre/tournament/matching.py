"""The size of a largest matching in a small graph, for pairings that avoid rematches.

The rank of a graph's Tutte matrix is twice the size of its largest matching (Lovász). The
matrix's entries are numbers modulo a large prime that look random but are a hash of the
edge's own name (no randomness: the answer is the same on every run); the chance that such
numbers hide a matching is at most ``vertices / PRIME`` (about 1 in 10^16 here).
Standard library only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

PRIME = (1 << 61) - 1
"""The field's size (a Mersenne prime)."""


def _entry(a: int, b: int) -> int:
    """The matrix entry of the edge ``a``-``b``: 1 to ``PRIME - 1``, from a hash of its name."""
    digest = hashlib.blake2b(f"tutte:{min(a, b)}:{max(a, b)}".encode(), digest_size=16).digest()
    return 1 + int.from_bytes(digest, "big") % (PRIME - 1)


def matching_size(vertices: Sequence[int], allowed: Callable[[int, int], bool]) -> int:
    """How many disjoint edges a largest matching of ``vertices`` has, where ``allowed(a, b)``
    says whether ``a`` and ``b`` may be matched (it must be symmetric)."""
    n = len(vertices)
    rows = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if allowed(vertices[i], vertices[j]):
                x = _entry(vertices[i], vertices[j])
                rows[i][j], rows[j][i] = x, PRIME - x
    return _rank(rows) // 2


def _rank(rows: list[list[int]]) -> int:
    """The rank of a square matrix over the integers modulo :data:`PRIME` (rows are changed)."""
    rank, n = 0, len(rows)
    for col in range(n):
        pivot = next((r for r in range(rank, n) if rows[r][col]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        top = rows[rank]
        inverse = pow(top[col], PRIME - 2, PRIME)
        for r in range(rank + 1, n):
            factor = rows[r][col] * inverse % PRIME
            if factor:
                rows[r] = [(x - factor * y) % PRIME for x, y in zip(rows[r], top, strict=True)]
        rank += 1
    return rank


def pair_in_order(order: Sequence[int],
                  allowed: Callable[[int, int], bool]) -> list[tuple[int, int]] | None:
    """Pair all of ``order`` (an even count) using only allowed pairs, each in turn from the
    front taking the first allowed partner after it that leaves the rest pairable; None if no
    such pairing exists.

    Rabin and Vazirani's way: with ``N`` the inverse of the Tutte matrix, ``N[a][b]`` is not
    zero exactly when the graph less ``a`` and ``b`` still has a perfect matching, and the
    inverse of what is left follows from ``N`` in a few products (a Schur complement).
    """
    n = len(order)
    if n % 2:
        return None
    rows = [[0] * n + [int(i == j) for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            if allowed(order[i], order[j]):
                x = _entry(order[i], order[j])
                rows[i][j], rows[j][i] = x, PRIME - x
    inverse = _invert(rows)
    if inverse is None:
        return None
    left = list(range(n))
    out: list[tuple[int, int]] = []
    while left:
        top = left[0]
        other = next((o for o in left[1:]
                      if inverse[top][o] and allowed(order[top], order[o])), None)
        if other is None:  # pragma: no cover - a nonsingular matrix always has one
            return None
        out.append((order[top], order[other]))
        left.remove(top)
        left.remove(other)
        # The inverse of the matrix without ``top`` and ``other``:
        # N'[x][y] = N[x][y] + (N[x][top] N[other][y] - N[x][other] N[top][y]) / N[top][other].
        scale = pow(inverse[top][other], PRIME - 2, PRIME)
        row_top, row_other = inverse[top], inverse[other]
        for x in left:
            row = inverse[x]
            u = row[top] * scale % PRIME
            v = row[other] * scale % PRIME
            for y in left:
                row[y] = (row[y] + u * row_other[y] - v * row_top[y]) % PRIME
    return out


def _invert(rows: list[list[int]]) -> list[list[int]] | None:
    """The inverse of the left half of ``rows`` (the right half starts as the identity) over
    the integers modulo :data:`PRIME`, or None if it is singular (rows are changed)."""
    n = len(rows)
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r][col]), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        inverse = pow(rows[col][col], PRIME - 2, PRIME)
        top = [x * inverse % PRIME for x in rows[col]]
        rows[col] = top
        for r in range(n):
            factor = rows[r][col] if r != col else 0
            if factor:
                rows[r] = [(x - factor * y) % PRIME for x, y in zip(rows[r], top, strict=True)]
    return [row[n:] for row in rows]
