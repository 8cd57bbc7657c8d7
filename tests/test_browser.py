"""Played in real browsers: Debian's headless Chromium, a TV at 1920×1080 and four phones at 390×844, on a night of
tests/night.py.

The join starts from the QR code read off the TV's screenshot. Seed 9 deals a
hand in which Ana, taking from Dan's pile, matches after one cycle.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from partyrummy.phones import game as engine
from partyrummy.phones.commands import Draw
from partyrummy.rules.melds import best_discard
from partyrummy.rules.variants import default_variants, load_variants

from .browsers import SEED, expected_game, join, label
from .screens import host_tools

zxingcpp = pytest.importorskip("zxingcpp")
from PIL import Image  # noqa: E402

pytestmark = pytest.mark.server("--seed", str(SEED))  # the module's server: every room's first game from seed 9

NAMES = ["Ana", "Bob", "<b>Cy</b>", "<img src=x>"]  # the last two must show as text, never as HTML


def seat_phones(night, names: list[str]):
    """The TV, and one phone per name joined from the address the TV shows (the QR code's)."""
    tv = night.tv()
    join_url = tv.locator(".url").inner_text()
    phones = [night.page(join_url) for _ in names]
    for phone, name in zip(phones, names, strict=True):
        join(phone, name)
    return tv, join_url, phones


@pytest.mark.slow  # 25 s here: four phones in Chromium through a hand
def test_four_phones_join_from_the_qr_code_and_play_a_hand_by_tapping(nights, server, browser, shots: Path) -> None:
    night = nights(server=server, browser=browser)
    tv = night.tv()
    tv.get_by_text("Scan to join").wait_for()
    tv.screenshot(path=str(shots / "tv-lobby-empty.png"))
    picture = Image.open(io.BytesIO(tv.screenshot()))
    codes = zxingcpp.read_barcodes(picture)
    assert codes, "no QR code on the TV screen"
    join_url = codes[0].text
    assert re.fullmatch(re.escape(night.url) + r"/join/[A-Z]{4}", join_url)
    assert join_url == night.join_url

    phones = []
    for name in NAMES:
        phone = night.page(join_url)
        if not phones:
            phone.screenshot(path=str(shots / "phone-join.png"))
        join(phone, name)
        phones.append(phone)
    ana, bob = phones[0], phones[1]
    assert ana.locator("#neighbours").inner_text() == "You take from <img src=x>'s pile; your discards go to Bob."
    tv.get_by_text("4 players in").wait_for()
    assert tv.locator("#ring .seat-name").all_inner_texts() == NAMES
    assert tv.locator("#ring b, #ring img").count() == 0
    tv.screenshot(path=str(shots / "tv-lobby.png"))

    tv.get_by_label("Rules").select_option("browser")
    ana.get_by_role("button", name="Start the game").tap()  # Ana joined first: her phone is the VIP's
    tv.get_by_text("look at your cards").wait_for()
    host_tools(tv)
    tv.get_by_role("button", name="Call now").click()
    tv.get_by_role("heading", name="DRAW!").wait_for()
    tv.screenshot(path=str(shots / "tv-calling.png"))

    game, party = expected_game()
    dan_top = label(game, game.hand.piles[3][-1])
    for phone in phones:
        phone.get_by_role("button", name="Draw from the shoe").wait_for()
    ana.screenshot(path=str(shots / "phone-draw.png"))
    ana.get_by_role("button", name=f"Take {dan_top} from <img src=x>'s pile").tap()
    game, _ = engine.apply(game, Draw(0, "pile"))
    for seat in (1, 2, 3):  # each draw seen through before the next: the shoe deals in the order they arrive
        phones[seat].get_by_role("button", name="Draw from the shoe").tap()
        phones[seat].get_by_text("You drew").wait_for()
        game, _ = engine.apply(game, Draw(seat, "shoe"))

    # A phone reloaded mid-hand comes back to its seat and hand.
    bob.get_by_text("You drew").wait_for()
    before = sorted(bob.locator("#hand .card-button").all_inner_texts())
    bob.reload()
    bob.get_by_text("You drew").wait_for()
    assert sorted(bob.locator("#hand .card-button").all_inner_texts()) == before

    rules = party.meld_rules()
    for seat, phone in enumerate(phones):
        ids = game.hand.hands[seat]
        pick = ids[best_discard(game.hand.cards_of(ids), game.hand.wild_rank, rules)]
        if seat == 0:  # pick one card, then change to another
            other = next(i for i in ids if label(game, i) != label(game, pick))
            phone.get_by_role("button", name=label(game, other), exact=True).first.tap()
            phone.get_by_text(f"Discarding {label(game, other)}").wait_for()
            phone.get_by_role("button", name=label(game, pick), exact=True).first.tap()
            phone.get_by_text(f"Discarding {label(game, pick)}").wait_for()
            phone.screenshot(path=str(shots / "phone-choose.png"))
        else:
            phone.get_by_role("button", name=label(game, pick), exact=True).first.tap()
            phone.get_by_text(f"Discarding {label(game, pick)}").wait_for()
    tv.get_by_role("heading", name="DISCARD!").wait_for()
    assert "went onto your pile" in ana.locator("#p-where").inner_text()

    # The TV reloaded shows the same table.
    piles = tv.locator("#seats .pile").all_inner_texts()
    tv.reload()
    tv.get_by_role("heading", name="DISCARD!").wait_for()
    assert tv.locator("#seats .pile").all_inner_texts() == piles

    ana.get_by_role("button", name="Match!").tap()
    tv.get_by_role("heading", name="ANA CALLS MATCH! Last draw…").wait_for()
    tv.screenshot(path=str(shots / "tv-match.png"))
    host_tools(tv)
    tv.get_by_role("button", name="Call now").click()
    for phone in phones[1:]:
        phone.get_by_role("heading", name="Last draw: take a card!").wait_for()
        phone.get_by_role("button", name="Draw from the shoe").tap()
        phone.locator(".card-button.new").tap()
    tv.get_by_role("heading", name="Hand 1 scored").wait_for()
    tv.screenshot(path=str(shots / "tv-scores.png"))
    ana.get_by_role("heading", name="Hand 1 scores").wait_for()
    ana.screenshot(path=str(shots / "phone-results.png"))
    assert ana.get_by_text("Ana: 0").count() == 1
    for name in NAMES[2:]:  # names with markup are text everywhere
        assert tv.get_by_text(name, exact=True).count() >= 1
        assert ana.get_by_text(f"{name}:", exact=False).count() >= 1
    assert tv.locator("#score-table b, #score-table img, #p-results img").count() == 0
    assert not night.watch.problems, night.watch.problems


def test_a_borrowed_phone_scans_the_rejoin_qr_from_the_tv_and_gets_the_hand(
    nights, server, browser, shots: Path
) -> None:
    night = nights(server=server, browser=browser)
    tv, join_url, phones = seat_phones(night, NAMES[:2])
    tv.get_by_label("Rules").select_option("browser")
    tv.get_by_role("button", name="Start the game").click()
    host_tools(tv)
    tv.get_by_role("button", name="Call now").click()
    bob = phones[1]
    bob.get_by_role("button", name="Draw from the shoe").wait_for()
    hand = sorted(bob.locator("#hand .card-button").all_inner_texts())

    tv.get_by_role("button", name="Bob: rejoin code and seat controls").click()
    # A phone's seat mid-game may be opened or given to a bot: the server says so, and the panel offers both.
    assert tv.locator("#panel-release").is_visible() and tv.locator("#panel-bot").is_visible()
    qr = tv.locator("#panel-qr")
    assert qr.is_hidden()  # a seat's key: shown only on a tap
    tv.get_by_role("button", name="Show the rejoin code").click()
    tv.locator("#panel-qr[src^='data:image/svg']").wait_for()
    qr.evaluate("img => img.decode()")  # the QR drawn (a polling predicate would need eval, which the CSP forbids)
    tv.screenshot(path=str(shots / "tv-rejoin-qr.png"))
    codes = zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.screenshot())))
    assert codes, "no QR code in the seat panel"
    assert re.fullmatch(re.escape(join_url) + r"#claim=[\w-]{20,}", codes[0].text)
    tv.get_by_role("button", name="Close").click()

    borrowed = night.page(codes[0].text)
    borrowed.get_by_role("button", name="Draw from the shoe").wait_for()
    assert sorted(borrowed.locator("#hand .card-button").all_inner_texts()) == hand
    assert "#claim" not in borrowed.url  # a reload does not spend the ticket again
    bob.get_by_text("Your seat is now open on another device").wait_for()
    borrowed.reload()
    borrowed.get_by_role("button", name="Draw from the shoe").wait_for()
    borrowed.get_by_role("button", name="Draw from the shoe").tap()
    borrowed.get_by_text("You drew").wait_for()
    borrowed.screenshot(path=str(shots / "phone-rejoined.png"))
    assert not night.watch.problems, night.watch.problems


