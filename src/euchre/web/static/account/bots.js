// The account page's "Your bots" section: make a bot token (shown once), list the tokens,
// revoke one. A bot token lets a program play as the bot (`euchre bot connect`, docs/outside_bots.md).

import { fill, h } from "../js/dom.js";
import { call } from "./session.js";

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "never";
}

/** The section, drawn now and again after every change. */
export function botsSection() {
  const section = h("section", { class: "choose-box bots-box", "aria-label": "Your bots" });
  const draw = async (made = null, problem = null) => {
    let tokens = [];
    try {
      tokens = (await call("GET", "/api/me/bots")).tokens;
    } catch (error) {
      problem = problem ?? `Could not load your bot tokens: ${error.message}`;
    }
    const name = h("input", { id: "bot-name", name: "bot-name", maxlength: "24", required: true, autocomplete: "off" });
    const form = h(
      "form",
      { class: "choose", "aria-label": "Make a bot token" },
      h("div", { class: "field" }, h("label", { for: "bot-name" }, "Bot name"), name),
      h("button", { type: "submit", class: "tool" }, "Make a bot token"),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        draw(await call("POST", "/api/me/bots", { name: name.value.trim() }));
      } catch (error) {
        draw(null, `Could not make a bot token: ${error.message}`);
      }
    });
    const revoke = async (token) => {
      try {
        await call("DELETE", `/api/me/bots/${token.id}`);
        draw();
      } catch (error) {
        draw(null, `Could not revoke the token: ${error.message}`);
      }
    };
    const tokenBox = made
      ? h(
          "div",
          { class: "notice new-bot-token", role: "status" },
          h("p", {}, `A new token for ${made.bot}. ${made.notice}`),
          h("label", { for: "new-bot-token" }, "Your new token"),
          h("input", { id: "new-bot-token", readonly: true, value: made.token, onfocus: (e) => e.target.select() }),
        )
      : null;
    fill(
      section,
      h("h2", {}, "Your bots"),
      h("p", { class: "field-help" }, "A bot token lets a program play at online and practice tables as your bot, under the bot's own name, marked as a bot. Rated tables take bots only where their people allowed it. Run it with: euchre bot connect TABLE-LINK TOKEN -- your-program. ", h("a", { href: "/bots" }, "How a bot talks to the table"), "."),
      form,
      tokenBox,
      problem ? h("p", { class: "error", role: "alert" }, problem) : null,
      h(
        "ul",
        { class: "game-list", "aria-label": "Bot tokens" },
        tokens.length
          ? tokens.map((t) =>
              h(
                "li",
                { dataset: { token: String(t.id) } },
                h("strong", {}, t.bot),
                ` · ${t.prefix}… · made ${when(t.created_at)} · last used ${when(t.last_used_at)} · `,
                t.live
                  ? h("button", { type: "button", class: "tool", onclick: () => revoke(t), "aria-label": `Revoke ${t.bot}'s token ${t.prefix}` }, "Revoke")
                  : h("span", { class: "revoked" }, `revoked ${when(t.revoked_at)}`),
              ),
            )
          : h("li", {}, "No bot tokens yet."),
      ),
    );
    if (tokenBox) {
      // Shown once: bring it into view and select it, ready to copy.
      tokenBox.scrollIntoView({ block: "center" });
      tokenBox.querySelector("input").focus({ preventScroll: true });
    }
  };
  draw();
  return section;
}
