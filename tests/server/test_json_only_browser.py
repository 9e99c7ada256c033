"""Another site's page, in a real browser, tries what browsers let any page do without asking:
a form post (text/plain and urlencoded) and a no-cors ``fetch``, at the table and account
routes of a real server. Each is answered 415 and nothing is made; meanwhile the site's own
page, on the same server, opens a table and signs out (a request with no body) as ever."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import httpx
import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, expect

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from live_server import live_server

pytestmark = pytest.mark.browser



@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own (its table count is this test's alone)."""
    db = tmp_path_factory.mktemp("json-only") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              hand_pause=0.0, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


def _other_site_page(base: str) -> str:
    # The text/plain form's one field makes a JSON body: name '{"kind":"practice","x":"' and
    # value '"}' are sent as {"kind":"practice","x":"="}.
    return f"""<!doctype html><title>Other site</title>
<form id="text" method="post" action="{base}/api/tables" enctype="text/plain">
  <input name='{{"kind":"practice","x":"' value='"}}'></form>
<form id="form" method="post" action="{base}/api/accounts">
  <input name="username" value="forged"><input name="password" value="correct horse"></form>
<script>
  window.sent = Promise.all([
    fetch("{base}/api/tables", {{method: "POST", mode: "no-cors",
      headers: {{"Content-Type": "text/plain"}}, body: '{{"kind": "practice"}}'}}),
    fetch("{base}/api/tables", {{method: "POST", mode: "no-cors"}}),
  ]).then(() => "sent");
</script>"""


@pytest.fixture(scope="module")
def other_site(base_url: str) -> Iterator[str]:
    """Another site's page, served by a server of its own and reached as ``localhost``
    (another origin, and another site, than ``127.0.0.1``)."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    async def page(request: object) -> HTMLResponse:
        return HTMLResponse(_other_site_page(base_url))

    with live_server(Starlette(routes=[Route("/", page)])) as url:
        yield url.replace("127.0.0.1", "localhost") + "/"


# the other site's page: the refusals it provokes, and its own missing favicon
@pytest.mark.console_errors(r"status of 415 .*/api/(tables|accounts)",
                            r"status of 404 .*/favicon\.ico")
def test_another_sites_forms_and_fetches_change_nothing(
        new_context: Callable[..., BrowserContext], base_url: str, other_site: str) -> None:
    context = new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    answers: list[tuple[str, int]] = []
    page.on("response", lambda r: answers.append((r.url, r.status))
            if r.url.startswith(base_url) else None)
    page.goto(other_site)
    assert page.evaluate("window.sent") == "sent"
    for form in ("#text", "#form"):
        page.goto(other_site)
        with page.expect_navigation():
            page.locator(form).evaluate("f => f.submit()")
        expect(page.locator("body")).to_contain_text("Content-Type: application/json")
    # the two fetches at each of the three visits, and the two forms
    assert sorted(answers) == sorted([(f"{base_url}/api/tables", 415)] * 7
                                     + [(f"{base_url}/api/accounts", 415)]), answers
    assert httpx.get(f"{base_url}/healthz").json()["tables"] == 0
    signed_in = httpx.post(f"{base_url}/api/session",
                           json={"username": "forged", "password": "correct horse"})
    assert signed_in.status_code == 401  # the form made no account

    # The site's own page: a practice table, an account, and a sign-out with no body.
    own = new_context(base_url=base_url, viewport={"width": 1280, "height": 800}).new_page()
    own.goto("/")
    own.get_by_role("button", name="Start this table").click()
    expect(own).to_have_url(re.compile(r"/table/[\w-]+$"))
    own.goto("/account")
    form = own.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("ownsite")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(own.locator("#account")).to_contain_text("ownsite")
    with own.expect_response(lambda r: r.url.endswith("/api/session")
                             and r.request.method == "DELETE") as out:
        own.get_by_role("button", name="Sign out").click()
    assert out.value.status == 200
    assert httpx.get(f"{base_url}/healthz").json()["tables"] >= 1
