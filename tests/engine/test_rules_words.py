"""One renege wording (issue 36): where every card is checked as it is played — every table
of the site, the terminal — the rules text says nobody can renege, the same words as the
start page's summary; only the description of a game played with real cards (whose record
may carry a renege claim) gives the renege penalty, by ``renege_penalty``."""

from __future__ import annotations

from pathlib import Path

from euchre.rules import CHECKED_PLAY, PRESETS, Rules

ROOT = Path(__file__).resolve().parents[2]


def test_checked_play_says_nobody_can_renege_under_every_preset() -> None:
    for name in PRESETS:
        for penalty in ("hand", "flat"):
            words = Rules.preset(name, renege_penalty=penalty).describe()
            assert words[-1] == CHECKED_PLAY, name
            assert not any("renege costs" in w or "renege gives" in w for w in words), name


def test_a_game_with_real_cards_gives_the_penalty_of_its_rules() -> None:
    assert Rules(renege_penalty="hand").describe(claims=True)[-1] == (
        "A renege gives the other side 2 points, or 4 if they played a lone hand.")
    assert Rules(renege_penalty="flat").describe(claims=True)[-1] == "A renege costs 2 points."


def test_the_web_clients_summary_uses_the_same_words() -> None:
    script = (ROOT / "src" / "euchre" / "web" / "static" / "js" / "rules-words.js").read_text()
    assert f'out.push("{CHECKED_PLAY}");' in script
