"""What the keys and clicks of the table mean, without Textual.

:class:`TableController` holds the game and the player's pick (a fan's
top card, a cell, or a card lifted by the merci), and turns each key or
click into calls on the game's :class:`~lucie.session.Session`: it asks
the engine which moves the picked card has, plays a move through
:meth:`lucie.session.Session.play` (one undoable step, with the autoplay
when it is on, applied once recorded) and says what happened, or why not.  It
returns a :class:`Reply` for the app to show; :meth:`TableController.board`
is the snapshot the app draws.

>>> from lucie.engine import Game
>>> table = TableController(Game(deal=1))  # a game not recorded (else a Session)
>>> table.fan_key(5).text
'7♦ from fan f: it can go to fan i.  Esc drops it.'
>>> table.fan_key(8).text
'7♦ from fan f onto 8♦ in fan i.'
>>> table.undo().text
'Undone: 7♦ from fan f onto 8♦ in fan i.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lucie.cards import Card, card_label
from lucie.engine import FAN_NAMES, REDEAL, Game, Move, Position, Step
from lucie.errors import MoveError
from lucie.i18n import _, format_number, ngettext, pgettext
from lucie.session import NotSavedError, Outcome, Session
from lucie.text import cards_text, moved_cards

SelKind = Literal["fan", "cell", "card"]
#: How a message is shown: plain, ``info``, ``error`` (a refusal) or ``hint``.
Kind = Literal["", "info", "error", "hint"]


@dataclass(frozen=True, slots=True)
class Selection:
    """The picked card: the top of a fan, a cell, or a card (merci, take-back)."""

    kind: SelKind
    index: int  # fan index, cell index, or the card's int value


@dataclass(frozen=True, slots=True)
class Reply:
    """What an input did.

    ``text``: the message to show (None: keep the current one);
    ``step``: the step played or redone; ``undone``: the step taken back;
    ``confirm``: a question to ask before playing :attr:`pending` (a
    redeal while moves remain); ``restarted``: back to the deal's start;
    ``resigned``: the player gave the game up; ``outcome``: what the
    session did (the result reached, practice begun, a new game opened).
    """

    text: str | None = None
    kind: Kind = ""
    step: Step | None = None
    undone: Step | None = None
    confirm: str | None = None
    pending: Move | None = None
    restarted: bool = False
    resigned: bool = False
    outcome: Outcome | None = None

    @property
    def changed(self) -> bool:
        """Whether the game changed (it is recorded already)."""
        return (self.step is not None or self.undone is not None or self.restarted
                or self.resigned or (self.outcome is not None and self.outcome.changed))


@dataclass(frozen=True, slots=True)
class Board:
    """Everything the table shows, as one comparable value (the app keeps
    it in a reactive attribute and redraws when it changes)."""

    position: Position
    moves: int
    selection: Selection | None
    targets: tuple[Move, ...]
    hint: Move | None
    merci_mode: bool
    merci_fan: int | None
    auto: bool

    def selected_card(self) -> tuple[int, int] | None:
        """The fan and index in it of the picked card, if it lies in a fan."""
        sel, p = self.selection, self.position
        if sel is not None and sel.kind == "fan" and p.fans[sel.index]:
            return sel.index, len(p.fans[sel.index]) - 1
        if sel is not None and sel.kind == "card":
            card = Card(sel.index)
            kind, where = p.where(card)
            if kind == "fan":
                return where, p.fans[where].index(card)
        return None

    def merci_marks(self, fan: int) -> bool:
        """Whether fan ``fan`` shows the cards the merci may lift."""
        return self.merci_mode and self.selection is None and (
            self.merci_fan is None or self.merci_fan == fan
        )


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def moves_count(n: int) -> str:
    """``n`` moves in the language in use.

    >>> moves_count(1), moves_count(2)
    ('1 move', '2 moves')
    """
    return ngettext("{n} move", "{n} moves", n).format(n=n)


def decimal(value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals, written as the language in use
    writes them (a decimal comma in French, Dutch and German).

    >>> decimal(12.345), decimal(3, 0)
    ('12.3', '3')
    """
    return format_number(value, places)


def games_count(n: int) -> str:
    """``n`` games in the language in use.

    >>> games_count(1), games_count(0)
    ('1 game', '0 games')
    """
    return ngettext("{n} game", "{n} games", n).format(n=n)


