"""The table page's own shuffle check (web/static/js/shuffle-check.js) agrees with the engine.

The module is run in Node (Web Crypto and BigInt, as in a browser) on fixed vectors the
engine computes here: seeds, mixes with players' seeds, decks with and without the joker,
deals in both patterns from every dealer, and whole checks that pass, or fail on a tampered
seed, deal or player seed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from euchre.cards import card_text
from euchre.shuffle import commitment, deal_from_deck, deck_from_seed, mixed_seed

MODULE = (Path(__file__).resolve().parents[2] / "src" / "euchre" / "web" / "static" / "js"
          / "shuffle-check.js")
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

RUNNER = """
import * as S from %(module)s;
const cases = JSON.parse(process.argv.at(-1));
const out = [];
for (const c of cases) {
  const seed = await S.mixedSeed(c.seed, c.client_seeds);
  const deck = await S.deckFromSeed(seed, c.benny);
  const deal = S.dealFromDeck(deck, c.dealer, c.pattern);
  const problems = await S.checkHand(c.check);
  out.push({ mixed: seed, deck, hands: deal.hands, kitty: deal.kitty,
             commitment: await S.sha256Hex(c.seed), problems });
}
const fresh = S.newClientSeed();
console.log(JSON.stringify({ out, fresh }));
"""


def texts(cards: Any) -> list[str]:
    return [card_text(c) for c in cards]


def vector(seed: str, clients: dict[int, str], benny: bool, dealer: int,
           pattern: str) -> dict[str, Any]:
    """One case and the engine's answers to it."""
    mixed = mixed_seed(seed, clients)
    deck = deck_from_seed(mixed, benny)
    deal = deal_from_deck(deck, dealer, pattern)
    seat = (dealer + 1) % 4
    check = {"commitment": commitment(seed), "seed": seed,
             "clientSeeds": {str(s): c for s, c in clients.items()}, "dealer": dealer,
             "pattern": pattern, "benny": benny, "seat": seat,
             "dealt": texts(deal.hands[seat]), "upcard": card_text(deal.kitty[0]),
             "mySeed": clients.get(seat)}
    return {"seed": seed, "client_seeds": {str(s): c for s, c in clients.items()},
            "benny": benny, "dealer": dealer, "pattern": pattern, "check": check,
            "want": {"mixed": mixed, "deck": texts(deck),
                     "hands": [texts(h) for h in deal.hands], "kitty": texts(deal.kitty),
                     "commitment": commitment(seed)}}


def run(cases: list[dict[str, Any]]) -> dict[str, Any]:
    assert NODE is not None
    script = RUNNER % {"module": json.dumps(MODULE.as_uri())}
    done = subprocess.run([NODE, "--input-type=module", "-e", script, json.dumps(cases)],
                          capture_output=True, text=True, timeout=120, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def cases() -> list[dict[str, Any]]:
    out = []
    for i in range(12):
        clients = {s: f"{i:02x}{s}" * 16 for s in range(4) if (i >> s) & 1}
        out.append(vector(f"table-seed-{i}", clients, benny=i % 3 == 0, dealer=i % 4,
                          pattern="3-2" if i % 2 else "2-3"))
    out.append(vector("9f" * 32, {}, False, 3, "3-2"))  # a seed as the site draws them
    return out


def test_the_page_shuffles_mixes_and_deals_as_the_engine_does() -> None:
    vectors = cases()
    result = run(vectors)
    assert len(result["out"]) == len(vectors)
    for case, got in zip(vectors, result["out"], strict=True):
        want = case["want"]
        assert {k: got[k] for k in want} == want
        assert got["problems"] == [], "a genuine hand passes the page's check"
    fresh = result["fresh"]
    assert len(fresh) == 64 and int(fresh, 16) >= 0


def test_the_page_check_fails_on_a_tampered_seed_deal_or_player_seed() -> None:
    base = vector("table-seed-x", {0: "ab" * 32, 2: "cd" * 32}, False, 3, "3-2")
    tampered = []
    for change in ("seed", "dealt", "client", "mine", "commitment"):
        case = json.loads(json.dumps(base))
        check = case["check"]
        if change == "seed":
            check["seed"] = "table-seed-y"
        elif change == "dealt":
            check["dealt"] = [*check["dealt"][1:], case["want"]["kitty"][-1]]
        elif change == "client":
            check["clientSeeds"]["2"] = "ef" * 32
        elif change == "mine":
            check["clientSeeds"]["0"] = "01" * 32
        else:
            check["commitment"] = commitment("another")
        tampered.append(case)
    problems = [got["problems"] for got in run(tampered)["out"]]
    assert all(problems), problems
    assert "does not match the commitment" in problems[0][0]
    assert any("you were dealt" in p for p in problems[1])
    assert any("the seeds deal" in p for p in problems[2])
    assert any("this browser sent" in p for p in problems[3])
    assert "does not match the commitment" in problems[4][0]
