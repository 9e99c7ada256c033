"""The worked session in docs/engine_protocol.md is what the engine answers (shortened aside)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from euchre.engine_protocol import ProtocolSession

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine_protocol.md"


def session_lines() -> list[tuple[str, str]]:
    """The (request, answer) pairs of the worked session."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## A worked session", 1)[1].split("```", 2)[1]
    requests = [line[2:] for line in block.splitlines() if line.startswith("→ ")]
    answers = [line[2:] for line in block.splitlines() if line.startswith("← ")]
    assert len(requests) == len(answers) > 10
    return list(zip(requests, answers, strict=True))


def shown(documented: str) -> Any:
    """A documented answer as JSON, with the fields cut short (``…``) left out."""
    return json.loads(documented.replace(",…", "").replace("…,", "").replace("…", ""))


def assert_shows(got: Any, want: Any, where: str) -> None:
    """Every field the docs show has the value the engine gives."""
    if isinstance(want, dict):
        assert isinstance(got, dict), where
        for key, value in want.items():
            assert key in got, f"{where}: no {key!r}"
            assert_shows(got[key], value, f"{where}.{key}")
    elif isinstance(want, float):
        assert abs(got - want) < 0.01, where  # the docs round
    elif isinstance(want, list) and want and isinstance(want[0], dict):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_shows(g, w, f"{where}[{i}]")
    else:
        assert got == want, where


def test_the_worked_session_in_the_docs_is_current() -> None:
    session = ProtocolSession()
    for request, documented in session_lines():
        got = json.loads(session.feed(request)[0])
        want = shown(documented)
        assert_shows(got, want, request)
        if "…" not in documented:
            assert set(got) == set(want), request
