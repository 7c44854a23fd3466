"""Dialogs of the terminal game: confirm, new game, variants, help, end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, OptionList, Select, Static
from textual.widgets.option_list import Option

from lucie import i18n
from lucie.engine import Position
from lucie.i18n import N_, _, ngettext
from lucie.rules import VARIANTS, Rules

#: The keys and the mouse, one Markdown paragraph or list item each; the
#: items of keys that only some variants have are in :data:`KEYS_OF`.
KEYS_HELP: Final = (
    N_("## Keys"),
    N_("- **a … r**: pick the top card of that fan; with a card picked, move it onto "
       "that fan (**f** is fan f, like any other letter)"),
    N_("- **the same letter twice**: send the card home if it can go, else to its "
       "only possible fan"),
    N_("- **Enter**, **Space** or **.**: send the picked card to its foundation (home)"),
    N_("- **1 … 8**: pick a free cell, or move the picked card to that cell"),
    N_("- **Esc**: drop the picked card"),
    N_("- **u** or **Ctrl+Z**: undo your last move, with the cards autoplay sent home "
       "after it (as far back as you like); **y** or **Ctrl+Y**: redo"),
    N_("- **s**: redeal: gather, shuffle and deal again (asks first while moves remain)"),
    N_("- **w**: the merci: pick a buried card (its fan letter, then its number), then "
       "the fan it goes on"),
    N_("- **x**: send every safe card home now (**u** takes them all back); where "
       "no card is strictly safe (builds going up, as in Shamrocks), **x** sends "
       "the aces that can go home; **F6** or **Ctrl+A**: autoplay after each move, "
       "on or off"),
    N_("- **t**: a hint: what to play next and why (highlighted in blue)"),
    N_("- **v** or **F3**: choose the variant (a new game starts)"),
    N_("- **F2** or **Ctrl+N**: new game, a random deal or a deal number"),
    N_("- **F4** or **Ctrl+R**: restart this deal (redo brings the moves back)"),
    N_("- **F8**: resign a game that can no longer be won (it counts as lost; **u** "
       "takes it back)"),
    N_("- **F5**: your statistics, with your deals of the day; **F7**: your recent "
       "games, to review one; **?** or **F1**: this screen"),
    N_("- **F9**: the language (English, Français, Nederlands, Deutsch), remembered "
       "for the next time"),
    N_("- **Ctrl+P**: every command, searchable; **Ctrl+Q**: quit (the game is saved "
       "and resumes next time)"),
    N_("**Mouse**: click a fan to pick its top card, then click the fan (or the "
       "foundations, or a cell) where it goes.  Double-click a fan to send its top "
       "card home.  For the merci (**w**), click the buried card, then the fan."),
    N_("The picked card is yellow, the places it may go are green (their letter gets "
       "a **+**), a hint is blue, the cards the merci may lift are purple.  Every move "
       "is saved as it is made; leaving a game you have played for another one counts "
       "it as lost."),
)


#: The items of :data:`KEYS_HELP` told only where the variant has the thing.
KEYS_OF: Final[dict[str, Callable[[Rules], bool]]] = {
    KEYS_HELP[4]: lambda rules: bool(rules.cells),
    KEYS_HELP[7]: lambda rules: bool(rules.redeals),
    KEYS_HELP[8]: lambda rules: rules.merci,
}
#: The mouse paragraph without the merci, for variants that have none.
MOUSE_NO_MERCI: Final = N_(
    "**Mouse**: click a fan to pick its top card, then click the fan (or the "
    "foundations, or a cell) where it goes.  Double-click a fan to send its top "
    "card home.")


def keys_help(rules: Rules | None = None) -> str:
    """The keys and the mouse (Markdown), in the language in use; with
    ``rules``, only the keys that variant uses."""
    items = [text for text in KEYS_HELP
             if rules is None or text not in KEYS_OF or KEYS_OF[text](rules)]
    heading, keys, mouse, colours = items[0], items[1:-2], items[-2], items[-1]
    if rules is not None and not rules.merci:
        mouse = MOUSE_NO_MERCI
    return "\n".join(_(t) for t in [heading, "", *keys, "", mouse, "", colours]
                     if t) + "\n"


#: How fans build, for the rules page.
BUILD_WORDS: Final = {
    ("suit", "down"): N_("one rank lower **in the same suit**"),
    ("suit", "updown"): N_("one rank lower or higher in the same suit"),
    ("alternate", "down"): N_("one rank lower **in the other colour**"),
    ("alternate", "updown"): N_("one rank lower or higher in the other colour"),
    ("any", "down"): N_("one rank lower, **any suit**"),
    ("any", "updown"): N_("one rank lower **or higher**, any suit"),
}
#: What may fill an empty fan, for the rules page.
FILL_WORDS: Final = {
    "none": N_("An empty fan stays empty."),
    "king": N_("Only a king may go into an empty fan."),
    "any": N_("Any card may go into an empty fan."),
}


def fans_dealt(rules: Rules) -> str:
    """The fans of a deal in words, as the engine deals them: "17 fans of
    3 and 1 fan of 1" for La Belle Lucie."""
    sizes = Counter(len(fan) for fan in Position.deal(rules, 1).fans)
    parts = [ngettext("{n} fan of {size}", "{n} fans of {size}", n).format(n=n, size=size)
             for size, n in sorted(sizes.items(), reverse=True)]
    text = parts[-1]
    for part in reversed(parts[:-1]):
        text = _("{first} and {rest}").format(first=part, rest=text)
    return text


