"""A Memory player for the browser tests that reads only the button panel, as a person using
a screen reader would, and remembers every card it has seen face up."""
from __future__ import annotations

from tests.browser.helpers import for_up_to, status, version, wait_version_after

CELLS_JS = """els => els.map(e => ({pos: e.dataset.pos, row: +e.dataset.row, col: +e.dataset.column,
    state: [...e.classList].find(c => c.startsWith('state-')).slice(6), text: e.textContent,
    enabled: e.getAttribute('aria-disabled') === 'false'}))"""


def read_cells(page) -> list[dict]:
    return page.eval_on_selector_all(".memory-grid .cell", CELLS_JS)


def rank(text: str) -> str:
    return text[:-1]  # "10♠" -> "10"


class Memory:
    def __init__(self):
        self.known: dict[str, str] = {}

    def look(self, cells):
        for cell in cells:
            if cell["state"] == "up":
                self.known[cell["pos"]] = rank(cell["text"])
            elif cell["state"] == "taken":
                self.known.pop(cell["pos"], None)

    def choose(self, cells) -> dict:
        """The cell to flip: a known partner, a known pair, else a card never seen."""
        self.look(cells)
        down = [c for c in cells if c["state"] == "down" and c["enabled"]]
        up = [c for c in cells if c["state"] == "up"]
        if len(up) == 1:
            for cell in down:
                if self.known.get(cell["pos"]) == rank(up[0]["text"]):
                    return cell
        else:
            by_rank: dict[str, list[dict]] = {}
            for cell in down:
                if cell["pos"] in self.known:
                    by_rank.setdefault(self.known[cell["pos"]], []).append(cell)
            for pair in by_rank.values():
                if len(pair) >= 2:
                    return pair[0]
        unseen = [c for c in down if c["pos"] not in self.known]
        return (unseen or down)[0]


def play_my_flips(page):
    """Plays the page's seat (the CPU plays the others) until the game is finished."""
    player = Memory()
    for _ in for_up_to(180):
        if status(page) == "finished":
            return
        cells = read_cells(page)
        if not any(c["enabled"] for c in cells):
            page.wait_for_timeout(30)  # the CPU's turn, or a mismatch being shown
            continue
        target = player.choose(cells)
        before = version(page)
        page.locator(f".memory-card[data-pos={target['pos']}]").click()
        wait_version_after(page, before)
        player.look(read_cells(page))
    raise AssertionError("the game did not end")
