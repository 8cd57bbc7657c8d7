"""The message catalogs: every sentence a person reads, by a stable key, in each language we ship.

The catalogs are gettext PO files, one per language in `partyrummy/locales/`,
with stable keys as msgids (`error.not_held`, `call.draw`) and English a
catalog like the others. Babel reads them and compiles each, in memory, into
gettext translations for the server's own words (refusals, notices, the CSV)
and into JSON for the pages. The pages pick plural forms with the browser's
`Intl.PluralRules`, which names CLDR categories ("one", "few", "other"), so
the JSON keys each plural message by category, mapped from the catalog's own
gettext plural formula.

Messages are `str.format` templates: `{card}`, `{name}`; plural ones take `{n}`.

A catalog whose speakers count zero in the plural, though CLDR and gettext put 0 with 1 (Brazilians say
"0 pontos"), says so in its header, `X-Zero-Plural: other`: a count of 0 then takes the "other" form, on
the server and in the pages alike.
"""

from __future__ import annotations

import gettext
import io
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from .rules.cards import Card

__all__ = ["DEFAULT_LANGUAGE", "LOCALES", "NOT_ON", "SERVER_ONLY", "Catalogs", "Language", "default_catalogs"]

DEFAULT_LANGUAGE = "en"
LOCALES = Path(__file__).resolve().parent / "locales"

# Numbers the plural mapping is checked on: every count a game shows (cards, points, players) and far beyond.
_SAMPLES = (*range(0, 1201), 1_000_000, 2_000_000, 1_000_001)


@dataclass(frozen=True)
class Language:
    """One shipped language: its BCP 47 tag (as browsers say it), its own name, its catalog."""

    tag: str
    name: str
    catalog: Catalog
    translations: Translations
    categories: dict[str, int]  # CLDR plural category -> the catalog's gettext plural form
    zero: str | None = None  # the CLDR category a count of 0 takes, where speakers differ from CLDR (the header's)
    zero_as: int | None = None  # a count of that category, whose form 0 takes


class Catalogs:
    """Every shipped language, English first. Read once; nothing changes afterwards."""

    def __init__(self, folder: Path = LOCALES) -> None:
        languages = [_load(path) for path in sorted(folder.glob("*.po"))]
        english = next((lang for lang in languages if lang.tag == DEFAULT_LANGUAGE), None)
        if english is None:
            raise ValueError(f"{folder} has no {DEFAULT_LANGUAGE}.po: English is the reference catalog")
        for lang in languages:
            if lang is not english:
                lang.translations.add_fallback(english.translations)
        languages.sort(key=lambda lang: lang.tag != DEFAULT_LANGUAGE)
        self.languages: dict[str, Language] = {lang.tag: lang for lang in languages}
        self._folded = {tag.casefold(): tag for tag in self.languages}
        self.plural_keys = frozenset(message.id[0] for message in english.catalog if message.pluralizable)
        self._pages = {tag: self._page(lang) for tag, lang in self.languages.items()}
        self._screens = {
            (tag, screen): {**page, "messages": _for_screen(page["messages"], screen)}
            for tag, page in self._pages.items()
            for screen in NOT_ON
        }

    def find(self, *tags: Any) -> str:
        """The shipped language that best fits the first tag it can (`pt-PT` → `pt-BR`), else English.

        `tags` in the reader's order of preference, as a browser's Accept-Language lists them.
        """
        for tag in tags:
            if not isinstance(tag, str):
                continue
            wanted = tag.replace("_", "-").casefold()
            primary = wanted.split("-")[0]
            near = (known for folded, known in self._folded.items() if folded.split("-")[0] == primary)
            found = self._folded.get(wanted) or next(near, None)
            if found:
                return found
        return DEFAULT_LANGUAGE

    def text(self, tag: str, key: str, **params: Any) -> str:
        """The message `key` in shipped language `tag` (one `find` returned), filled with `params`.

        A plural message takes its count from `params["n"]`. A card, or a tuple of cards, is named in that
        language (a joker by its word, never its code).
        """
        lang = self.languages[tag]
        translations = lang.translations
        params = {name: _named(translations, value) for name, value in params.items()}
        if key in self.plural_keys:
            n = params["n"]
            if n == 0 and lang.zero_as is not None:  # "0 pontos": the form of a count of the header's category
                n = lang.zero_as
            template = translations.ngettext(key, key, n)
        else:
            template = translations.gettext(key)
        return template.format(**params)

    def page(self, tag: str, screen: str | None = None) -> dict[str, Any]:
        """What a page loads for one language: its tag, its name and every message (plurals by CLDR category).

        With `screen` ("tv" or "phone"), only the messages that screen can show: the words the server alone
        says, and those of the other screen, stay behind (old phones load the page's words on every join).
        """
        return self._pages[tag] if screen is None else self._screens[(tag, screen)]

    def names(self) -> list[tuple[str, str]]:
        """(tag, the language's name in itself) for each shipped language, for the language menus."""
        return [(tag, lang.name) for tag, lang in self.languages.items()]

    def _page(self, lang: Language) -> dict[str, Any]:
        messages: dict[str, Any] = {}
        for message in lang.catalog:
            if not message.id:
                continue  # the header
            if message.pluralizable:
                forms = message.string
                messages[message.id[0]] = {category: forms[index] for category, index in lang.categories.items()}
            else:
                messages[message.id] = message.string
        return {"lang": lang.tag, "name": lang.name, "zero": lang.zero, "messages": messages}


