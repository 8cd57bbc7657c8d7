"""Taps per hand on the real-cards card picker, phone and TV, before and after its shortcuts.

Hands of 3 to 13 cards are dealt from a seeded, shuffled shoe of the variant (the party's: four decks, no joker;
`--variant app`: two decks and two jokers), each with the variant's wild rank for its size. Each hand is entered
through the picker's own JavaScript (static/js/cards.js, and phone-entry.js's pages), unchanged, in headless
Chromium (Playwright; the files are served to the page from this tree and, for "before", from git at `--before`):
every card a person taps is a click on the picker's grid, read by the module's own listeners, and each hand must
come out exactly as dealt. What a person does around the picker (a suit or a page switched, the pad opened,
its way chosen, Confirm) is counted from the strategy below, which is the layouts' own.

Before (`--before`, the tree as it stood): the phone showed one suit at a time and opened on hearts; the player
enters the suits one after the other, hearts first if held: one tap per card, one per other suit held, Confirm.
The TV's pad opened on Points: "Enter hand", "Cards", one click per card, Confirm.

After: the phone shows two suits a page (♣♦, ♥♠) and opens on phone-entry.js's `likelyPage`; the player enters
the page shown, then the other (one switch). The TV's pad opens on the way last used (Cards, once used: the
first hand of a night costs one click more). On both, a run of three or more cards of one suit goes in by its ends:
the low card, then the high one held (or shift-clicked, the same path in the core; one tap); a card held twice is
tapped twice; Confirm.

Also measured: the page the phone opens on when the picker comes back mid-hand (a reload, a helper switching
seats): `likelyPage` (the page with fewer cards in) against always the first page, in page switches still needed.

    .venv/bin/python bench/taps.py [--per-size 50] [--seed 1] [--variant party] [--before 1980a75]
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import random
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from partyrummy.i18n import default_catalogs  # noqa: E402
from partyrummy.rules.cards import make_shoe, parse_card  # noqa: E402
from partyrummy.rules.melds import best_arrangement  # noqa: E402
from partyrummy.rules.variants import default_variants  # noqa: E402

ORIGIN = "http://bench.localhost"
CHROMIUM = "/usr/bin/chromium"
SUITS = "CDHS"
RANKS = ["JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
PAGES = [[0, 1], [2, 3]]  # phone-entry.js's, checked against the module below

# In the page: one picker per hand on a fake server (the draft is the list sent), fed clicks by action lists.
DRIVE = """async ({ module, hands }) => {
  const { cardPicker } = await import(module);
  const faces = [];
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  for (const suit of "CDHS") for (const rank of ranks) faces.push(rank + suit);
  faces.push("JK");
  const out = [];
  for (const actions of hands) {
    const server = { cards: [], v: 0 };
    let picker = null;
    picker = cardPicker({
      draft: () => ({ cards: server.cards.map((card) => ({ card })), melds: [], orphans: [], penalty: 0 }),
      send: async (list) => { server.cards = list; server.v += 1; return { ok: true }; },
      version: () => server.v,
      error: () => {},
      redraw: () => picker && picker.settle(),
    });
    const make = (tag, attrs = {}) => Object.assign(document.createElement(tag), attrs);
    const grid = make("div");
    for (const _ of faces) grid.append(make("button"));
    grid.querySelectorAll("button").forEach((b, i) => { b.dataset.face = faces[i]; });
    const laid = make("div"), run = make("button"), undo = make("button");
    document.body.append(grid, laid, run, undo);
    picker.wire(grid, laid, run, undo);
    for (const [kind, face] of actions) {
      const button = grid.querySelector(`[data-face="${face}"]`);
      button.dispatchEvent(new MouseEvent("click", { bubbles: true, shiftKey: kind === "end" }));
      await Promise.resolve();
    }
    await new Promise((r) => setTimeout(r));
    out.push(server.cards);
    for (const node of [grid, laid, run, undo]) node.remove();
  }
  return out;
}"""

LIKELY = """async ({ lists }) => {
  const entry = await import("/static/js/phone-entry.js");
  return { pages: entry.PAGES, likely: lists.map((list) => entry.likelyPage(list)) };
}"""


def deal(per_size: int, seed: int, variant_name: str) -> list[tuple[list[str], int | None]]:
    """`per_size` hands of each size of 3 to 13 cards, each from a freshly shuffled shoe; with the wild rank."""
    variant = default_variants()[variant_name]
    rng = random.Random(seed)
    shoe = list(make_shoe(variant.decks_for(variant.max_players), variant.jokers))
    hands = []
    for size in range(3, 14):
        hand_no = variant.hand_sizes.index(size) + 1 if size in variant.hand_sizes else size - 2
        wild = variant.wild_rank(hand_no)
        for _ in range(per_size):
            rng.shuffle(shoe)
            hands.append(([str(card) for card in shoe[:size]], wild))
    return hands


def complete(count: int, seed: int) -> list[list[str]]:
    """13-card hands made of melds only, as a Match! caller holds them: runs of 3 to 6 cards of a suit and sets of
    3 or 4 suits of a rank (the sizes a partition of 13 into parts of 3 or more), no wild needed."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        parts, left = [], 13
        while left:
            part = rng.choice([n for n in range(3, 7) if left - n == 0 or left - n >= 3])
            parts.append(part)
            left -= part
        hand = []
        for part in parts:
            if part <= 4 and rng.random() < 0.4:
                rank = rng.randrange(1, 14)
                hand += [RANKS[rank] + SUITS[s] for s in rng.sample(range(4), part)]
            else:
                start, suit = rng.randrange(1, 15 - part), rng.choice(SUITS)
                hand += [RANKS[r] + suit for r in range(start, start + part)]
        if max(Counter(hand).values()) <= 4:
            hands.append(hand)
    return hands


