"""Plain line mode: ``lucie play --plain`` (and ``lucie`` without a terminal).

Shows the position, reads one command per line from standard input.  Works
with pipes too, so it can be scripted and tested.

Its games live in a :class:`~lucie.session.Session`, as the terminal's and
the browser's do: the player's unfinished game resumes, a change is
applied only once it is saved (nothing but the line being typed is lost
when the program is killed), and a finished game counts in ``lucie
stats``, for good.
"""

from __future__ import annotations

import sys
from typing import Final, TextIO

from lucie.cards import parse_label
from lucie.deals import check_deal_number
from lucie.engine import Game, Move
from lucie.errors import LucieError, MoveError
from lucie.i18n import N_, _, format_number, format_percent, ngettext
from lucie.parsing import excerpt, printable
from lucie.rules import Rules
from lucie.session import (
    HINT_DECLINED,
    HINT_QUESTION,
    NotSavedError,
    Outcome,
    Session,
    Store,
    StoreError,
    proved_lost,
)
from lucie.text import cards_text, moved_cards, render

#: The help of line mode (translated where it is shown).  The commands
#: themselves (c>g, u, hint, ...) are the same in every language.
HELP = N_("""\
Moves:  c>g   top card of fan c onto fan g      c>f   fan c to its foundation
        d>F   onto fan f (capital F: a small f is the foundation)
        c>1   fan c to cell 1    1>g  cell 1 to fan g    1>f  cell to foundation
        7H>g  the merci: lift the buried 7♥ onto fan g (last deal only)
        R     redeal (gather, shuffle and deal the cards left)
Keys:   u undo   y redo   a autoplay to the foundations   m list legal moves
        hint  the best move and why   ? this help   q quit
        resign  give up this game (it counts as lost in the statistics)
        restart  back to the start of the deal    again  this deal again
        new  a new deal    new 123  deal 123
        (after the end of a game, undo goes on as practice: not recorded)
        (undo, redo, auto and moves may be typed as words too)
Every move is saved: quit at any time, `lucie play` resumes the game.""")


def is_yes(answer: str) -> bool:
    """Whether a typed answer means yes: ``y`` or ``yes`` in any language,
    or the language's own word or its first letters (``o`` or ``oui`` in
    French, ``j`` or ``ja`` in Dutch and German)."""
    word = answer.strip().lower()
    return bool(word) and (word in ("y", "yes") or _("yes").lower().startswith(word))


#: The longest line line mode reads (a command is a few characters): a
#: longer one is refused and the rest of it skipped.
MAX_LINE: Final = 4096
#: How much of an overlong line is skipped looking for its end before line
#: mode gives up (``cat /dev/zero | lucie play --plain`` ends at once).
MAX_SKIP: Final = 1 << 20