@pytest.mark.slow
def test_a_classic_game_takes_turns_round_the_table_with_one_shared_pile(nights, browser, shots: Path) -> None:
    seed = 1  # the first dealer is drawn from the seed: with this one, Ana deals
    night = nights(seed=seed, browser=browser)
    tv, _, phones = seat_phones(night, ["Ana", "Bob", "Cy"])
    tv.get_by_label("Rules").select_option("fastclassic")
    ana, bob, cy = phones
    ana.get_by_text("You play after Cy; Bob plays after you.").wait_for()
    ana.get_by_role("button", name="Start the game").tap()

    classic = load_variants(Path(__file__).with_name("fast.toml"), base=default_variants())["fastclassic"]
    game, _ = engine.new_game(classic, 3, seed)
    top = label(game, game.hand.piles[0][-1])
    tv.get_by_role("heading", name="BOB'S TURN: DRAW").wait_for()  # Ana deals, Bob on her left starts
    bob.get_by_role("heading", name="YOUR TURN: DRAW").wait_for()
    assert tv.locator("#shared-pile").inner_text().split() == ["Pile", top]
    assert ana.get_by_role("button", name="Draw from the shoe").is_hidden()
    # Ana's page shows the same moment in its own time (the TV's and Bob's headings say only that it came).
    ana.locator("#p-where", has_text=f"On the pile: {top}.").wait_for()
    assert ana.locator("#p-where").inner_text() == f"On the pile: {top}."
    ana.locator("#coach summary").tap()  # the first hand's tips tell of turns, not of party mode's calls
    assert ana.locator("#coach-turn").inner_text().startswith("On your turn take one card")
    tv.screenshot(path=str(shots / "tv-classic-turn.png"))
    bob.screenshot(path=str(shots / "phone-classic-turn.png"))

    bob.get_by_role("button", name=f"Take {top} from the pile").tap()
    game, _ = engine.apply(game, Draw(1, "pile"))
    ids = game.hand.hands[1]
    pick = ids[best_discard(game.hand.cards_of(ids), game.hand.wild_rank, classic.meld_rules())]
    bob.get_by_role("button", name=label(game, pick), exact=True).first.tap()
    tv.get_by_role("heading", name="CY'S TURN: DRAW").wait_for()
    assert tv.locator("#shared-pile").inner_text().split() == ["Pile", label(game, pick)]
    cy.get_by_role("button", name=f"Take {label(game, pick)} from the pile").wait_for()
    assert bob.get_by_role("button", name="Draw from the shoe").is_hidden()
    cy.get_by_role("button", name="Draw from the shoe").tap()
    cy.get_by_text("You drew").wait_for()
    assert not night.watch.problems, night.watch.problems


