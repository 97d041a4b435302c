"""A Gin Rummy player for the browser tests: passes the upcard, draws from the stock (or takes
the discard now and then), throws its highest deadwood card with two taps, knocks when the Knock
button appears. It uses the table or the panel, as told."""
from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.helpers import status, version, wait_version_after

VALUES = {"A": 1, "J": 10, "Q": 10, "K": 10}


def value(text: str) -> int:
    rank = text[:-1]
    return VALUES.get(rank) or int(rank)


def last_view(frames):
    states = [f for f in frames if f.get("type") == "state"]
    return states[-1]["view"] if states else None


class GinPlayer:
    def __init__(self, page, frames, use_table: bool, past_decided_hands: bool = True):
        self.page = page
        # False: the next hand is dealt only after a dead hand, so that a test waiting for a
        # decided hand's overlay sees it even when the hand ends between its look and this move.
        self.past_decided_hands = past_decided_hands
        self.frames = frames
        self.use_table = use_table
        self.took_discard = False
        self.knocks_seen = 0
        self.sunk_checked = False

    def visible(self, selector: str) -> bool:
        return self.page.locator(selector).count() > 0

    def act(self) -> bool:
        """One action if it is this player's move; False when there was nothing to do."""
        page = self.page
        view = last_view(self.frames)
        legal = {a["type"] for a in view["legal_actions"]} if view else set()
        # The Knock button is there exactly when knocking is legal.
        assert self.visible("#gin-knock") == ("knock" in legal and view["current_player"] == view["seat"])
        # The version is read after the checks: a CPU move may land between reading it and
        # seeing the buttons, and then the wait below would return before our own answer.
        if not any(self.visible(s) for s in ("#gin-knock", "#gin-pass", "#gin-draw-discard", "#gin-draw-stock",
                                             ".card-btn:enabled", "#gin-next-hand")):
            return False
        before = version(page)
        if self.visible("#gin-knock"):
            self.knocks_seen += 1
            page.click("#gin-knock")
        elif self.visible("#gin-pass"):
            page.click("#gin-pass")
        elif self.visible("#gin-draw-discard") and not self.took_discard:
            self.took_discard = True
            (page.locator(".gin-discard") if self.use_table else page.locator("#gin-draw-discard")).click()
        elif self.visible("#gin-draw-stock"):
            (page.locator(".gin-stock") if self.use_table else page.locator("#gin-draw-stock")).click()
        elif self.visible(".card-btn:enabled"):
            self.discard()
        elif self.visible("#gin-next-hand"):
            if not self.past_decided_hands and last_view(self.frames)["last_hand"]["outcome"] != "dead":
                return False
            try:
                page.click("#gin-next-hand", timeout=5000)
            except PlaywrightTimeout:
                # The CPU dealt, then ended the game on its first turn while this page still
                # showed the hand before: the final result replaces that hand's (it stays under
                # Previous hands), so there is no Next hand left to press.
                if status(page) == "finished":
                    return True
                # Or the sheet was drawn again under the pointer at every try (a state arrived
                # each time, on a loaded machine): press the button there is now.
                if not page.evaluate("(() => { const b = document.getElementById('gin-next-hand');"
                                     " if (!b || b.disabled) return false; b.click(); return true; })()"):
                    return False
            if "next_hand" not in legal:
                return True  # the other player has dealt: the press only ends this page's result
        else:
            return False
        wait_version_after(page, before)
        return True

    def discard(self):
        page = self.page
        if self.took_discard and not self.sunk_checked:
            # The card just taken from the discard pile sinks and does not respond.
            sunk = page.locator(".card-btn.sunk")
            assert sunk.count() == 1 and sunk.is_disabled()
            assert page.locator(".pcard.in-hand.sunk").count() == 1
            self.sunk_checked = True
        buttons = page.locator(".hand-group.deadwood .card-btn:enabled")
        if buttons.count() == 0:
            buttons = page.locator(".card-btn:enabled")
        texts = buttons.all_inner_texts()
        card = buttons.nth(max(range(len(texts)), key=lambda i: value(texts[i]))).get_attribute("data-card")
        if self.use_table:
            target = page.locator(f".pcard.in-hand[data-card='{card}']")
            target.click()  # lift
            assert "lifted" in target.get_attribute("class")
            assert page.locator(f".card-btn[data-card='{card}']").get_attribute("aria-pressed") == "true"
            page.locator(f".pcard.in-hand[data-card='{card}']").click()  # place
        else:
            page.locator(f".card-btn[data-card='{card}']").click()
            assert page.locator(f".card-btn[data-card='{card}']").get_attribute("aria-pressed") == "true"
            page.locator("#gin-place").click()
