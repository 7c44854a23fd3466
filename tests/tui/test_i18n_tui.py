"""The terminal game in French, Dutch and German: the table, the status
line and the footer, a refused move, the language setting (F9, remembered
for the next start), and every screen still fitting 80x24 in German, the
longest of the four."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.scroll_view import ScrollView
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from lucie import i18n
from lucie.engine import FAN_NAMES, Move
from lucie.i18n import TRANSLATED
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp
from lucie.tui.review import HistoryScreen, ReviewScreen
from lucie.tui.screens import (
    ConfirmScreen,
    EndScreen,
    LanguageScreen,
    NewGameScreen,
    TextScreen,
    VariantScreen,
)
from lucie.tui.table import FOOTER_KEY, footer_keys, glyphs
from lucie.tui.widgets import Line

pytestmark = pytest.mark.anyio

SIZE = (80, 24)
#: A card as the table shows it, and a card code (never shown).
re_card = re.compile(r"(10|[2-9AJQKVDRHB])[♣♦♥♠]")
re_code = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])")

#: Words of the table in each language: the header's deal, the
#: foundations' label, the footer's undo and hint, the welcome message.
WORDS = {
    "fr": ("donne 11", "fondations", "Annuler", "Indice",
           "Prenez une carte\u00a0: tapez la lettre de son éventail ou cliquez dessus."),
    "nl": ("gift 11", "basis", "Ongedaan maken", "Hint",
           "Kies een kaart: druk op de letter van zijn waaier of klik erop."),
    "de": ("Austeilung 11", "Ablage", "Rückgängig", "Tipp",
           "Wählen Sie eine Karte: Drücken Sie den Buchstaben ihres Fächers oder klicken Sie "
           "sie an."),
}
#: "Not allowed: ..." and "(Esc drops the picked card.)" in each language.
REFUSAL = {
    "fr": ("Refusé\u00a0: ", "(Échap repose la carte prise.)"),
    "nl": ("Niet toegestaan: ", "(Esc legt de gekozen kaart terug.)"),
    "de": ("Nicht erlaubt: ", "(Esc legt die gewählte Karte zurück.)"),
}


def footer_words(app: LucieApp) -> list[str]:
    return [key.description for key in app.screen.query(FOOTER_KEY)]


def line_text(app: LucieApp, id: str) -> str:
    return app.screen.query_one(f"#{id}", Line).text.plain


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_the_table_status_and_footer_speak_the_language(
    store: Store, lang: str,
) -> None:
    deal, foundations, undo, hint, welcome = WORDS[lang]
    app = LucieApp(store, "kim", Rules(), 11, clock=False, language=lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert deal in line_text(app, "header")
        assert str(app.screen.query_one("#foundations").render()).startswith(foundations)
        assert app.message.startswith(welcome)
        words = footer_words(app)
        assert undo in words and hint in words
        assert "Undo" not in words and "Keys" not in words


@pytest.mark.parametrize("lang", TRANSLATED)
async def test_an_illegal_move_is_refused_in_the_language(store: Store, lang: str) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False, language=lang)
    move = Move.parse("a>b")  # deal 1: 4♠ cannot go on 10♥ (fans build down in suit)
    with i18n.using("en"):
        english = app.game.position.why_illegal(move)
    assert english is not None and "cannot go on" in english
    with i18n.using(lang):
        why = app.game.position.why_illegal(move)
    assert why is not None and why != english and "4♠" in why and "10♥" in why
    assert "4S" not in why and "TH" not in why
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a", "b")
        await pilot.pause()
        prefix, kept = REFUSAL[lang]
        assert app.message == glyphs(f"{prefix}{why}.  {kept}")
        assert app.message_kind == "error" and not app.game.moves


async def test_english_stays_as_it_was(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a", "b")
        await pilot.pause()
        assert app.message == ("Not allowed: 4♠ cannot go on 10♥ (fans build down in suit)."
                               "  (Esc drops the picked card.)")
        assert footer_words(app)[:4] == ["Undo", "Redo", "Redeal", "Hint"]


async def choose_language(app: LucieApp, pilot: Any, name: str) -> None:
    await pilot.press("f9")
    await pilot.pause()
    assert isinstance(app.screen, LanguageScreen)
    codes = list(i18n.LANGUAGES)
    names = list(i18n.LANGUAGES.values())
    options = app.screen.query_one("#languages")
    options.highlighted = names.index(name)  # type: ignore[attr-defined]
    await pilot.press("enter")
    await pilot.pause()
    assert i18n.language() == codes[names.index(name)]


async def test_the_language_switches_the_whole_screen_and_is_remembered(
    store: Store, tmp_path: Path,
) -> None:
    settings = tmp_path / "config" / "settings.json"
    app = LucieApp(store, "kim", Rules(), 11, clock=False, settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "deal 11" in line_text(app, "header") and "Undo" in footer_words(app)
        await choose_language(app, pilot, "Deutsch")
        await pilot.pause()
        assert "Austeilung 11" in line_text(app, "header")
        assert "Neuverteilungen übrig: 2" in line_text(app, "info")
        assert str(app.screen.query_one("#foundations").render()).startswith("Ablage")
        assert footer_words(app)[:4] == ["Rückgängig", "Wiederholen", "Neu verteilen", "Tipp"]
        assert app.message == "Sprache: Deutsch."
        await pilot.press("1")  # no free cell in this variant: a refusal in German
        await pilot.pause()
        assert app.message == "Diese Variante hat keine freien Zellen."
    assert json.loads(settings.read_text(encoding="utf-8")) == {
        "format": "lucie-settings", "language": "de"}

    # the next start speaks German, whatever the locale's language...
    i18n.set_language("en")
    again = LucieApp(store, "kim", None, None, clock=False, settings=settings)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert i18n.language() == "de"
        assert again.message.startswith("Willkommen zurück")
    # ...but an explicit --lang wins for that run, and changes nothing saved
    third = LucieApp(store, "kim", None, None, clock=False, language="fr", settings=settings)
    async with third.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert i18n.language() == "fr"
        await choose_language(third, pilot, "English")
        assert "Undo" in footer_words(third)
    assert json.loads(settings.read_text(encoding="utf-8")) == {
        "format": "lucie-settings", "language": "en"}


async def test_without_a_choice_the_command_line_decides(store: Store, tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    app = LucieApp(store, "kim", Rules(), 11, clock=False, language="nl", settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert i18n.language() == "nl" and "gift 11" in line_text(app, "header")
    assert not settings.exists()  # nothing chosen in the game, nothing written


async def test_a_damaged_settings_file_is_told_and_left_alone(
    store: Store, tmp_path: Path,
) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text("{not json", encoding="utf-8")
    app = LucieApp(store, "kim", Rules(), 11, clock=False, language="fr", settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.message_kind == "error"
        assert app.message.startswith("Le fichier de réglages") and str(settings) in app.message
    assert settings.read_text(encoding="utf-8") == "{not json"


# -- 80x24 in every language, German the longest ---------------------------


def scrolls(widget: Widget) -> bool:
    """Whether ``widget`` lies in something that scrolls (its content may
    rightly go beyond what is shown)."""
    return any(isinstance(node, ScrollableContainer | ScrollView)
               for node in widget.ancestors_with_self)


def problems(app: LucieApp) -> Iterator[str]:
    """Every widget of the screen that is cut off, or whose text is cut
    off or wrapped out of it, at the app's size."""
    screen = app.screen
    whole = Region(0, 0, *SIZE)
    for widget in screen.walk_children(Widget):
        if not widget.display or not widget.visible or widget.region.area == 0:
            continue
        if scrolls(widget):
            continue
        name = f"{type(widget).__name__}#{widget.id}"
        if not whole.contains_region(widget.region):
            yield f"{name} at {widget.region} is outside the screen"
        parent = widget.parent
        if isinstance(parent, Widget) and parent is not screen and parent.region.area \
                and not parent.region.contains_region(widget.region):
            yield f"{name} at {widget.region} sticks out of {type(parent).__name__}"
        size = widget.content_size
        if isinstance(widget, Button):
            label = str(widget.label)
            if cell_len(label) > size.width:
                yield f"button {label!r} is cut to {size.width} columns"
        elif isinstance(widget, Static | Label | Line) and size.width:
            needed = widget.get_content_height(size, screen.size, size.width)
            if needed > size.height:
                yield (f"{name} needs {needed} lines for its text, has {size.height}: "
                       f"{str(widget.render())[:60]!r}")
        elif footer_keys([widget]) and not getattr(widget, "description", ""):
            yield f"footer key {widget.key} has no words"