# A phone per language (the browser's own), the TV in Romanian chosen from its menu.
LOCALES = {"Ana": "pt-BR", "Bob": "es-ES", "Cy": "ro-RO", "Dan": "fr-FR"}  # no French here: Dan reads English
WORDS = {
    "pt-BR": {
        "name": "Seu nome",
        "join": "Entrar",
        "in": "Você entrou, {}!",
        "shoe": "Comprar do monte",
        "last": "Última compra: pegue uma carta!",
    },
    "es": {
        "name": "Tu nombre",
        "join": "Entrar",
        "in": "¡Ya estás dentro, {}!",
        "shoe": "Robar del mazo",
        "last": "Último robo: ¡roba una carta!",
    },
    "ro": {
        "name": "Numele tău",
        "join": "Intră",
        "in": "Ai intrat, {}!",
        "shoe": "Trage din pachet",
        "last": "Ultima tragere: trage o carte!",
    },
    "en": {
        "name": "Your name",
        "join": "Join",
        "in": "You're in, {}!",
        "shoe": "Draw from the shoe",
        "last": "Last draw: take a card!",
    },
}
LANGS = ["pt-BR", "es", "ro", "en"]

# Speech on the TV, recorded: which words, in which language, with which voice (the browser offers three).
FAKE_SPEECH = """
window.__spoken = [];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; this.voice = null; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak(u) { window.__spoken.push([u.text, u.lang, u.voice && u.voice.lang]); },
  cancel() {},
  getVoices() { return [{ lang: "en-US", name: "E" }, { lang: "ro-RO", name: "R" }, { lang: "pt-PT", name: "P" }]; },
} });
"""