class LineGame:
    """One game of line mode: a :class:`~lucie.session.Session` (which
    records every change) and what the player reads and types."""

    def __init__(self, session: Session, stdin: TextIO | None = None,
                 stdout: TextIO | None = None) -> None:
        self.session = session
        self.player = session.player_name
        self.inp = stdin or sys.stdin
        reconfigure = getattr(self.inp, "reconfigure", None)
        if reconfigure is not None:  # a stray byte is a bad command, not a crash
            reconfigure(errors="replace")
        self.out = stdout or sys.stdout

    @property
    def game(self) -> Game:
        return self.session.game

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def _say_stats(self) -> None:
        try:
            s = self.session.stats()
        except StoreError as exc:
            self.say(_("! could not read the statistics: {error}").format(error=exc))
            return
        self.say(ngettext(
            "{player}: {games} game of {variant} finished, {wins} won ({rate}), "
            "average score {average}, streak {streak}",
            "{player}: {games} games of {variant} finished, {wins} won ({rate}), "
            "average score {average}, streak {streak}",
            s.games,
        ).format(player=printable(self.player), games=s.games,
                 variant=self.game.rules.name(), wins=s.wins, rate=format_percent(s.win_rate),
                 average=format_number(s.average_score, 1),
                 streak=s.current_streak))

    # -- the loop -----------------------------------------------------------

    def run(self) -> int:
        """Read commands until ``q`` or the end of the input; returns 0."""
        self.session.show()
        try:
            return self._loop()
        finally:
            self.session.close()

    def _read(self, prompt: str) -> str | None:
        print(prompt, end="", file=self.out, flush=True)
        line = self.read_line()
        return None if not line else line.strip()

    def _welcome(self) -> None:
        game = self.game
        self.say(render(game))
        if self.session.resumed and self.session.result is None:
            self.say(ngettext(
                "Welcome back: your game resumes where you left it ({n} move played).",
                "Welcome back: your game resumes where you left it ({n} moves played).",
                len(game.moves),
            ).format(n=len(game.moves)))
        self.say(_("Type a move (like c>g), ? for help, q to quit."))

    def _say_end(self) -> None:
        outcome = self.game.outcome
        if self.session.practice:
            self.say(_("Practice over: score {score}/52 (not recorded). again plays this "
                       "deal again, new another deal, q quits.").format(score=outcome.score))
            return
        ending = {
            "won": _("You won! Score {score}/52. (again, new, u to practise, q to quit)"),
            "resigned": _("You resigned. Score {score}/52. (again, new, u to practise, "
                          "q to quit)"),
        }.get(outcome.status) or _(
            "No move left: the game is lost. Score {score}/52. (again, new, u to practise, "
            "q to quit)")
        self.say(ending.format(score=outcome.score))

    def _loop(self) -> int:
        self._welcome()
        while True:
            if self.game.outcome.finished:
                self._say_end()
            line = self._read(_("move> "))
            if line is None:
                self.say()
                return 0
            if not line:
                continue
            if line in ("q", "quit", "exit"):
                return 0
            try:
                outcome = self.command(line)
            except NotSavedError as exc:
                self.say(f"! {exc}")
                continue
            except LucieError as exc:
                self.say(f"! {exc}")
                continue
            if outcome is not None:
                self._after(outcome)

    def read_line(self) -> str:
        """The next line of input, at most :data:`MAX_LINE` characters: a
        longer one is refused with a message (the rest skipped; after
        :data:`MAX_SKIP` characters without an end of line, line mode
        stops with a :class:`LucieError`).  Empty at the end of input."""
        line = self.inp.readline(MAX_LINE + 1)
        if len(line) <= MAX_LINE or line.endswith("\n"):
            return line
        first, skipped = line, len(line)
        while not line.endswith("\n"):
            line = self.inp.readline(MAX_LINE + 1)
            if not line:
                break
            skipped += len(line)
            if skipped > MAX_SKIP:
                raise LucieError(_("line mode reads lines of at most {most} characters and "
                                   "the input has none in its first {n} characters "
                                   "(not text typed at a keyboard?)").format(
                                       most=MAX_LINE, n=MAX_SKIP))
        self.say(_("! a line of more than {most} characters was left out ({start})").format(
            most=MAX_LINE, start=excerpt(first[:40])))
        return "\n"

    def _after(self, outcome: Outcome) -> None:
        """Show what a change did."""
        if outcome.practice_note:
            self.say(outcome.practice_note)
        self.say(render(self.game))
        if outcome.ended is not None and not self.session.practice:
            self._say_stats()
        elif not self.game.outcome.finished and self.session.hopeless():
            self.say(_("No useful move is left (only taking cards back from home): "
                       "resign gives up."))

    def command(self, cmd: str) -> Outcome | None:
        """Carry out one command; the :class:`Outcome` of a change (None:
        nothing changed).  Raises :class:`LucieError` for a refused one."""
        game = self.game
        session = self.session
        word, _sep, rest = cmd.partition(" ")
        if cmd in ("?", "h", "help"):
            self.say(_(HELP))
            return None
        if cmd in ("m", "moves"):
            # the notation to type, then what the move does in words
            self.say("\n".join(f"{m!s:>6}  {game.position.describe(m)}"
                               for m in game.legal_moves) or _("(no legal move)"))
            return None
        if cmd == "hint":
            self._hint()
            return None
        if cmd in ("u", "undo"):
            outcome = session.undo()  # the move and the cards autoplay sent home after it
            assert outcome.undone is not None
            self.say(_("undone: {moves}").format(moves=outcome.undone.text))
            return outcome
        if cmd in ("y", "redo"):
            outcome = session.redo()
            assert outcome.step is not None
            self.say(_("redone: {moves}").format(moves=outcome.step.text))
            return outcome
        if cmd in ("a", "auto", "autoplay"):
            return self._send_home()
        if cmd == "resign":
            if game.outcome.finished:
                raise LucieError(_("the game is over already"))
            return session.resign()
        if cmd == "restart":
            return self._restart()
        if cmd == "again":
            return self._new(game.rules, game.deal, same=True)
        if word == "new":
            return self._new(game.rules, check_deal_number(rest.strip()) if rest.strip() else None)
        return self._move(cmd)

    def _move(self, cmd: str) -> Outcome:
        try:
            move = Move.parse(typed_move(cmd))
        except LucieError as exc:
            raise LucieError(_("{error}; ? for help").format(error=exc)) from None
        try:
            return self.session.play(move, autoplay=False)
        except MoveError as exc:
            alt = _fan_f_alternative(self.game, cmd)
            raise MoveError(f"{exc}{alt}") from None

    def _send_home(self) -> Outcome | None:
        before = self.game.position
        outcome = self.session.send_home()
        if outcome.aces:
            self.say(_("autoplay: {moves} (no card is strictly safe here, so the aces go; "
                       "u takes them back one by one)").format(
                moves=cards_text(moved_cards(before, outcome.aces))))
        elif outcome.step is not None:
            self.say(_("autoplay: {moves}").format(
                moves=cards_text(moved_cards(before, outcome.step.moves))))
        else:
            self.say(_("autoplay: {moves}").format(moves=_("nothing to play")))
            return None
        return outcome

    def _restart(self) -> Outcome | None:
        if self.session.result is not None:
            outcome = self.session.restart()
            self.say(_("New game of the same deal: {variant}, deal {deal} (the result of "
                       "the last one stays recorded).").format(
                variant=self.game.rules.name(), deal=self.game.deal))
            return outcome
        if not self.game.moves:
            self.say(_("This is the start of the deal already."))
            return None
        self.say(_("Back to the start (y redoes the moves)."))
        return self.session.restart()

    def _confirm_leave(self) -> bool:
        """Ask before leaving a game in play that has moves."""
        game = self.game
        if not game.moves or game.outcome.finished or self.session.result is not None:
            return True
        answer = self._read(_("Leave this game? It counts as lost in your statistics. "
                              "(y/n) "))
        return answer is not None and is_yes(answer)

    def _new(self, rules: Rules, deal: int | None, *, same: bool = False) -> Outcome | None:
        if not self._confirm_leave():
            self.say(_("You stay in this game."))
            return None
        if same:
            self.session.again()
        else:
            self.session.replace(Game(rules, deal))
        self.session.show()
        self.say(_("New game: {variant}, deal {deal}.").format(
            variant=rules.name(), deal=self.game.deal))
        return Outcome(new_game=True)

    def _hint(self) -> None:
        from lucie.analysis.hints import hint

        position = self.game.position
        if self.session.counts_for_daily():
            answer = self._read(_(HINT_QUESTION) + " (y/n) ")
            if answer is None or not is_yes(answer):
                self.say(_(HINT_DECLINED))
                return
        self.session.hint_asked()  # fair play: marked before the hint is given
        found = hint(position)
        self.say(_("hint: {hint}").format(hint=found))
        if not self.game.outcome.finished and proved_lost(position, found.clears,
                                                          found.budget_ran_out):
            self.say(_("This deal can no longer be won: resign gives up."))