async def open_and_check(app: LucieApp, pilot: Any, keys: list[str], screen: type) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
    await pilot.pause()
    assert isinstance(app.screen, screen), (keys, app.screen)
    found = list(problems(app))
    assert not found, (keys, found)
    await pilot.press("escape")
    await pilot.pause()


@pytest.mark.parametrize("variant", ["classic", "merci", "reserve", "trefoil", "shamrocks"])
@pytest.mark.parametrize("lang", ["de", "fr", "nl"])
async def test_every_screen_fits_80x24(store: Store, lang: str, variant: str) -> None:
    """German is the longest; French and Dutch are checked too.  Every
    dialog is opened in classic; the table in each kind of variant
    (merci, free cells, aces first, no redeal)."""
    from lucie.tui.table import TableScreen

    app = LucieApp(store, "kim", Rules.parse(variant), 11, clock=False, language=lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        move = next(m for m in app.game.legal_moves if m.src_kind == "fan")
        await pilot.press(FAN_NAMES[move.src])  # a picked card: the longest status
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert not list(problems(app))
        keys = [k for k in app.screen.query(FOOTER_KEY)]
        assert keys and all(k.region.right <= SIZE[0] for k in keys)
        await pilot.press("escape")
        if variant != "classic":
            return
        await open_and_check(app, pilot, ["f1"], TextScreen)
        await open_and_check(app, pilot, ["f5"], TextScreen)
        await open_and_check(app, pilot, ["f2"], NewGameScreen)
        await open_and_check(app, pilot, ["v"], VariantScreen)
        await open_and_check(app, pilot, ["f9"], LanguageScreen)
        await open_and_check(app, pilot, ["f7"], HistoryScreen)
        await pilot.press(FAN_NAMES[move.src], FAN_NAMES[move.dst] if move.dst_kind == "fan"
                          else "enter")
        await pilot.pause()
        await open_and_check(app, pilot, ["f4"], ConfirmScreen)
        await open_and_check(app, pilot, ["s"], ConfirmScreen)
        await pilot.press("f8")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not list(problems(app))
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.review is not None
        assert not list(problems(app))


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("fr", "- 1 partie, victoires\u00a0: 0 (0,0\u00a0%)",
     "- 2 parties, victoires\u00a0: 0 (0,0\u00a0%)"),
    ("nl", "- 1 spel, 0 gewonnen (0,0%)", "- 2 spellen, 0 gewonnen (0,0%)"),
    ("de", "- 1 Spiel, 0 gewonnen (0,0\u00a0%)", "- 2 Spiele, 0 gewonnen (0,0\u00a0%)"),
])
async def test_statistics_count_games_in_the_language(
    store: Store, lang: str, one: str, two: str,
) -> None:
    app = LucieApp(store, "kim", Rules(), 11, clock=False, language=lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for expected in (one, two):
            await pilot.press("f8", "y")  # resign: the end screen
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            await pilot.press("a")  # the same deal again
            await pilot.pause()
            app.action_stats()
            await pilot.pause()
            assert isinstance(app.screen, TextScreen)
            assert expected in app.screen.markdown.splitlines()
            await pilot.press("escape")
            await pilot.pause()


async def test_the_command_palette_speaks_the_language(store: Store) -> None:
    from textual.command import CommandInput, CommandPalette

    app = LucieApp(store, "kim", Rules(), 11, clock=False, language="de")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Neues Spiel" in titles and "Neu verteilen" in titles
        assert "Ende" in titles and "Farbschema" in titles  # Textual's own, too
        assert "Language · Langue · Taal · Sprache" in titles  # found in any language
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(CommandInput).placeholder == "Befehle suchen…"


def test_a_hint_names_its_keys_in_the_language() -> None:
    from lucie.engine import Game
    from lucie.tui.controller import TableController

    table = TableController(Game(Rules(), 11))
    position = table.game.position
    home = Move("fan", 5, "foundation", -1)  # deal 11: the ace of hearts tops fan f
    assert position.is_legal(home)
    with i18n.using("fr"):
        reply = table.show_hint(position, home, "l'as va aux fondations")
    assert reply is not None
    assert reply.text == "Indice\u00a0: l'as va aux fondations.  Touches\u00a0: f Entrée"
    reply = table.show_hint(position, home, "the ace goes home")
    assert reply is not None and reply.text == "Hint: the ace goes home.  Keys: f Enter"


#: Deal 2 as each language shows it: fan a's cards (its face letters), what
#: the "send home" key reports after h>f, and a hint's opening.
CARDS_IN_WORDS = {
    "en": ("Q♦ J♣ 10♣", "Sent home: A♠ 2♠ 3♠"),
    "fr": ("D♦ V♣ 10♣", "Envoyées aux fondations : A♠ 2♠ 3♠"),
    "nl": ("V♦ B♣ 10♣", "Naar de basisstapels: A♠ 2♠ 3♠"),
    "de": ("D♦ B♣ 10♣", "Auf die Ablagen: A♠ 2♠ 3♠"),
}


@pytest.mark.parametrize("lang", sorted(CARDS_IN_WORDS))
async def test_cards_in_symbols_on_the_table_in_autoplay_and_hints(
    store: Store, lang: str,
) -> None:
    """The table's face letters follow the language; the "send home" report
    and a hint name the cards in symbols, never by their codes or the move
    notation (issue 37: "Sent home: f>f l>f" named nothing)."""
    fan_a, sent = CARDS_IN_WORDS[lang]
    app = LucieApp(store, "kim", Rules(), 2, clock=False, language=lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        fan = " ".join(str(app.screen.query_one("#fan-a").render()).split())
        assert fan_a in fan, fan
        await pilot.press("h", "enter")  # the ace of diamonds home
        await pilot.pause()
        assert app.game.moves == (Move.parse("h>f"),)
        assert app.message.startswith("A♦"), app.message
        await pilot.press("x")
        await pilot.pause()
        assert len(app.game.moves) == 4
        assert app.message.replace("\u00a0", " ").startswith(sent), app.message
        assert ">" not in app.message and "AS" not in app.message
        await pilot.press("t")
        for _tick in range(200):
            await pilot.pause(0.05)
            if app.message_kind == "hint" and app.message != i18n.translations(lang).gettext(
                    "Thinking…"):
                break
        hint = app.message
        assert app.message_kind == "hint"
        assert re_card.search(hint) and not re_code.search(hint), hint
        assert "[" not in hint  # no [kind] tag


async def test_the_keys_panel_is_lucies_own_and_esc_closes_it(store: Store) -> None:
    """Textual's key panel (its bindings in English) is replaced by lucie's
    page of keys, in the player's language; Esc closes it."""
    app = LucieApp(store, "kim", Rules(), 2, clock=False, language="de")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        with i18n.using("de"):
            keys = i18n.translations("de").gettext("Keys")
        assert keys in commands and keys != "Keys"
        assert "Show help for the focused widget" not in commands[keys].help
        commands[keys].callback()
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and not app.screen.query("HelpPanel")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, TextScreen)
