// The house rules in words, from the rule values chosen on the start page (the same
// sentences the server's rules text uses), so the summary always follows the options.

/** One sentence per rule in force, for a {rule name: value} object. */
export function rulesSummary(rules) {
  const out = [`Game to ${rules.game_to ?? 10} points.`];
  if (rules.stick_the_dealer) out.push("Stick the dealer: if everyone passes twice, the dealer must name trump.");
  else if (rules.all_pass === "same-dealer") out.push("If everyone passes twice, the same dealer deals a new hand.");
  else out.push("If everyone passes twice, the hand is thrown in and the deal passes left.");
  if (rules.canadian_loner) out.push("Canadian loner: the dealer's partner who orders up must go alone.");
  if (rules.defend_alone) out.push("Defending alone is allowed: a lone defender who euchres the makers scores 4.");
  if (rules.farmers_hand && rules.farmers_hand !== "off") {
    const which = rules.farmers_hand === "nines-and-tens" ? "only nines and tens" : "three nines and two tens";
    out.push(`Farmer's hand: a player dealt ${which} may swap three cards for the kitty or throw the hand in.`);
  }
  if (rules.benny) out.push("The Benny: a joker is the highest trump. If it is turned up, the dealer picks it up, names trump and discards.");
  if (rules.lead_when_sitting_out === "loner-left") out.push("When a player goes alone, the player on the lone player's left leads.");
  else out.push("The player on the dealer's left leads, skipping a player who sits out.");
  if (rules.dealer_exchanges_when_partner_alone === false) out.push("When the dealer's partner goes alone, the dealer does not take the upcard.");
  else out.push("When the dealer's partner goes alone, the dealer still takes the upcard.");
  out.push("Every card is checked as it is played, so nobody can renege at these tables.");
  return out;
}

/** Labels for rule names where plain humanising reads wrong. */
export const RULE_LABELS = {
  farmers_hand: "Farmer's hand",
  stick_the_dealer: "Stick the dealer",
  all_pass: "When everyone passes",
  defend_alone: "Defend alone",
  canadian_loner: "Canadian loner",
  benny: "The Benny (a joker)",
  game_to: "Game to",
  lead_when_sitting_out: "Who leads against a lone hand",
  dealer_exchanges_when_partner_alone: "Dealer takes the upcard when the partner goes alone",
};

/** Rules the web tables cannot use, left off the start page: every card is checked as played. */
export const HIDDEN_RULES = new Set(["renege_penalty"]);
