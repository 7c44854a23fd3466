"""Plain line mode: ``lucie play --plain``.

Shows the position, reads one command per line from standard input.  Works
with pipes too, so it can be scripted and tested.
"""

from __future__ import annotations

import sys
from typing import TextIO

from lucie.engine import Game, Move
from lucie.errors import LucieError, MoveError

HELP = """\
Moves:  c>g   top card of fan c onto fan g      c>f   fan c to its foundation
        d>F   onto fan f (capital F: a small f is the foundation)
        c>1   fan c to cell 1    1>g  cell 1 to fan g    1>f  cell to foundation
        7H>g  the merci: lift the buried 7H onto fan g (last deal only)
        R     redeal (gather, shuffle and deal the cards left)
Keys:   u undo   y redo   a autoplay to the foundations   m list legal moves
        hint  the best move and why   ? this help   q quit
        (undo, redo, auto and moves may be typed as words too)"""


def play_plain(game: Game, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play ``game`` in line mode; returns 0 (quit or game over)."""
    from lucie.cli.game_cmds import render

    inp = stdin or sys.stdin
    out = stdout or sys.stdout

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(render(game))
    say("Type a move (like c>g), ? for help, q to quit.")
    while True:
        outcome = game.outcome
        if outcome.finished:
            word = "You won!" if outcome.status == "won" else "No move left: the game is lost."
            say(f"{word} Score {outcome.score}/52. (u to undo, q to quit)")
        print("move> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            say()
            return 0
        cmd = line.strip()
        if not cmd:
            continue
        try:
            if cmd in ("q", "quit", "exit"):
                return 0
            if cmd in ("?", "h", "help"):
                say(HELP)
                continue
            if cmd in ("u", "undo"):
                say(f"undone: {game.pop()}")
            elif cmd in ("y", "redo"):
                say(f"redone: {game.redo()}")
            elif cmd in ("m", "moves"):
                say(" ".join(str(m) for m in game.legal_moves) or "(no legal move)")
                continue
            elif cmd == "hint":
                from lucie.solver.hints import hint

                say(f"hint: {hint(game.position)}")
                continue
            elif cmd in ("a", "auto", "autoplay"):
                moves = game.autoplay()
                say("autoplay: " + (" ".join(map(str, moves)) or "nothing to play"))
            else:
                try:
                    move = Move.parse(cmd)
                except LucieError as exc:
                    raise LucieError(f"{exc}; ? for help") from None
                try:
                    game.push(move)
                except MoveError as exc:
                    alt = _fan_f_alternative(game, cmd)
                    raise MoveError(f"{exc}{alt}") from None
        except LucieError as exc:
            say(f"! {exc}")
            continue
        say(render(game))


def _fan_f_alternative(game: Game, cmd: str) -> str:
    """Suggest ``x>F`` when ``x>f`` (foundation) fails but fan f would take it."""
    if cmd.endswith(">f"):
        try:
            alt = Move.parse(cmd[:-1] + "F")
        except LucieError:
            return ""
        if alt in game.legal_moves:
            return f" (did you mean {alt}, onto fan f?)"
    return ""
