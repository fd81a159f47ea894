"""The pages work under the Content-Security-Policy (script files only), the watch reports what the policy
blocks, and a password change logs the account out on the other device."""
from __future__ import annotations

import re

from playwright.sync_api import expect


def test_an_inline_script_is_refused_and_reported(browser, live_server, page_watch):
    """Control for every browser test: an inline script is blocked, and PageWatch names it."""
    context = browser.new_context(base_url=live_server.url)
    watch = page_watch()
    watch.attach(context)
    page = context.new_page()
    page.goto("/login")
    with page.expect_console_message(lambda m: "Content Security Policy" in m.text):  # the refusal, not a sleep
        page.evaluate("""() => { const s = document.createElement('script');
                                 s.textContent = 'window.injected = 1'; document.body.appendChild(s); }""")
    assert page.evaluate("window.injected") is None
    assert any(p.startswith("CSP:") for p in watch.problems), watch.problems
    context.close()


def test_format_settings_and_confirmations_work_from_the_script_file(page, organizer, log_in, seed_swiss):
    log_in(page, organizer["email"])
    page.goto("/tournaments/new")
    single, plain = page.locator("[data-formats~=single]"), page.locator("[data-formats~=plain]")
    page.get_by_label("Format").select_option("plain")
    expect(plain).to_be_visible()
    expect(single).to_be_hidden()
    page.get_by_label("Format").select_option("single")
    expect(single).to_be_visible()
    expect(plain).to_be_hidden()
    page.get_by_label("Format").select_option("double")
    expect(single).to_be_hidden()
    expect(plain).to_be_hidden()

    event = seed_swiss(organizer["id"], [("Ana", "", ""), ("Ben", "", "")], rounds=0)
    page.goto(f"/tournaments/{event.id}/players")
    row = page.locator("table.players tr", has_text="Ana")
    questions = []
    page.once("dialog", lambda d: (questions.append(d.message), d.dismiss()))
    row.get_by_role("button", name="Remove").click()
    expect(row).to_be_visible()  # dismissed: nothing sent
    page.once("dialog", lambda d: (questions.append(d.message), d.accept()))
    row.get_by_role("button", name="Remove").click()
    expect(page.locator("table.players tr", has_text="Ana")).to_have_count(0)
    assert questions == ["Remove Ana from the tournament?"] * 2


def test_password_change_logs_out_the_other_device(page, phone, organizer, log_in, screenshots):
    laptop = page
    log_in(laptop, organizer["email"])
    log_in(phone, organizer["email"])
    phone.get_by_role("link", name="Account").click()
    phone.get_by_role("link", name="Change password").click()
    phone.get_by_label("Current password").fill(organizer["password"])
    phone.get_by_label("New password", exact=True).fill("a brand new password")
    phone.get_by_label("Repeat new password").fill("a brand new password")
    phone.screenshot(path=str(screenshots / "password-change-phone.png"), full_page=True)
    phone.get_by_role("button", name="Change password").click()
    expect(phone.get_by_text("Every other device is logged out.")).to_be_visible()
    laptop.reload()
    expect(laptop).to_have_url(re.compile(r"/login"))
    log_in(laptop, organizer["email"], "a brand new password")