def play_plain(
    store: Store,
    player: str,
    rules: Rules | None = None,
    deal: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play in line mode: resume the player's unfinished game (see
    :meth:`Session.open`) or deal a new one; returns 0 (quit or end of input)."""
    session = Session.open(store, player, rules, deal)
    return LineGame(session, stdin, stdout).run()


def typed_move(text: str) -> str:
    """A typed move with its source card, if written the way the table
    shows it in the language in use (``V♥>g`` or ``VH>g`` in French for
    the jack of hearts), in lucie's notation (``JH>g``); anything else
    unchanged (:meth:`Move.parse` reads it and names any problem).

    >>> from lucie.i18n import using
    >>> with using("fr"):
    ...     typed_move("V♥>g"), typed_move("DS>b"), typed_move("c>g")
    ('JH>g', 'QS>b', 'c>g')
    """
    source, sep, target = text.strip().partition(">")
    if sep and len(source) >= 2:
        card = parse_label(source)
        if card is not None:
            return f"{card}>{target}"
    return text


def _fan_f_alternative(game: Game, cmd: str) -> str:
    """Suggest ``x>F`` when ``x>f`` (foundation) fails but fan f would take it."""
    if cmd.endswith(">f"):
        try:
            alt = Move.parse(cmd[:-1] + "F")
        except LucieError:
            return ""
        if alt in game.legal_moves:
            return _(" (did you mean {move}, onto fan f?)").format(move=alt)
    return ""