def penalty(faces: list[str], wild: int | None, rules) -> int:
    return best_arrangement([parse_card(f) for f in faces], wild, rules).penalty


def suit_of(face: str) -> int:
    return SUITS.find(face[-1])  # -1: a joker


def by_runs(faces: list[str], shortcuts: bool) -> list[tuple[str, str]]:
    """The clicks for one suit's cards: with the shortcuts, a run of three or more by its ends (low tapped, high
    held); every other card (and a second copy) tapped."""
    if not shortcuts or not faces:
        return [("tap", f) for f in faces]
    ranks = Counter(RANKS.index(f[:-1]) for f in faces)
    suit = faces[0][-1]
    actions, chain = [], []
    for rank in [*sorted(ranks), None]:
        if rank is not None and chain and rank == chain[-1] + 1:
            chain.append(rank)
            continue
        if len(chain) >= 3:
            actions += [("tap", RANKS[chain[0]] + suit), ("end", RANKS[chain[-1]] + suit)]
        else:
            actions += [("tap", RANKS[r] + suit) for r in chain]
        chain = [rank] if rank is not None else []
    for rank, count in ranks.items():  # the copies past the first: one tap each
        actions += [("tap", RANKS[rank] + suit)] * (count - 1)
    return actions


def plan(hand: list[str], screen: str, after: bool, first_page: int) -> tuple[list[tuple[str, str]], int]:
    """A person's clicks on the picker's cards for `hand`, and the taps around them (switches, opening, Confirm)."""
    suits = [s for s in range(4) if any(suit_of(f) == s for f in hand)]
    jokers = [("tap", "JK")] * sum(f == "JK" for f in hand)
    clicks: list[tuple[str, str]] = []
    if screen == "phone" and after:
        order = [first_page, 1 - first_page]
        pages = [p for p in order if any(s in PAGES[p] for s in suits)]
        for page in pages:
            for s in PAGES[page]:
                clicks += by_runs([f for f in hand if suit_of(f) == s], True)
        around = max(0, len(pages) - 1) + (pages[:1] != [first_page] and bool(pages)) + 1  # switches, Confirm
    elif screen == "phone":
        order = sorted(suits, key=lambda s: s != 2)  # hearts first: the old picker opened on them
        for s in order:
            clicks += by_runs([f for f in hand if suit_of(f) == s], False)
        around = len(order) - (2 in order) + 1  # a switch to each suit but hearts (jokers show on all), Confirm
    else:
        for s in suits:
            clicks += by_runs([f for f in hand if suit_of(f) == s], after)
        around = 1 + (0 if after else 1) + 1  # "Enter hand", "Cards" (before: every time), Confirm
    return clicks + jokers, around