def _named(translations: Translations, value: Any) -> Any:
    """A parameter as a reader sees it: cards by their faces (7♥), the joker by its word in that language."""
    if isinstance(value, Card):
        return translations.gettext("card.joker") if value.is_joker else value.symbol
    if isinstance(value, tuple) and value and all(isinstance(card, Card) for card in value):
        return " ".join(_named(translations, card) for card in value)
    return value


# Words only the server says: refusals and notices arrive translated in the ack, the CSV is made on the server.
SERVER_ONLY = ("error.", "csv.")
# Words one screen never shows: the phone's steps and coach are not the TV's, the TV's words are not a phone's;
# nor are a phone's turn ("your turn"), its page title, a refusal's phase or the missing room's page (the TV's
# page weighs its words: tests/test_weight.py).
NOT_ON = {"tv": ("phone.", "real.", "coach.", "step.", "notice.", "call.your_", "title.phone", "phase.", "missing.",
                 "penalty.after", "card.joker", "podium."), "phone": ("tv.",)}


def _for_screen(messages: dict[str, Any], screen: str) -> dict[str, Any]:
    left_out = SERVER_ONLY + NOT_ON[screen]
    return {key: text for key, text in messages.items() if not key.startswith(left_out)}


def _load(path: Path) -> Language:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    locale = Locale.parse(path.stem)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    name = locale.get_display_name(locale)
    # Babel keeps only the headers it knows: this one is read from the file's header itself.
    said = re.search(r'^"X-Zero-Plural: ([a-z]+)\\n"$', path.read_text(encoding="utf-8"), re.M)
    zero = said.group(1) if said else None
    if zero is not None and zero not in {locale.plural_form(n) for n in _SAMPLES}:
        raise ValueError(f"{path.name}: X-Zero-Plural {zero!r} is no plural category of the language")
    return Language(
        tag=path.stem.replace("_", "-"),
        name=name[:1].upper() + name[1:],
        catalog=catalog,
        translations=Translations(compiled),
        categories=_categories(locale, catalog, path),
        zero=zero,
        zero_as=next(n for n in _SAMPLES if locale.plural_form(n) == zero) if zero else None,
    )


def _categories(locale: Locale, catalog: Catalog, path: Path) -> dict[str, int]:
    """Which of the catalog's plural forms each CLDR category stands for, checked on every sample count.

    The browser picks a category; the server picks a gettext form: they must always land on the same text.
    """
    formula = gettext.c2py(catalog.plural_expr)
    categories: dict[str, int] = {}
    for n in _SAMPLES:
        category, index = locale.plural_form(n), formula(n)
        if categories.setdefault(category, index) != index:
            raise ValueError(
                f"{path.name}: the Plural-Forms formula and CLDR disagree at n={n} "
                f"(category {category!r} is form {categories[category]} and form {index})"
            )
    return categories


@cache
def default_catalogs() -> Catalogs:
    """The shipped catalogs, read once per process."""
    return Catalogs()