def rules_help(rules: Rules) -> str:
    """The rules of a variant in a few lines of Markdown, in the language in use."""
    build = _(BUILD_WORDS[(rules.build, rules.direction)])
    fill = _(FILL_WORDS[rules.empty_fill])
    dealt = (
        _("{cards} cards are dealt face up in {fans} (the aces start on "
          "the foundations).") if rules.aces_first
        else _("{cards} cards are dealt face up in {fans}.")
    ).format(cards=rules.cards_dealt, fans=fans_dealt(rules))
    fans = _("**Fans**: a top card goes onto another fan's top card {build}.").format(
        build=build)
    if rules.direction == "down":
        fans += " " + _("A king never goes onto a card.")
    if rules.max_fan:
        fans += " " + _("At most {n} cards a fan.").format(n=rules.max_fan)
    lines = [
        f"## {rules.name()}",
        "",
        dealt + " " + _("Only the top card of a fan moves, one card at a time."),
        "",
        "- " + _("**Home**: build each suit's foundation up from ace to king."),
        "- " + fans,
        "- " + fill,
    ]
    if rules.kings_bottom:
        lines.append("- " + _("The kings are moved to the bottom of their fans at the deal."))
    if rules.cells:
        lines.append("- " + ngettext(
            "**{n} free cell**: it holds one card; a cell card may go home or onto a fan.",
            "**{n} free cells**: each holds one card; a cell card may go home or onto a fan.",
            rules.cells).format(n=rules.cells))
    if rules.redeals:
        if rules.redeal_only_when_stuck:
            redeal = ngettext(
                "**Redeal** {n} time (only when no move is left): the cards left in the "
                "fans are gathered, shuffled and dealt again in threes.",
                "**Redeal** {n} times (only when no move is left): the cards left in the "
                "fans are gathered, shuffled and dealt again in threes.", rules.redeals)
        else:
            redeal = ngettext(
                "**Redeal** {n} time: the cards left in the fans are gathered, shuffled "
                "and dealt again in threes.",
                "**Redeal** {n} times: the cards left in the fans are gathered, shuffled "
                "and dealt again in threes.", rules.redeals)
        lines.append("- " + redeal.format(n=rules.redeals))
    else:
        lines.append("- " + _("No redeal."))
    if rules.merci:
        lines.append("- " + _(
            "**Merci**: once, in the last deal, lift any buried card onto the top of "
            "any fan (its own included)."))
    if rules.foundation_takeback:
        lines.append("- " + _("A foundation's top card may come back onto a fan that "
                              "takes it."))
    lines += [
        "",
        _("You win when all 52 cards are home; your score is the number of cards home."),
    ]
    return "\n".join(lines)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n", "answer(False)", N_("No")),
        Binding("escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str, yes: str | None = None) -> None:
        super().__init__()
        self.question = question
        self.yes = yes or _("Yes")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (y)", variant="warning", id="yes")
                yield Button(_("No (n)"), variant="primary", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


@dataclass(frozen=True, slots=True)
class NewGame:
    """What the new-game dialog chose: a deal number (None: random), a
    difficulty to pick a random deal by (None: any), or the deal of the day."""

    deal: int | None = None
    difficulty: str | None = None
    daily: bool = False


#: The difficulties the new-game dialog offers (``any``: no choice), their
#: labels translated where shown.
DIFFICULTY_CHOICES: tuple[tuple[str, str], ...] = (
    (N_("any deal"), "any"),
    (N_("clearable: the first deal can be cleared"), "clearable"),
    (N_("easy"), "easy"),
    (N_("medium"), "medium"),
    (N_("hard"), "hard"),
)


class NewGameScreen(ModalScreen[NewGame | None]):
    """Choose a deal: a number, a random one (of a difficulty), or the
    deal of the day (dismisses with a :class:`NewGame`, None to cancel)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, variant_name: str) -> None:
        super().__init__()
        self.variant_name = variant_name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(_("New game of {variant}").format(variant=self.variant_name),
                         classes="title")
            yield Label(_("Deal number (leave empty for a random deal):"))
            yield Input(placeholder=_("e.g. 1234"), id="deal", restrict=r"[0-9]*")
            yield Label(_("A random deal of this difficulty:"))
            yield Select([(_(label), value) for label, value in DIFFICULTY_CHOICES],
                         value="any", allow_blank=False, id="difficulty")
            yield Static("", id="problem", classes="problem")
            with Horizontal(classes="buttons"):
                yield Button(_("Play"), variant="primary", id="play")
                yield Button(_("Random deal"), id="random")
                yield Button(_("Deal of the day"), id="daily")
                yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def _difficulty(self) -> str | None:
        value = self.query_one("#difficulty", Select).value
        return None if value in ("any", Select.BLANK) else str(value)

    def _submit(self) -> None:
        text = self.query_one(Input).value.strip()
        if not text:
            self.dismiss(NewGame(None, self._difficulty()))
            return
        from lucie.deals import check_deal_number
        from lucie.errors import LucieError

        try:
            self.dismiss(NewGame(check_deal_number(text)))
        except LucieError as exc:
            self.query_one("#problem", Static).update(str(exc))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "play":
            self._submit()
        elif event.button.id == "random":
            self.dismiss(NewGame(None, self._difficulty()))
        elif event.button.id == "daily":
            self.dismiss(NewGame(daily=True))
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class VariantScreen(ModalScreen[str | None]):
    """Pick one of the named variants (dismisses with its name)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, current: Rules) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(_("Choose a variant (a new game starts)"), classes="title")
            yield OptionList(
                *[
                    Option(f"[b]{v.display_title()}[/b]  [dim]({name})[/dim]\n"
                           f"  {v.display_summary()}", id=name)
                    for name, v in VARIANTS.items()
                ],
                id="variants",
            )
            yield Static(_("Enter: play it   Esc: keep this game"), classes="hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        names = list(VARIANTS)
        for i, name in enumerate(names):
            if VARIANTS[name].rules == self.current:
                options.highlighted = i
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen[None]):
    """A page of Markdown (rules and keys, statistics)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Close")),
        Binding("question_mark", "close", N_("Close")),
        Binding("q", "close", N_("Close")),
    ]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog page"):
            with VerticalScroll():
                yield Markdown(self.markdown)
            yield Static(_("Esc: back to the game"), classes="hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[str]):
    """The end of a game: the result and the player's statistics.

    Dismisses with ``same``, ``next``, ``undo``, ``review`` or ``close``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('same')", N_("Same deal again")),
        Binding("n", "choose('next')", N_("Next deal")),
        Binding("u", "choose('undo')", N_("Undo the last move")),
        Binding("r", "choose('review')", N_("Review the game")),
        Binding("escape", "choose('close')", N_("Look at the table")),
    ]

    def __init__(self, won: bool, summary: str, stats: str, title: str | None = None) -> None:
        super().__init__()
        self.won = won
        self.title_text = title or (_("You won!") if won else _("No move left"))
        self.summary = summary
        self.stats = stats

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog end " + ("won" if self.won else "lost")):
            yield Static(self.title_text, classes="title")
            yield Static(self.summary, id="summary")
            yield Static(self.stats, id="stats")
            yield Static(_("Rating this deal…"), id="difficulty")
            with Horizontal(classes="buttons"):
                yield Button(_("Next deal (n)"), variant="primary", id="next")
                yield Button(_("Same deal again (a)"), id="same")
                yield Button(_("Undo (u)"), id="undo")
                yield Button(_("Review (r)"), id="review")


    def on_mount(self) -> None:
        self.query_one("#next", Button).focus()

    def show_difficulty(self, text: str) -> None:
        """The deal's difficulty, told now that the game is over."""
        self.query_one("#difficulty", Static).update(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class LanguageScreen(ModalScreen[str | None]):
    """Choose the language of the game (dismisses with its code).

    The title is written in every language, so a player who cannot read
    the one in use still finds their own."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog language"):
            yield Static("Language · Langue · Taal · Sprache", classes="title")
            yield OptionList(
                *[Option(name, id=code) for code, name in i18n.LANGUAGES.items()],
                id="languages",
            )
            yield Static(_("Enter: choose   Esc: back to the game"), classes="hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        codes = list(i18n.LANGUAGES)
        if self.current in codes:
            options.highlighted = codes.index(self.current)
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