# Every visible element whose text does not fit: wider than its box, or past the screen's edge.
OVERFLOWING = """
() => [...document.querySelectorAll("body *")].filter((el) => {
  const box = el.getBoundingClientRect();
  if (!box.width || getComputedStyle(el).visibility === "hidden") return false;
  const clipped = el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1;
  return clipped || box.right > window.innerWidth + 1 || box.left < -1;
}).map((el) => `${el.tagName}#${el.id}.${el.className}: ${el.textContent.slice(0, 60)}`)
"""


@pytest.mark.slow  # 24 s here
def test_phones_in_four_languages_play_a_hand_each_in_its_own_and_the_tv_in_its_own(
    nights, server, browser, shots: Path
) -> None:
    night = nights(server=server, browser=browser)
    tv = night.tv()
    tv.context.add_init_script(FAKE_SPEECH)
    tv.get_by_text("Scan to join").wait_for()  # the laptop's browser speaks English
    host_tools(tv)
    tv.get_by_label("Language").select_option("ro")
    tv.get_by_text("Scanează ca să intri").wait_for()
    tv.reload()  # the choice is remembered
    tv.get_by_text("Scanează ca să intri").wait_for()
    assert tv.evaluate("document.documentElement.lang") == "ro"
    join_url = tv.locator(".url").inner_text()

    phones = []
    for (name, locale), lang in zip(LOCALES.items(), LANGS, strict=True):
        phone = night.page(join_url, locale=locale)
        words = WORDS[lang]
        phone.locator("#join-form").get_by_label(words["name"]).fill(name)
        phone.get_by_role("button", name=words["join"], exact=True).tap()
        phone.get_by_text(words["in"].format(name)).wait_for()
        assert phone.evaluate("document.documentElement.lang") == lang
        phones.append(phone)
    ana, bob, cy, dan = phones
    ana.get_by_text("Você pega do lixo de Dan; seus descartes vão para Bob.").wait_for()
    tv.get_by_text("4 jucători la masă").wait_for()
    tv.get_by_label("Reguli").select_option("browser")
    ana.get_by_role("button", name="Começar o jogo").tap()
    tv.get_by_text("Runda 1: uitați-vă la cărți").wait_for()
    host_tools(tv)
    tv.get_by_role("button", name="Strigă acum").click()
    tv.get_by_role("heading", name="TRAGEȚI!").wait_for()
    assert tv.locator("#info").inner_text() == "Runda 1 din 11 · 3 cărți · Jokeri: 3"
    assert ["TRAGEȚI!", "ro", "ro-RO"] in tv.evaluate("window.__spoken")  # a Romanian voice says it
    # Another language says the call again, once, whatever switches were flipped before.
    host_tools(tv)
    tv.get_by_label("Sunet").uncheck()
    tv.get_by_label("Sunet").check()
    host_tools(tv)
    tv.get_by_label("Limba").select_option("pt-BR")
    tv.get_by_role("heading", name="COMPREM!").wait_for()
    assert tv.evaluate("window.__spoken").count(["COMPREM!", "pt-BR", "pt-PT"]) == 1  # the nearest voice
    host_tools(tv)
    tv.get_by_label("Idioma").select_option("ro")
    tv.get_by_role("heading", name="TRAGEȚI!").wait_for()

    game, party = expected_game()
    dan_top = label(game, game.hand.piles[3][-1])
    for phone, lang in zip(phones, LANGS, strict=True):
        phone.get_by_role("button", name=WORDS[lang]["shoe"]).wait_for()
    # One heading says what to do now, in each phone's language ("Draw!" is not said twice under it).
    assert ana.locator("#p-step").inner_text() == "Compre uma carta!"
    assert cy.locator("#p-step").inner_text() == "Trage o carte!"
    assert ana.locator("#p-call").inner_text() == "" and ana.get_by_role("heading").count() == 1
    assert bob.locator("#p-info").inner_text() == "Ronda 1 de 11 · 3 cartas · Comodines: 3"
    ana.get_by_role("button", name=f"Pegar {dan_top} do lixo de Dan").tap()
    game, _ = engine.apply(game, Draw(0, "pile"))
    # Each draw seen through before the next: the shoe deals in the order the draws reach the server.
    for seat, lang, drew in ((1, "es", "Robaste"), (2, "ro", "Ai tras"), (3, "en", "You drew")):
        phones[seat].get_by_role("button", name=WORDS[lang]["shoe"]).tap()
        phones[seat].get_by_text(drew).wait_for()
        game, _ = engine.apply(game, Draw(seat, "shoe"))

    # Bob switches his phone to Romanian mid-hand, and it stays so after a reload; then back to Spanish.
    bob.get_by_text("Robaste").wait_for()
    bob.get_by_label("Idioma").select_option("ro")
    bob.get_by_text("Ai tras").wait_for()
    bob.reload()
    bob.get_by_text("Ai tras").wait_for()
    bob.get_by_label("Limba").select_option("es")
    bob.get_by_text("Robaste").wait_for()

    rules = party.meld_rules()
    picking = {"pt-BR": "Descartando {}", "es": "Descartas {}", "ro": "Arunci {}", "en": "Discarding {}"}
    for seat, (phone, lang) in enumerate(zip(phones, LANGS, strict=True)):
        ids = game.hand.hands[seat]
        pick = ids[best_discard(game.hand.cards_of(ids), game.hand.wild_rank, rules)]
        phone.get_by_role("button", name=label(game, pick), exact=True).first.tap()
        phone.get_by_text(picking[lang].format(label(game, pick))).wait_for()
        phone.screenshot(path=str(shots / f"phone-play-{lang}.png"))
        assert phone.evaluate(OVERFLOWING) == [], lang
    tv.get_by_role("heading", name="ARUNCAȚI!").wait_for()

    ana.get_by_role("button", name="Bati!").tap()
    tv.get_by_role("heading", name="ANA A ÎNCHIS! Ultima tragere…").wait_for()
    tv.screenshot(path=str(shots / "tv-match-ro.png"))
    cy.get_by_role("heading", name="Ana a închis!").wait_for()  # someone's Match!: the phones' headline
    bob.get_by_role("heading", name="¡Ana cierra!").wait_for()
    host_tools(tv)
    tv.get_by_role("button", name="Strigă acum").click()
    for phone, lang in zip(phones[1:], LANGS[1:], strict=True):
        phone.get_by_role("heading", name=WORDS[lang]["last"]).wait_for()
        phone.get_by_role("button", name=WORDS[lang]["shoe"]).tap()
        phone.locator(".card-button.new").tap()
    tv.get_by_role("heading", name="Runda 1: punctaj").wait_for()
    tv.screenshot(path=str(shots / "tv-scores-ro.png"))
    scores = ["Pontos da rodada 1", "Puntos de la ronda 1", "Punctele rundei 1", "Hand 1 scores"]
    for phone, heading in zip(phones, scores, strict=True):
        phone.get_by_role("heading", name=heading).wait_for()
        assert phone.evaluate(OVERFLOWING) == []
    ana.screenshot(path=str(shots / "phone-results-pt-BR.png"))
    cy.screenshot(path=str(shots / "phone-results-ro.png"))

    # The TV's choice is the TV's: a phone page on the same laptop starts in the laptop's language.
    own = tv.context.new_page()
    own.goto(join_url)
    own.get_by_role("button", name="Join", exact=True).wait_for()
    assert not night.watch.problems, night.watch.problems


def test_a_wrong_room_code_is_explained_in_the_phones_language(server, browser) -> None:
    context = browser.new_context(locale="es-AR")  # not watched: the 404 itself is a console error
    page = context.new_page()
    assert page.goto(server.url + "/join/QQQQ").status == 404
    page.get_by_role("heading", name="Aquí no hay ninguna partida «QQQQ»").wait_for()
    assert page.title() == "Partida no encontrada · PartyRummy"
    context.close()
