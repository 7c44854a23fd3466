"""The page's ES modules in a real browser under the page's own strict
Content-Security-Policy (the other browser tests bypass it to script the
page): every module loads, the page starts, and no policy violation, console
error or uncaught error happens while it is used, in every language.

Skipped when /usr/bin/chromium is absent, unless ``LUCIE_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api

from lucie.web.app import STATIC

pytestmark = pytest.mark.browser

LOCALES = {"en": "en-US", "fr": "fr-FR", "nl": "nl-NL", "de": "de-DE"}

#: Records every Content-Security-Policy violation the page meets.
WATCH_POLICY = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`);
});
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_modules_load_under_the_policy(browser: Any, live_server: Any, lang: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  locale=LOCALES[lang])  # the policy is enforced
    context.add_init_script(WATCH_POLICY)
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
    scripts: dict[str, str] = {}

    def seen(response: Any) -> None:
        if "/static/" in response.url and response.url.endswith(".js"):
            scripts[response.url.rsplit("/", 1)[1]] = response.headers.get("content-type", "")

    page.on("response", seen)
    try:
        answer = page.goto(live_server.url + "/?variant=classic&deal=1")
        assert answer is not None
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe" not in policy
        page.wait_for_selector("body.ready")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("#fans .card").count() == 52
        # the page in use: a card held, the rules, the settings, the statistics
        page.locator('.card[data-card="KH"]').click()
        page.keyboard.press("Escape")
        page.keyboard.press("?")
        page.locator("#d-rules").wait_for(state="visible")
        page.keyboard.press("Escape")
        page.locator("#b-settings").click()
        page.locator("#d-settings").wait_for(state="visible")
        page.locator("#settings-close").click()
        page.keyboard.press("s")
        page.locator("#stats-page").wait_for(state="visible")
        page.locator("#chart-scores svg").wait_for()
        page.locator("#b-back").click()
        page.locator("#game").wait_for(state="visible")
        # every module of the page was fetched, as JavaScript
        modules = sorted(p.name for p in STATIC.glob("*.js"))
        assert sorted(scripts) == modules
        assert all("javascript" in kind for kind in scripts.values()), scripts
        assert page.evaluate("window.__violations") == []
        assert problems == []
    finally:
        context.close()
