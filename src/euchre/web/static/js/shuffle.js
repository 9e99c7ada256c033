// The verifiable shuffle, for a player: the commitments this browser kept as each hand was dealt,
// the file `euchre verify --commitments` reads, and the "Verify the shuffle" section shown at the
// end of a game and on its replay (docs/verify.md).

import { getRecordText } from "./api.js";
import { downloadText, h } from "./dom.js";
import { sentSeedLines } from "./fair-deal.js";
import { keepCommitment, keptCommitments } from "./storage.js";

/** The name the record is downloaded under. */
export function recordFilename(gameId) {
  return `euchre-${gameId}.txt`;
}

/** The name the commitments are downloaded under. */
export function commitmentsFilename(gameId) {
  return `euchre-${gameId}-commitments.txt`;
}

/** The command that checks the two downloaded files. */
export function verifyCommand(gameId) {
  return `euchre verify ${recordFilename(gameId)} --commitments ${commitmentsFilename(gameId)}`;
}

/** Keep whatever commitment a table message carries: the deal event's and the table's own,
 *  and the next hand's, published ahead so that this browser can add its seed. */
export function keepCommitments(tableId, table, event) {
  if (event && event.kind === "deal" && event.commitment) {
    keepCommitment(tableId, event.hand_number, event.commitment);
  }
  if (table && table.commitment) keepCommitment(tableId, table.hand_number, table.commitment);
  for (const ahead of [event?.next_commitment, table?.next_commitment]) {
    if (ahead) keepCommitment(tableId, ahead.hand_number, ahead.commitment);
  }
}


/** The latest kept commitment at or before hand `handNumber`: {hand, hex} or null. */
export function commitmentFor(tableId, handNumber) {
  const kept = keptCommitments(tableId).filter(([n]) => handNumber == null || n <= handNumber);
  const last = kept.at(-1);
  return last ? { hand: last[0], hex: last[1].at(-1) } : null;
}

/** The commitments file: `hand N HEX` lines, with comments saying what it is. */
export function commitmentsText(gameId) {
  const lines = [
    `# Shuffle commitments kept by this browser at table ${gameId}, each as its hand was dealt.`,
    `# Check the game with: ${verifyCommand(gameId)}`,
  ];
  for (const [hand, list] of keptCommitments(gameId)) {
    for (const hex of list) lines.push(`hand ${hand} ${hex}`);
  }
  const sent = sentSeedLines(gameId);
  if (sent.length) lines.push("# The seeds this browser sent, mixed into those hands' deals:", ...sent);
  return `${lines.join("\n")}\n`;
}

/** Whether this browser kept any commitment for the game. */
export function hasCommitments(gameId) {
  return keptCommitments(gameId).length > 0;
}

/** Download the commitments file. */
export function downloadCommitments(gameId) {
  downloadText(commitmentsFilename(gameId), commitmentsText(gameId));
}

/** Download the game's record (rejects when the server cannot give it). */
export async function downloadRecord(gameId) {
  downloadText(recordFilename(gameId), await getRecordText(gameId));
}

/**
 * The "Verify the shuffle" section: how to check, the two downloads and the command.
 * `onRecord` downloads the record (the caller reports errors); `keyPrefix` names the buttons'
 * data-key (the table page keeps focus on them across redraws).
 */
export function verifySection(gameId, { onRecord, keyPrefix = "verify" }) {
  const kept = hasCommitments(gameId);
  return h(
    "section",
    { class: "verify-shuffle", "aria-label": "Verify the shuffle" },
    h("h3", {}, "Verify the shuffle"),
    h(
      "p",
      {},
      "Each hand was dealt from a secret seed: its commitment was shown at the deal, and the seed is in the record. ",
      kept
        ? "Download both files and run this command to check that every deal came from a seed fixed before the bidding:"
        : "This browser kept no commitments for this game, so only the deals can be checked against their seeds:",
    ),
    h("pre", { class: "command" }, h("code", {}, kept ? verifyCommand(gameId) : `euchre verify ${recordFilename(gameId)}`)),
    h(
      "div",
      { class: "panel-actions" },
      h(
        "button",
        { type: "button", dataset: { key: `${keyPrefix}:commitments` }, disabled: !kept, onclick: () => downloadCommitments(gameId) },
        "Download commitments",
      ),
      h("button", { type: "button", dataset: { key: `${keyPrefix}:record` }, onclick: onRecord }, "Download the record"),
    ),
  );
}
