"""Plain line mode: ``lucie play --plain`` (and ``lucie`` without a terminal).

Shows the position, reads one command per line from standard input.  Works
with pipes too, so it can be scripted and tested.

It keeps games in the store exactly as the terminal game does: the
player's unfinished game resumes (see :func:`open_game`), the move list is
saved after every change, so nothing but the line being typed is lost when
the program is killed, and a finished game counts in ``lucie stats``.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from lucie.cards import parse_label
from lucie.engine import Game, Move
from lucie.errors import LucieError, MoveError
from lucie.i18n import N_, _, format_number, format_percent, ngettext
from lucie.rules import Rules
from lucie.store import Opened, Store, StoreError, open_game
from lucie.text import cards_text, moved_cards, render

#: The help of line mode (translated where it is shown).  The commands
#: themselves (c>g, u, hint, ...) are the same in every language.
HELP = N_("""\
Moves:  c>g   top card of fan c onto fan g      c>f   fan c to its foundation
        d>F   onto fan f (capital F: a small f is the foundation)
        c>1   fan c to cell 1    1>g  cell 1 to fan g    1>f  cell to foundation
        7H>g  the merci: lift the buried 7H onto fan g (last deal only)
        R     redeal (gather, shuffle and deal the cards left)
Keys:   u undo   y redo   a autoplay to the foundations   m list legal moves
        hint  the best move and why   ? this help   q quit
        resign  give up this game (it counts as lost in the statistics)
        (undo, redo, auto and moves may be typed as words too)
Every move is saved: quit at any time, `lucie play` resumes the game.""")


class LineGame:
    """One game of line mode, saved in the store after every change."""

    def __init__(self, store: Store, player: str, opened: Opened,
                 stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.store = store
        self.player = player
        self.game_id = opened.game_id
        self.game = opened.game
        self.resumed = opened.resumed
        self._base_seconds = opened.seconds
        self._t0 = time.monotonic()
        self.inp = stdin or sys.stdin
        reconfigure = getattr(self.inp, "reconfigure", None)
        if reconfigure is not None:  # a stray byte is a bad command, not a crash
            reconfigure(errors="replace")
        self.out = stdout or sys.stdout
        self.finished_recorded = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def seconds(self) -> float:
        return self._base_seconds + time.monotonic() - self._t0

    # -- the store ----------------------------------------------------------

    def save(self) -> None:
        """Save the move list; record the end of the game once, and take it
        back if an undo reopens a finished game."""
        game = self.game
        try:
            if self.finished_recorded and not game.outcome.finished:
                self.store.reopen(self.game_id)
                self.finished_recorded = False
            self.store.record_move(self.game_id, game, self.seconds())
            if game.outcome.finished and not self.finished_recorded:
                self.store.finish_game(self.game_id, game, self.seconds())
                self.finished_recorded = True
                self._say_stats()
        except StoreError as exc:
            self.say(_("! could not save: {error}").format(error=exc))

    def _say_stats(self) -> None:
        s = self.store.stats(self.player, self.game.rules)
        self.say(ngettext(
            "{player}: {games} game of {variant} finished, {wins} won ({rate}), "
            "average score {average}, streak {streak}",
            "{player}: {games} games of {variant} finished, {wins} won ({rate}), "
            "average score {average}, streak {streak}",
            s.games,
        ).format(player=self.player, games=s.games, variant=self.game.rules.name(),
                 wins=s.wins, rate=format_percent(s.win_rate),
                 average=format_number(s.average_score, 1),
                 streak=s.current_streak))

    def release(self) -> None:
        try:
            self.store.record_move(self.game_id, self.game, self.seconds())
            self.store.release(self.game_id)
        except StoreError as exc:
            self.say(_("! could not save: {error}").format(error=exc))

    # -- the loop -----------------------------------------------------------

    def run(self) -> int:
        """Read commands until ``q`` or the end of the input; returns 0."""
        try:
            if self.game.outcome.finished:
                self.save()  # ended just before the program was stopped
            return self._loop()
        finally:
            self.release()

    def _loop(self) -> int:
        game = self.game
        self.say(render(game))
        if self.resumed:
            self.say(ngettext(
                "Welcome back: your game resumes where you left it ({n} move played).",
                "Welcome back: your game resumes where you left it ({n} moves played).",
                len(game.moves),
            ).format(n=len(game.moves)))
        self.say(_("Type a move (like c>g), ? for help, q to quit."))
        while True:
            outcome = game.outcome
            if outcome.finished:
                ending = {
                    "won": _("You won! Score {score}/52. (u to undo, q to quit)"),
                    "resigned": _("You resigned. Score {score}/52. (u to undo, q to quit)"),
                }.get(outcome.status) or _(
                    "No move left: the game is lost. Score {score}/52. (u to undo, q to quit)")
                self.say(ending.format(score=outcome.score))
            print(_("move> "), end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                self.say()
                return 0
            cmd = line.strip()
            if not cmd:
                continue
            if cmd in ("q", "quit", "exit"):
                return 0
            try:
                changed = self.command(cmd)
            except LucieError as exc:
                self.say(f"! {exc}")
                continue
            if changed:
                self.save()
                self.say(render(game))

    def command(self, cmd: str) -> bool:
        """Carry out one command; True if the game changed (then it is saved)."""
        game = self.game
        if cmd in ("?", "h", "help"):
            self.say(_(HELP))
            return False
        if cmd in ("m", "moves"):
            # the notation to type, then what the move does in words
            self.say("\n".join(f"{m!s:>6}  {game.position.describe(m)}"
                               for m in game.legal_moves) or _("(no legal move)"))
            return False
        if cmd == "hint":
            from lucie.solver.hints import hint

            self.say(_("hint: {hint}").format(hint=hint(game.position)))
            return False
        if cmd in ("u", "undo"):
            step = game.undo_step()  # the move and the cards autoplay sent home after it
            self.say(_("undone: {moves}").format(moves=step.text))
        elif cmd in ("y", "redo"):
            step = game.redo_step()
            self.say(_("redone: {moves}").format(moves=step.text))
        elif cmd in ("a", "auto", "autoplay"):
            before = game.position
            moves = game.autoplay()
            self.say(_("autoplay: {moves}").format(
                moves=cards_text(moved_cards(before, moves)) or _("nothing to play")))
            return bool(moves)
        elif cmd == "resign":
            if game.outcome.finished:
                raise LucieError(_("the game is over already"))
            game.resign()
        else:
            try:
                move = Move.parse(typed_move(cmd))
            except LucieError as exc:
                raise LucieError(_("{error}; ? for help").format(error=exc)) from None
            try:
                game.play(move, autoplay=False)
            except MoveError as exc:
                alt = _fan_f_alternative(game, cmd)
                raise MoveError(f"{exc}{alt}") from None
        return True


def play_plain(
    store: Store,
    player: str,
    rules: Rules | None = None,
    deal: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play in line mode: resume the player's unfinished game (see
    :func:`open_game`) or deal a new one; returns 0 (quit or end of input)."""
    opened = open_game(store, player, rules, deal)
    return LineGame(store, player, opened, stdin, stdout).run()


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
