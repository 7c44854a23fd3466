"""Dialogs of the terminal game: confirm, new game, variants, help, end."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Markdown, OptionList, Select, Static
from textual.widgets.option_list import Option

from lucie.rules import VARIANTS, Rules

KEYS_HELP = """\
## Keys

- **a … r**: pick the top card of that fan; with a card picked, move it onto
  that fan (**f** is fan f, like any other letter)
- **the same letter twice**: send the card home if it can go, else to its
  only possible fan
- **Enter**, **Space** or **.**: send the picked card to its foundation (home)
- **1 … 8**: pick a free cell, or move the picked card to that cell
- **Esc**: drop the picked card
- **u** or **Ctrl+Z**: undo your last move, with the cards autoplay sent home
  after it (as far back as you like); **y** or **Ctrl+Y**: redo
- **s**: redeal: gather, shuffle and deal again (asks first while moves remain)
- **w**: the merci: pick a buried card (its fan letter, then its number), then
  the fan it goes on
- **x**: send every safe card home now (**u** takes them all back); where
  no card is strictly safe (builds going up, as in Shamrocks), **x** sends
  the aces that can go home;
  **F6** or **Ctrl+A**: autoplay after each move, on or off
- **t**: a hint: what to play next and why (highlighted in blue)
- **v** or **F3**: choose the variant (a new game starts)
- **F2** or **Ctrl+N**: new game, a random deal or a deal number
- **F4** or **Ctrl+R**: restart this deal (redo brings the moves back)
- **F8**: resign a game that can no longer be won (it counts as lost; **u**
  takes it back)
- **F5**: your statistics, with your deals of the day; **F7**: your recent
  games, to review one; **?** or **F1**: this screen
- **Ctrl+P**: every command, searchable; **Ctrl+Q**: quit (the game is saved
  and resumes next time)

**Mouse**: click a fan to pick its top card, then click the fan (or the
foundations, or a cell) where it goes.  Double-click a fan to send its top
card home.  For the merci (**w**), click the buried card, then the fan.

