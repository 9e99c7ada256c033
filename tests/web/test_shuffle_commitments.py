"""The verifiable shuffle in the browser: the page keeps each hand's commitment as it is dealt
(through a reload), and the commitments file and the record downloaded at the end of the game
pass `euchre verify`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect
from web_helpers import (
    continue_after_result,
    next_turn,
    play_to_the_end,
    screenshot,
    start_table,
    take_turn,
)

from euchre.cli import main
from euchre.record import load
from euchre.verify import parse_commitments, parse_sent_seeds

pytestmark = pytest.mark.browser

LINE = re.compile(r"Shuffle commitment for hand (\d+): ([0-9a-f]{16})…")


def save(page: Page, button: Locator, folder: Path) -> Path:
    """Click a download button; the file it gave, under its suggested name in `folder`."""
    with page.expect_download() as download:
        button.click()
    path = folder / download.value.suggested_filename
    download.value.save_as(path)
    return path


@pytest.mark.quick_pace
def test_commitments_kept_in_the_browser_verify_the_game(
    page: Page, artifacts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = start_table(page, "short")
    table_id = url.rsplit("/", 1)[1]
    shown = page.get_by_role("region", name="Shuffle commitment")
    expect(shown).to_contain_text(LINE)

    # Play into hand 2, then reload: hand 1's commitment is only in this browser's storage now.
    for _ in range(200):
        turn = next_turn(page)
        match = LINE.search(shown.inner_text())
        if (match and match[1] == "2") or turn.over:
            break
        if turn.summary is not None:
            continue_after_result(page)  # read: not its 2 s hold
            continue
        take_turn(page, turn)
    assert match and match[1] == "2", "hand 2 was not dealt"
    page.reload()
    expect(shown).to_contain_text(f"Shuffle commitment for hand 2: {match[2]}…")
    assert "Save commitments" in shown.inner_text()

    play_to_the_end(page)
    verify = page.get_by_role("region", name="Game over").get_by_role(
        "region", name="Verify the shuffle"
    )
    command = f"euchre verify euchre-{table_id}.txt --commitments euchre-{table_id}-commitments.txt"
    expect(verify.locator("code")).to_have_text(command)
    screenshot(page, artifacts / "shuffle-game-over.png")
    kept = save(page, verify.get_by_role("button", name="Download commitments"), tmp_path)
    record = save(page, verify.get_by_role("button", name="Download the record"), tmp_path)
    assert kept.name == f"euchre-{table_id}-commitments.txt"
    assert record.name == f"euchre-{table_id}.txt"

    # One `hand N HEX` line for every hand of the game, and they all check out; the table also
    # committed ahead to the seed of a next hand that the end of the game left undealt.
    lines = [line for line in kept.read_text().splitlines() if line.startswith("hand ")]
    hands = len(load(str(record)).hands)
    assert [line.split()[:2] for line in lines] == [["hand", str(n)] for n in range(1, hands + 2)]
    assert sorted(parse_commitments(kept.read_text())) == list(range(1, hands + 2))
    # ... and the seed this browser sent for each hand, which `euchre verify` checks was used
    sent = parse_sent_seeds(kept.read_text())
    assert sorted(sent)[:hands] == list(range(1, hands + 1))
    assert all(list(sent[n]) == [0] for n in range(1, hands + 1))
    capsys.readouterr()
    assert main(["verify", str(record), "--commitments", str(kept), "--strict"]) == 0
    out = capsys.readouterr().out
    assert f"OK: {hands} of {hands} hands verified" in out
    assert out.count("(the seed matches the commitment)") == hands

    # The replay page offers the same files and command.
    page.get_by_role("link", name="Watch the replay").click()
    section = page.get_by_role("region", name="Verify the shuffle")
    expect(section.locator("code")).to_have_text(command)
    again = save(
        page, section.get_by_role("button", name="Download commitments"), tmp_path / "replay"
    )
    assert again.read_text() == kept.read_text()
    screenshot(page, artifacts / "shuffle-replay.png")

    # A browser that kept no commitments for the game can only check the deals against the seeds.
    page.evaluate("localStorage.removeItem('euchre.commitments')")
    page.reload()
    expect(section.locator("code")).to_have_text(f"euchre verify euchre-{table_id}.txt")
    expect(section.get_by_role("button", name="Download commitments")).to_be_disabled()
    expect(section.get_by_role("button", name="Download the record")).to_be_enabled()