def not_allowed(why: str) -> str:
    """A refusal in the status line: ``why`` is the engine's reason.

    >>> not_allowed("fan c is empty, and an empty fan stays empty")
    'Not allowed: fan c is empty, and an empty fan stays empty.'
    """
    return _("Not allowed: {why}.").format(why=why)


def not_saved(exc: NotSavedError) -> Reply:
    """A change the store could not record (nothing changed)."""
    return Reply(_("Not played: the game could not be saved ({error}). Nothing changed; "
                   "try again in a moment.").format(error=exc.error), "error")


def refused(exc: MoveError) -> Reply:
    """A change refused by the game's keeper (a site's duel: its rules)."""
    return Reply(not_allowed(exc.reason or str(exc)), "error")


class TableController:
    """The table's interaction: selection, picking a card, choosing a
    target, and the commands (undo, redo, redeal, merci, autoplay)."""

    def __init__(self, game: Game | Session, *, autoplay: bool = False) -> None:
        self.auto = autoplay
        #: the game's life (a bare game is played without recording)
        self.session = game if isinstance(game, Session) else Session.unrecorded(game)
        self.selection: Selection | None = None
        self.merci_mode = False
        self.merci_fan: int | None = None
        self.hint_move: Move | None = None

    @property
    def game(self) -> Game:
        """The game in play (the session's: each recorded change replaces it)."""
        return self.session.game

    def reset(self) -> None:
        """The session plays another game from now on (nothing picked)."""
        self._drop()
        self.hint_move = None

    def board(self) -> Board:
        sel = self.selection
        return Board(
            self.game.position, len(self.game.moves), sel,
            tuple(self.moves_of(sel)) if sel is not None else (),
            self.hint_move, self.merci_mode, self.merci_fan, self.auto,
        )

    # -- the pick --------------------------------------------------------

    def moves_of(self, sel: Selection) -> list[Move]:
        """The legal moves of the picked card."""
        return self.game.position.moves_from(sel.kind, sel.index)

    def _drop(self) -> bool:
        had = self.selection is not None or self.merci_mode
        self.selection = None
        self.merci_mode = False
        self.merci_fan = None
        return had

    def drop(self, text: str | None = None) -> Reply:
        """Put the picked card (or the merci) back; says ``text`` (by
        default "Card put back.") if one was."""
        return Reply((text or _("Card put back.")) if self._drop() else None)

    def _targets_text(self, sel: Selection) -> str:
        names: list[str] = []
        for m in self.moves_of(sel):
            if m.dst_kind == "foundation":
                names.append(_("home (Enter)"))
            elif m.dst_kind == "cell":
                names.append(_("cell {cell}").format(cell=m.dst + 1))
            else:
                names.append(_("fan {fan}").format(fan=FAN_NAMES[m.dst]))
        unique = list(dict.fromkeys(names))
        if not unique:
            return _("it has no move now")
        return _("it can go to {places}").format(places=", ".join(unique))

    def select(self, sel: Selection) -> Reply:
        p = self.game.position
        self.selection = sel
        self.hint_move = None
        card = p.moving_card(Move(sel.kind, sel.index, "foundation", -1))
        assert card is not None
        label = card_label(card)
        targets = self._targets_text(sel)
        if sel.kind == "fan":
            text = _("{card} from fan {fan}: {targets}.  Esc drops it.").format(
                card=label, fan=FAN_NAMES[sel.index], targets=targets)
        elif sel.kind == "cell":
            text = _("{card} from cell {cell}: {targets}.  Esc drops it.").format(
                card=label, cell=sel.index + 1, targets=targets)
        elif p.where(Card(sel.index))[0] == "fan":
            text = _("{card} from the merci: {targets}.  Esc drops it.").format(
                card=label, targets=targets)
        else:
            text = _("{card} from its foundation: {targets}.  Esc drops it.").format(
                card=label, targets=targets)
        return Reply(text)

    def _to(self, kind: Literal["fan", "cell", "foundation"], dst: int) -> Reply:
        sel = self.selection
        assert sel is not None
        return self.play(Move(sel.kind, sel.index, kind, dst))

    def _quick_move(self, sel: Selection) -> Reply:
        """The same place twice: home if it can go, else its only place."""
        moves = self.moves_of(sel)
        home = [m for m in moves if m.dst_kind == "foundation"]
        if home:
            return self.play(home[0])
        fans = [m for m in moves if m.dst_kind == "fan"]
        if len(fans) == 1:
            return self.play(fans[0])
        if len(fans) > 1:
            # keep the card picked: the player now names the fan
            return Reply(_("It can go to several fans: pick one with its letter."))
        return self.drop()

    # -- keys --------------------------------------------------------------

    def key(self, key: str, character: str | None) -> Reply | None:
        """Fan letters, cell digits, the foundation keys and Esc; None for
        any other key."""
        ch = (character or "").lower()
        n = self.game.rules.num_fans
        if len(ch) == 1 and "a" <= ch <= "r" and key != "ctrl+a":
            i = FAN_NAMES.index(ch)
            if i >= n:
                return Reply(_("There is no fan {fan} in {variant} (fans a to {last}).").format(
                    fan=ch, variant=self.game.rules.name(), last=FAN_NAMES[n - 1]), "error")
            return self.fan_key(i)
        if len(ch) == 1 and "1" <= ch <= "9":
            return self.digit_key(int(ch))
        if key in ("enter", "space", "full_stop"):
            return self.home_key()
        # the redeal and merci keys of a variant without them (kept out of
        # the footer) say why nothing happens
        if ch == "s" and not self.game.rules.redeals:
            return self.redeal()
        if ch == "w" and not self.game.rules.merci:
            return self.merci()
        if key == "escape":
            if self.selection is not None or self.merci_mode:
                return self.drop()
            if self.hint_move is not None:
                self.hint_move = None
                return Reply("")
            return Reply()
        return None

    def fan_key(self, i: int) -> Reply:
        sel = self.selection
        if self.merci_mode and sel is None:
            return self._merci_pick_fan(i)
        if sel is None:
            if not self.game.position.fans[i]:
                return Reply(_("Fan {fan} is empty.").format(fan=FAN_NAMES[i]), "error")
            return self.select(Selection("fan", i))
        if sel.kind == "fan" and sel.index == i:
            return self._quick_move(sel)
        return self._to("fan", i)

    def digit_key(self, number: int) -> Reply:
        if self.merci_mode and self.selection is None:
            if self.merci_fan is None:
                return Reply(_("Merci: first press the letter of the fan with the buried "
                               "card."), "error")
            fan = self.game.position.fans[self.merci_fan]
            if not 1 <= number < len(fan):
                return Reply(_("Fan {fan} has buried cards 1 to {last}.").format(
                    fan=FAN_NAMES[self.merci_fan], last=len(fan) - 1), "error")
            return self._merci_choose(fan[number - 1])
        return self.cell_key(number - 1)

    def cell_key(self, cell: int, clicked: bool = False, chain: int = 1) -> Reply:
        p = self.game.position
        sel = self.selection
        if not p.cells:
            return Reply(_("This variant has no free cells."), "error")
        if cell >= len(p.cells):
            return Reply(_("There is no cell {cell} (cells 1 to {last}).").format(
                cell=cell + 1, last=len(p.cells)), "error")
        if sel is None:
            if p.cells[cell] is None:
                return Reply(_("Cell {cell} is empty.").format(cell=cell + 1), "error")
            if chain >= 2:
                return self.play(Move("cell", cell, "foundation", -1))
            return self.select(Selection("cell", cell))
        if sel.kind == "cell" and sel.index == cell:
            return self.drop() if clicked and chain < 2 else self._quick_move(sel)
        return self._to("cell", cell)

    def home_key(self) -> Reply:
        if self.selection is None:
            return Reply(_("Pick a card first (its fan letter), then Enter sends it home."),
                         "error")
        return self._to("foundation", -1)

    # -- clicks --------------------------------------------------------------

    def fan_clicked(self, i: int, card: int | None, chain: int) -> Reply:
        """A click on fan ``i`` (on its card number ``card``, or elsewhere)."""
        fan = self.game.position.fans[i]
        sel = self.selection
        if self.merci_mode and sel is None:
            if card is not None and card < len(fan) - 1:
                return self._merci_choose(fan[card])
            return self._merci_pick_fan(i)
        if chain >= 2 and fan:
            # a double click: the first click picked the fan's top card
            return self.play(Move("fan", i, "foundation", -1))
        if sel is None:
            if not fan:
                return Reply(_("Fan {fan} is empty.").format(fan=FAN_NAMES[i]), "error")
            return self.select(Selection("fan", i))
        if sel.kind == "fan" and sel.index == i:
            return self.drop()
        return self._to("fan", i)

    def foundation_clicked(self, suit: int | None) -> Reply:
        p = self.game.position
        if self.selection is not None:
            return self._to("foundation", -1)
        if suit is not None and p.rules.foundation_takeback:
            top = p.foundation_top(suit)
            if top is not None:
                return self.select(Selection("card", int(top)))
        return Reply(_("Pick a card first, then click the foundations to send it home."),
                     "error")

    # -- the merci -------------------------------------------------------------

    def merci(self) -> Reply:
        """Start the merci (or put it off when started)."""
        if self.merci_mode:
            return self.drop(_("Merci put off."))
        why = self.game.position.why_no_merci()
        if why is not None:
            return Reply(not_allowed(why), "error")
        self._drop()
        self.merci_mode = True
        self.hint_move = None
        return Reply(_("Merci: click the buried card to lift, or press its fan letter.  "
                       "w or Esc puts it off."), "hint")

    def _merci_pick_fan(self, i: int) -> Reply:
        fan = self.game.position.fans[i]
        if len(fan) < 2:
            return Reply(_("Fan {fan} has no buried card.").format(fan=FAN_NAMES[i]), "error")
        if len(fan) == 2:
            return self._merci_choose(fan[0])
        self.merci_fan = i
        choices = "  ".join(f"{k + 1} {card_label(c)}" for k, c in enumerate(fan[:-1]))
        return Reply(_("Merci from fan {fan}: press {choices}").format(
            fan=FAN_NAMES[i], choices=choices), "hint")

    def _merci_choose(self, card: Card) -> Reply:
        self.merci_fan = None
        self.select(Selection("card", int(card)))
        return Reply(_("Merci: {card} lifted; now pick the fan it goes on "
                       "(its own included).  Esc puts it back.").format(
                           card=card_label(card)), "hint")

    # -- playing -----------------------------------------------------------------

    def play(self, move: Move) -> Reply:
        """Play ``move`` (and the autoplay when it is on) as one step, or
        say why not and change nothing (the pick stays)."""
        try:
            outcome = self.session.play(move, autoplay=self.auto)
        except NotSavedError as exc:
            return not_saved(exc)
        except MoveError as exc:
            why = exc.reason or str(exc)
            text = not_allowed(why)
            if self.selection is not None:
                text += "  " + _("(Esc drops the picked card.)")
            return Reply(text, "error")
        step = outcome.step
        assert step is not None
        self._settle()
        return Reply(_sentence(step.text), step=step, outcome=outcome)

    def _settle(self) -> None:
        self._drop()
        self.hint_move = None

    def undo(self) -> Reply:
        """Take back the last step (a move and what autoplay sent home)."""
        if not self.session.can_undo:
            return Reply(_("Nothing to undo."), "error")
        try:
            outcome = self.session.undo()
        except NotSavedError as exc:
            return not_saved(exc)
        except MoveError as exc:
            return refused(exc)
        step = outcome.undone
        assert step is not None
        self._settle()
        text = _("Undone: {step}.").format(step=step.text)
        if outcome.practice_note:
            text = outcome.practice_note + "  " + text
        return Reply(text, undone=step, outcome=outcome)

    def redo(self) -> Reply:
        if not self.session.can_redo:
            return Reply(_("Nothing to redo."), "error")
        try:
            outcome = self.session.redo()
        except NotSavedError as exc:
            return not_saved(exc)
        except MoveError as exc:
            return refused(exc)
        step = outcome.step
        assert step is not None
        self._settle()
        return Reply(_("Redone: {step}.").format(step=step.text), step=step, outcome=outcome)

    def redeal(self) -> Reply:
        """Redeal, or ask first while other moves remain."""
        p = self.game.position
        if not p.rules.redeals:
            return Reply(not_allowed(_("this variant has no redeal")), "error")
        why = p.why_illegal(REDEAL) if not self.game.resigned else _("the game is over")
        if why is not None:
            return Reply(not_allowed(why), "error")
        useful = [m for m in p.legal_moves() if not m.is_redeal and m.src_kind != "card"]
        if not useful:
            return self.play(REDEAL)
        n, left = len(useful), p.redeals_left
        return Reply(confirm=(
            ngettext("{n} move is still possible, for example {move}.",
                     "{n} moves are still possible, for example {move}.", n).format(
                n=n, move=p.describe(useful[0]))
            + "\n"
            + ngettext("Redeal anyway? ({n} redeal left)",
                       "Redeal anyway? ({n} redeals left)", left).format(n=left)
        ), pending=REDEAL)

    def send_home(self) -> Reply:
        """Send every safe card home now, as one step.

        Where no card is strictly safe (builds going up, as in Shamrocks,
        where an ace may hold a two of another suit), the aces that can go
        home go: the player asked for it, and an ace in a fan only ever
        holds a two that could go home after it.  Each ace is a step of
        its own (with the safe cards it lets go home after it).
        """
        if self.game.outcome.finished:
            return Reply(_("The game is over."), "error")
        before = self.game.position
        try:
            outcome = self.session.send_home()
        except NotSavedError as exc:
            return not_saved(exc)
        except MoveError as exc:
            return refused(exc)
        if outcome.step is None:
            return Reply(_("No card can safely go home now."), "error")
        self._settle()
        if outcome.aces:
            return Reply(_("Sent home: {moves} (no card is strictly safe here, so x sends the "
                           "aces; u takes them back one by one).").format(
                               moves=cards_text(moved_cards(before, outcome.aces))),
                         step=outcome.step, outcome=outcome)
        return Reply(_("Sent home: {moves} (u takes them back).").format(
            moves=cards_text(moved_cards(before, outcome.step.moves))), step=outcome.step,
            outcome=outcome)

    def resign(self) -> Reply:
        """Give the game up (it counts as lost, for good)."""
        if self.game.outcome.finished:
            return Reply(_("The game is over already."), "error")
        try:
            outcome = self.session.resign()
        except NotSavedError as exc:
            return not_saved(exc)
        except MoveError as exc:
            return refused(exc)
        self._settle()
        return Reply(_("Resigned."), resigned=True, outcome=outcome)

    def hopeless(self) -> bool:
        """Whether no move is left but pointless ones (see
        :meth:`lucie.session.Session.hopeless`)."""
        return self.session.hopeless()

    def toggle_autoplay(self) -> Reply:
        self.auto = not self.auto
        return Reply(_("Autoplay on: safe cards go home after each move.") if self.auto
                     else _("Autoplay off."))

    def restart(self) -> Reply:
        """Back to the start; after a recorded result, a new game of the deal."""
        try:
            outcome = self.session.restart()
        except NotSavedError as exc:
            return not_saved(exc)
        except MoveError as exc:
            return refused(exc)
        self._settle()
        if outcome.new_game:
            return Reply(_("A new game of the same deal (the last one's result stays "
                           "recorded)."), restarted=True, outcome=outcome)
        return Reply(_("Back to the start (y redoes the moves)."), restarted=True,
                     outcome=outcome)

    # -- hints -------------------------------------------------------------------

    def show_hint(self, position: Position, move: Move | None, text: str) -> Reply | None:
        """Show a hint computed for ``position`` (None if the player moved
        meanwhile: the hint no longer applies)."""
        if self.game.position != position:
            return None
        self.hint_move = move
        if move is not None and not text:
            text = position.describe(move)
        if move is not None and text:
            keys = self.keys_for(move)
            if keys:
                text = _("{hint}.  Keys: {keys}").format(hint=text.rstrip("."), keys=keys)
        if self.selection is not None:
            text += "  " + _("(your picked card stays picked: Esc drops it)")
        return Reply(_("Hint: {hint}").format(hint=text) if text else _("No hint."), "hint")

    def keys_for(self, move: Move) -> str:
        """The keys that play ``move`` (for hints)."""
        if move.is_redeal:
            return "s"
        p = self.game.position
        if move.src_kind == "fan":
            src = FAN_NAMES[move.src]
        elif move.src_kind == "cell":
            src = str(move.src + 1)
        else:
            card = Card(move.src)
            kind, where = p.where(card)
            if kind != "fan":
                return ""
            src = f"w {FAN_NAMES[where]} {p.fans[where].index(card) + 1}"
        if move.dst_kind == "foundation":
            dst = pgettext("key", "Enter")
        elif move.dst_kind == "cell":
            dst = str(move.dst + 1)
        else:
            dst = FAN_NAMES[move.dst]
        return f"{src} {dst}"