def serve(route, before: str) -> None:
    """The page's files: this tree's, or under /before/ the tree at `before` (git show)."""
    path = route.request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/":
        body = b'<!doctype html><html lang="en" data-screen="phone"><body data-room="BENCH"></body></html>'
    elif path.startswith("/i18n/"):
        body = json.dumps(default_catalogs().page("en", "phone")).encode()
    elif path.startswith("/before/"):
        body = subprocess.run(["git", "show", f"{before}:{path[8:]}"], cwd=ROOT, capture_output=True, check=True).stdout
    else:
        body = (ROOT / path.lstrip("/")).read_bytes()
    kind = mimetypes.guess_type(path)[0] or ("text/html" if path == "/" else "application/json")
    route.fulfill(status=200, body=body, headers={"content-type": kind})


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-size", type=int, default=50, help="hands of each size, 3 to 13 cards")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="party")
    parser.add_argument("--before", default="1980a75", help="the commit whose picker is 'before'")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    hands = deal(args.per_size, args.seed, args.variant)
    rules = default_variants()[args.variant].meld_rules()
    melded = complete(args.per_size * 4, args.seed)
    rng = random.Random(args.seed)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--headless=new"])
        page = browser.new_page()
        page.route(f"{ORIGIN}/**", lambda route: serve(route, args.before))
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(ORIGIN + "/")
        fresh = page.evaluate(LIKELY, {"lists": [[]]})
        assert fresh["pages"] == PAGES, fresh["pages"]
        first = fresh["likely"][0]
        taps: dict[tuple[str, str], dict[int, list[int]]] = {}
        for screen in ("phone", "tv"):
            for when, module in (("before", "/before/static/js/cards.js"), ("after", "/static/js/cards.js")):
                plans = [plan(hand, screen, when == "after", first) for hand, _ in hands]
                entered = page.evaluate(DRIVE, {"module": module, "hands": [clicks for clicks, _ in plans]})
                for (hand, wild), got in zip(hands, entered, strict=True):  # entered exactly: the same score
                    assert Counter(got) == Counter(hand), (screen, when, hand, got)
                    assert penalty(got, wild, rules) == penalty(hand, wild, rules)
                counts = taps.setdefault((screen, when), {})
                for (hand, _), (clicks, around) in zip(hands, plans, strict=True):
                    counts.setdefault(len(hand), []).append(len(clicks) + around)
                plans = [plan(hand, screen, when == "after", first) for hand in melded]
                entered = page.evaluate(DRIVE, {"module": module, "hands": [clicks for clicks, _ in plans]})
                assert all(Counter(got) == Counter(hand) for hand, got in zip(melded, entered, strict=True))
                counts["melded"] = [len(clicks) + around for clicks, around in plans]
        # Reopened mid-hand: after k cards entered page by page, the page it opens on, and the switches left.
        cut = [(hand, rng.randrange(1, len(hand))) for hand, _ in hands if len(hand) >= 4]
        done = [entry_order(hand, first)[:k] for hand, k in cut]
        likely = page.evaluate(LIKELY, {"lists": done})["likely"]
        browser.close()
    assert not errors, errors

    print(
        f"Taps per hand to enter it, Confirm included ({len(hands)} hands, {args.per_size} of each size 3-13, "
        f"variant {args.variant}, seed {args.seed}; before = {args.before})"
    )
    print(
        f"{'cards':>5}  {'phone before':>14}  {'phone after':>14}  {'TV before':>14}  {'TV after':>14}   (median / p90)"
    )
    for size in range(3, 14):
        cells = []
        for key in (("phone", "before"), ("phone", "after"), ("tv", "before"), ("tv", "after")):
            values = taps[key][size]
            cells.append(f"{statistics.median(values):>6g} / {percentile(values, 0.9):<5}")
        print(f"{size:>5}  " + "  ".join(cells))
    thirteen = {key: taps[key][13] for key in taps}
    for screen in ("phone", "tv"):
        share = sum(v <= 15 for v in thirteen[(screen, "after")]) / len(thirteen[(screen, "after")])
        print(
            f"13 cards, {screen}: at most 15 taps in {share:.0%} of hands after, "
            f"{sum(v <= 15 for v in thirteen[(screen, 'before')]) / len(thirteen[(screen, 'before')]):.0%} before"
        )
    print(f"Complete 13-card hands, all melds, as a Match! caller enters them ({len(melded)} hands):")
    for screen in ("phone", "tv"):
        spread = {when: taps[(screen, when)]["melded"] for when in ("before", "after")}
        line = [f"{when} {statistics.median(v):g} / {percentile(v, 0.9)}" for when, v in spread.items()]
        print(f"  {screen}: " + ", ".join(line) + "   (median / p90)")
    left = [switches_left(hand, k, first, opened) for (hand, k), opened in zip(cut, likely, strict=True)]
    fixed = [switches_left(hand, k, first, 0) for hand, k in cut]
    print(
        f"Picker reopened mid-hand ({len(cut)} hands): page switches still needed, mean "
        f"{statistics.mean(left):.2f} opening on the page with fewer cards in (likelyPage), "
        f"{statistics.mean(fixed):.2f} always on the first page"
    )


def entry_order(hand: list[str], first: int) -> list[str]:
    """The order the phone's player enters a hand: the page opened first, then the other (jokers last)."""
    return [f for p in (first, 1 - first) for f in hand if suit_of(f) in PAGES[p]] + [f for f in hand if f == "JK"]


def switches_left(hand: list[str], k: int, first: int, opened: int) -> int:
    """Page switches needed to enter the rest of `hand` after its first k cards, the picker opening on `opened`."""
    rest = entry_order(hand, first)[k:]
    pages = {p for f in rest for p in (0, 1) if suit_of(f) in PAGES[p]}
    return len(pages) - (opened in pages) if pages else 0


if __name__ == "__main__":
    main()