The picked card is yellow, the places it may go are green (their letter gets
a **+**), a hint is blue, the cards the merci may lift are purple.  Every move
is saved as it is made; leaving a game you have played for another one counts
it as lost.
"""


def rules_help(rules: Rules) -> str:
    """The rules of a variant in a few lines of Markdown."""
    build = {
        ("suit", "down"): "one rank lower **in the same suit**",
        ("suit", "updown"): "one rank lower or higher in the same suit",
        ("alternate", "down"): "one rank lower **in the other colour**",
        ("alternate", "updown"): "one rank lower or higher in the other colour",
        ("any", "down"): "one rank lower, **any suit**",
        ("any", "updown"): "one rank lower **or higher**, any suit",
    }[(rules.build, rules.direction)]
    fill = {
        "none": "An empty fan stays empty.",
        "king": "Only a king may go into an empty fan.",
        "any": "Any card may go into an empty fan.",
    }[rules.empty_fill]
    lines = [
        f"## {rules.name()}",
        "",
        f"{rules.cards_dealt} cards are dealt face up in {rules.num_fans} fans of "
        f"{rules.fan_size}"
        + (" (the aces start on the foundations)." if rules.aces_first else ".")
        + " Only the top card of a fan moves, one card at a time.",
        "",
        "- **Home**: build each suit's foundation up from ace to king.",
        f"- **Fans**: a top card goes onto another fan's top card {build}."
        + (" A king never goes onto a card." if rules.direction == "down" else "")
        + (f" At most {rules.max_fan} cards a fan." if rules.max_fan else ""),
        f"- {fill}",
    ]
    if rules.kings_bottom:
        lines.append("- The kings are moved to the bottom of their fans at the deal.")
    if rules.cells:
        lines.append(
            f"- **{rules.cells} free cells**: each holds one card; a cell card may go "
            "home or onto a fan."
        )
    if rules.redeals:
        when = " (only when no move is left)" if rules.redeal_only_when_stuck else ""
        lines.append(
            f"- **Redeal** {rules.redeals} time{'s' if rules.redeals > 1 else ''}{when}: "
            "the cards left in the fans are gathered, shuffled and dealt again in threes."
        )
    else:
        lines.append("- No redeal.")
    if rules.merci:
        lines.append(
            "- **Merci**: once, in the last deal, lift any buried card onto the top of "
            "any fan (its own included)."
        )
    if rules.foundation_takeback:
        lines.append("- A foundation's top card may come back onto a fan that takes it.")
    lines += [
        "",
        "You win when all 52 cards are home; your score is the number of cards home.",
    ]
    return "\n".join(lines)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (y)", variant="warning", id="yes")
                yield Button("No (n)", variant="primary", id="no")

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


#: The difficulties the new-game dialog offers (``any``: no choice).
DIFFICULTY_CHOICES: tuple[tuple[str, str], ...] = (
    ("any deal", "any"),
    ("clearable: the first deal can be cleared", "clearable"),
    ("easy", "easy"),
    ("medium", "medium"),
    ("hard", "hard"),
)


class NewGameScreen(ModalScreen[NewGame | None]):
    """Choose a deal: a number, a random one (of a difficulty), or the
    deal of the day (dismisses with a :class:`NewGame`, None to cancel)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, variant_name: str) -> None:
        super().__init__()
        self.variant_name = variant_name

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"New game of {self.variant_name}", classes="title")
            yield Label("Deal number (leave empty for a random deal):")
            yield Input(placeholder="e.g. 1234", id="deal", restrict=r"[0-9]*")
            yield Label("A random deal of this difficulty:")
            yield Select(DIFFICULTY_CHOICES, value="any", allow_blank=False,
                         id="difficulty")
            yield Static("", id="problem", classes="problem")
            with Horizontal(classes="buttons"):
                yield Button("Play", variant="primary", id="play")
                yield Button("Random deal", id="random")
                yield Button("Deal of the day", id="daily")
                yield Button("Cancel", id="cancel")

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

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: Rules) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static("Choose a variant (a new game starts)", classes="title")
            yield OptionList(
                *[
                    Option(f"[b]{v.title}[/b]  [dim]({name})[/dim]\n  {v.summary}", id=name)
                    for name, v in VARIANTS.items()
                ],
                id="variants",
            )
            yield Static("Enter: play it   Esc: keep this game", classes="hint")

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
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close"),
        Binding("q", "close", "Close"),
    ]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog page"):
            with VerticalScroll():
                yield Markdown(self.markdown)
            yield Static("Esc: back to the game", classes="hint")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class EndScreen(ModalScreen[str]):
    """The end of a game: the result and the player's statistics.

    Dismisses with ``same``, ``next``, ``undo``, ``review`` or ``close``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('same')", "Same deal again"),
        Binding("n", "choose('next')", "Next deal"),
        Binding("u", "choose('undo')", "Undo the last move"),
        Binding("r", "choose('review')", "Review the game"),
        Binding("escape", "choose('close')", "Look at the table"),
    ]

    def __init__(self, won: bool, summary: str, stats: str, title: str | None = None) -> None:
        super().__init__()
        self.won = won
        self.title_text = title or ("You won!" if won else "No move left")
        self.summary = summary
        self.stats = stats

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog end " + ("won" if self.won else "lost")):
            yield Static(self.title_text, classes="title")
            yield Static(self.summary, id="summary")
            yield Static(self.stats, id="stats")
            yield Static("Rating this deal…", id="difficulty")
            with Horizontal(classes="buttons"):
                yield Button("Next deal (n)", variant="primary", id="next")
                yield Button("Same deal again (a)", id="same")
                yield Button("Undo (u)", id="undo")
                yield Button("Review (r)", id="review")

    def on_mount(self) -> None:
        self.query_one("#next", Button).focus()

    def show_difficulty(self, text: str) -> None:
        """The deal's difficulty, told now that the game is over."""
        self.query_one("#difficulty", Static).update(text)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)
