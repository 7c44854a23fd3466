"""A duel of a site played in the terminal game: ``lucie play --duel LINK``
(docs/duel.md, docs/terminal.md).

:class:`DuelApp` is the terminal game (:class:`~lucie.tui.app.LucieApp`:
the same table, keys and controller) on the player's game of the duel,
a :class:`~lucie.tui.remote.RemoteSession`: every move goes to the site,
whose engine applies it, and whose duel's settings (hints, undo) decide
what is refused.  The line under the header shows the other side's
progress and the duel's clock, live, from the duel's WebSocket (the
``websockets`` library), which reconnects by itself; the site sends the
duel as it is on each connection.  When the duel ends, the result of
both sides is shown, and both reviews on request.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable
from typing import Any, ClassVar, Final

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from lucie.engine import Move
from lucie.errors import LucieError
from lucie.i18n import N_, _
from lucie.parsing import printable
from lucie.tui.app import LucieApp
from lucie.tui.controller import moves_count
from lucie.tui.remote import (
    DuelStart,
    NewsOrder,
    RemoteSession,
    SiteDown,
    SiteRefused,
    answer_json,
    number,
    plausible_view,
)
from lucie.tui.screens import TextScreen
from lucie.tui.table import duration

#: Seconds between two "the game is on the screen" to the site (its clock
#: runs 90 s past the last one).
VISIBLE_EVERY: Final = 60.0
#: The commands of the terminal game that a duel leaves out: the game is
#: the duel's, and the statistics are the site's.
NOT_IN_A_DUEL: Final = frozenset({"new_game", "variant", "stats", "history"})
#: The longest wait before the socket tries again (seconds).
MOST_RETRY: Final = 5.0


def _other(side: str) -> str:
    return "guest" if side == "host" else "host"


def settings_text(settings: dict[str, Any]) -> str:
    """The duel's settings in words (the page's words).

    >>> settings_text({"hints": False, "undo": True, "time_limit": 600})
    'no hints, undo allowed, 10 minutes'
    """
    parts = [_("hints allowed") if settings.get("hints") else _("no hints"),
             _("undo allowed") if settings.get("undo") else _("no undo")]
    limit = number(settings.get("time_limit"))
    if limit:
        parts.append(_("{minutes} minutes").format(minutes=round(limit / 60)))
    return ", ".join(parts)


def progress_text(name: str, progress: dict[str, Any]) -> str:
    """A side's progress in a few words.

    >>> progress_text("ann", {"cards_home": 12, "cards": 52, "moves": 30,
    ...                       "redeals_used": 1, "redeals": 2, "status": "playing"})
    'ann: 12/52 home, 30 moves, redeals used 1/2'
    """
    whole = {key: int(number(progress.get(key))) for key in
             ("cards_home", "cards", "moves", "redeals_used", "redeals")}
    text = _("{name}: {home}/{cards} home, {moves}, redeals used {used}/{redeals}").format(
        name=name, home=whole["cards_home"], cards=whole["cards"] or 52,
        moves=moves_count(whole["moves"]), used=whole["redeals_used"],
        redeals=whole["redeals"])
    if progress.get("status", "playing") != "playing" and progress.get("status_text"):
        text += " · " + printable(str(progress["status_text"]))
    return text


class DuelEndScreen(ModalScreen[str]):
    """The end of the duel: the result of both sides.  Dismisses with
    ``review``, ``quit`` or ``close``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "choose('review')", N_("Both reviews")),
        Binding("q", "choose('quit')", N_("Quit")),
        Binding("escape", "choose('close')", N_("Look at the table")),
    ]

    def __init__(self, title: str, why: str, table: Table, won: bool) -> None:
        super().__init__()
        self.title_text, self.why, self.table, self.won = title, why, table, won

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog end " + ("won" if self.won else "lost")):
            # plain text: a player's name is the site's, never markup
            yield Static(Text(self.title_text), classes="title")
            yield Static(Text(self.why), id="why")
            yield Static(self.table, id="sides")
            with Horizontal(classes="buttons"):
                yield Button(_("Both reviews") + " (r)", variant="primary", id="review")
                yield Button(_("Quit") + " (q)", id="quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(str(event.button.id))

    def action_choose(self, what: str) -> None:
        self.dismiss(what)


class DuelApp(LucieApp):
    """The terminal game on a duel of a site (see the module doc)."""

    def __init__(self, start: DuelStart, *, clock: bool = True,
                 language: str | None = None, settings: Any = None) -> None:
        App.__init__(self)  # no store of its own: the game is the site's
        self.speak(language, settings)
        self.duel = start
        self.view: dict[str, Any] = start.view
        self.at = time.monotonic()
        self.them: dict[str, Any] | None = None
        #: whether the duel's socket is connected
        self.online = False
        #: the order of the duel's news (a gap: the duel is read again)
        self.order = NewsOrder()
        #: how many times the duel was read again for news missed
        self.rereads = 0
        self._asked_end = False
        self._result_shown = False
        self._last_visible = 0.0
        self.begin(start.session, clock=clock, autoplay=False)
        self._heard_view(start.view)

    @property
    def remote(self) -> RemoteSession:
        assert isinstance(self.session, RemoteSession)
        return self.session

    # -- the duel as the site tells it ------------------------------------------

    @property
    def you(self) -> str:
        return str(self.view.get("you") or "guest")

    def name_of(self, side: str) -> str:
        if side == self.you:
            return _("You")
        player = (self.view.get("players") or {}).get(side)
        return printable(str(player["name"])) if player and player.get("name") else \
            _("Your opponent")

    def elapsed(self) -> float:
        """The duel's time now (the site's figure, run on here)."""
        base = number(self.view.get("elapsed"))
        return base + (time.monotonic() - self.at if self.view.get("state") == "playing" else 0)

    def time_left(self) -> float | None:
        left = self.view.get("time_left")
        if left is None:
            return None
        ran = time.monotonic() - self.at if self.view.get("state") == "playing" else 0.0
        return max(0.0, number(left) - ran)

    def seconds(self) -> float:
        """The header's clock: the duel's time."""
        return self.elapsed()

    def _heard_view(self, view: dict[str, Any]) -> None:
        if not self.order.view(view):  # older than the news heard since
            return
        before = self.view.get("state")
        self.view, self.at = view, time.monotonic()
        theirs = (view.get("players") or {}).get(_other(self.you))
        self.them = theirs.get("progress") if theirs else None
        self.remote.under_way = view.get("state") != "waiting"
        if before == "waiting" and view.get("state") == "playing":
            self.say(_("The duel has started: good luck!"), "info")
            self._last_visible = time.monotonic()
            self.visible_worker()  # the game's clock on the site starts now
        self.draw_duel()
        if view.get("state") == "over":
            self.show_result()

    def heard(self, message: Any) -> None:
        """A message of the duel's socket (one not of this shape is not ours)."""
        if not isinstance(message, dict):
            return
        if message.get("type") == "duel" and plausible_view(message.get("duel")):
            self._heard_view(message["duel"])
            return
        order = self.order.news(message)
        if order == "gap":  # news missed: the duel as it is now, not this one
            self.rereads += 1
            self.fetch_duel()
        elif order == "apply" and message.get("type") == "progress" \
                and message.get("side") == _other(self.you) \
                and isinstance(message.get("progress"), dict):
            self.them = message["progress"]
            self.draw_duel()

    def draw_duel(self) -> None:
        table = self.table
        if table is None or not table.is_mounted:
            return
        view = self.view
        state = view.get("state")
        if state == "waiting":
            left = _("Waiting for your opponent: send them this link.")
        else:
            left = progress_text(self.name_of(_other(self.you)), self.them or {})
        right = "" if state == "waiting" else _("Duel time {time}").format(
            time=duration(self.elapsed()))
        left_time = self.time_left()
        if left_time is not None and state == "playing":
            right += " · " + _("{time} left").format(time=duration(left_time))
        if not self.online and state != "over":
            right = _("offline") + (" · " + right if right else "")
        table.draw_duel(left, right)

    # -- set-up and time ----------------------------------------------------------

    def _first_draw(self) -> None:
        self.refresh_board()
        view = self.view
        text = _("Duel: {variant}, deal {deal}; {settings}.").format(
            variant=view.get("variant_name", ""), deal=(view.get("settings") or {}).get("deal"),
            settings=settings_text(view.get("settings") or {}))
        if view.get("state") == "waiting":
            text += "  " + self.duel.link.text
        problem = self.duel.client.problem
        self.say(text + ("  " + problem if problem else ""), "error" if problem else "info")
        self.draw_duel()
        self._last_visible = time.monotonic()
        self.listen()
        self.check_end()

    def _tick(self) -> None:
        self._draw_header()
        self.draw_duel()
        left = self.time_left()
        if left == 0 and self.view.get("state") == "playing" and not self._asked_end:
            self._asked_end = True  # the site ends it and says so
            self.fetch_duel()
        if time.monotonic() - self._last_visible >= VISIBLE_EVERY:
            self._last_visible = time.monotonic()
            self.visible_worker()

    @work(thread=True, exclusive=True, group="visible")
    def visible_worker(self) -> None:
        self.remote.show()

    @work(thread=True, exclusive=True, group="duel")
    def fetch_duel(self) -> None:
        """Read the duel again from the site."""
        try:
            view = self.duel.client.call("GET", f"/api/duels/{self.duel.link.token}")
        except (SiteDown, SiteRefused) as exc:
            self.call_from_thread(self.say, str(exc), "error")
            return
        if plausible_view(view):
            self.call_from_thread(self._heard_view, view)

    # -- the socket -----------------------------------------------------------------

    @work(exclusive=True, group="socket")
    async def listen(self) -> None:
        """Hear the duel's news for as long as the app runs, connecting
        again after a lost connection (0.5 s, then doubling up to 5 s)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

        client = self.duel.client
        url = client.socket_url(f"/api/duels/{self.duel.link.token}/socket")
        headers = {k: v for k, v in client.headers().items() if k not in ("Accept", "User-Agent")}
        retry = 0.5
        while True:
            refused = False
            try:
                async with connect(url, additional_headers=headers, open_timeout=10) as ws:
                    self._set_online(True)
                    retry = 0.5
                    async for raw in ws:
                        with contextlib.suppress(LucieError):  # not JSON: not ours
                            self.heard(answer_json(raw))
                    refused = 4400 <= (ws.close_code or 0) < 4500
            except InvalidStatus as exc:
                refused = 400 <= exc.response.status_code < 500
            except ConnectionClosed as exc:
                refused = exc.rcvd is not None and 4400 <= exc.rcvd.code < 4500
            except (OSError, InvalidHandshake, TimeoutError):
                pass
            self._set_online(False)
            if refused:
                self.say(_("This duel cannot be followed from here."), "error")
                return
            await asyncio.sleep(retry)
            retry = min(retry * 2, MOST_RETRY)

    def _set_online(self, online: bool) -> None:
        if online != self.online:
            self.online = online
            self.draw_duel()

    # -- the commands a duel changes ---------------------------------------------------

    def action_hint(self) -> None:
        def give() -> None:
            self.say(_("Thinking…"), "hint")
            self.hint_worker(self.game.position)

        self.hint_help(give)  # (a duel on the deal of the day may count for its table)

    @work(thread=True, exclusive=True, group="hint")
    def hint_worker(self, position: Any) -> None:
        """A hint from the site (which refuses it where hints are not allowed)."""
        try:
            data = self.duel.client.call("GET", f"/api/games/{self.remote.page}/hint?seconds=2")
            move = Move.parse(str(data["move"])) if data.get("move") else None
        except (SiteDown, SiteRefused, LucieError, KeyError) as exc:
            self.call_from_thread(self.say, _("No hint: {error}").format(error=exc), "error")
            return
        text = str(data.get("text") or "")
        self.call_from_thread(
            lambda: self.respond(self.controller.show_hint(position, move, text)))

    def action_restart(self) -> None:
        self.respond(self.controller.restart())  # the site says whether it may

    def _not_in_a_duel(self) -> None:
        self.say(_("Not during a duel: Ctrl+Q leaves it (your game stays on the site; "
                   "lucie play --duel LINK comes back to it)."), "error")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in NOT_IN_A_DUEL:
            return False  # out of the footer (the palette's entry says why)
        return super().check_action(action, parameters)

    def action_new_game(self) -> None:
        self._not_in_a_duel()

    def action_variant(self) -> None:
        self._not_in_a_duel()

    def action_stats(self) -> None:
        self._not_in_a_duel()

    def action_history(self) -> None:
        self._not_in_a_duel()

    def action_review(self) -> None:
        self.say(_("Reviewing…"), "hint")
        self.reviews_worker()

    # -- the end -------------------------------------------------------------------------

    def check_end(self) -> None:
        """The player's own game is over: the duel may be too (the site says)."""
        if self.view.get("state") == "over":
            self.show_result()
            return
        if self.game.outcome.finished and not self._end_shown:
            self._end_shown = True
            self.say(_("Your game is over: the duel ends when your opponent's is too, or when "
                       "its time runs out."), "info")
            self.fetch_duel()

    def show_result(self) -> None:
        if self._result_shown or self.table is None:
            return
        self._result_shown = True
        view = self.view
        winner = view.get("winner")
        title = _("A draw") if winner is None else _("You won the duel!") \
            if winner == self.you else _("{name} won the duel.").format(name=self.name_of(winner))
        sides = [self.you, _other(self.you)]
        players = view.get("players") or {}
        reason = view.get("end_reason")
        resigned = next((s for s in sides if ((players.get(s) or {}).get("progress") or {})
                         .get("status") == "resigned"), sides[1])
        why = _("Both games are over.")
        if reason == "time":
            why = _("The time ran out.")
        elif reason == "resigned":
            why = _("You resigned.") if resigned == self.you else _("{name} resigned.").format(
                name=self.name_of(resigned))
        self.say(_("The duel is over: r shows both reviews, Ctrl+Q quits."), "info")
        self.push_screen(DuelEndScreen(title, why, self._sides_table(sides),
                                       winner == self.you), self._after_result)

    def _sides_table(self, sides: list[str]) -> Table:
        table = Table(box=None, show_edge=False, pad_edge=False)
        table.add_column("")
        for side in sides:
            table.add_column(Text(self.name_of(side)), justify="right")
        players = self.view.get("players") or {}
        progress = [((players.get(s) or {}).get("progress") or {}) for s in sides]
        rows = [(_("Result"), [str(p.get("status_text", "")) for p in progress]),
                (_("Cards home"), [f"{p.get('cards_home', 0)}/{p.get('cards', 52)}"
                                   for p in progress]),
                (_("Score"), [str(p.get("score", 0)) for p in progress]),
                (_("Moves"), [str(p.get("moves", 0)) for p in progress]),
                (_("Time"), [duration(number(p.get("seconds"))) for p in progress])]
        for label, cells in rows:
            table.add_row(label, *(Text(printable(cell)) for cell in cells))
        return table

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        if self.view.get("state") == "over":
            yield SystemCommand(_("Duel result"), _("Both sides' results, and both reviews"),
                                self.action_duel_result)
        yield from super().get_system_commands(screen)

    def action_duel_result(self) -> None:
        self._result_shown = False
        self.show_result()

    def _after_result(self, choice: str | None) -> None:
        if choice == "review":
            self.action_review()
        elif choice == "quit":
            self.exit(0)
        else:
            self.say(_("The duel is over: its result and both reviews are in the palette "
                       "(Ctrl+P); Ctrl+Q quits."), "info")

    @work(thread=True, exclusive=True, group="review")
    def reviews_worker(self) -> None:
        """Both sides' reviews, from the site (once the duel is over)."""
        parts: list[str] = []
        for side in (self.you, _other(self.you)):
            parts += [f"## {self.name_of(side)}", ""]
            try:
                review = self.duel.client.call(
                    "GET", f"/api/duels/{self.duel.link.token}/review/{side}?seconds=20")
            except SiteRefused as exc:
                if exc.status == 409:  # not over: nothing to show yet
                    self.call_from_thread(self.say, str(exc), "error")
                    return
                parts += [_sentence(str(exc)), ""]
                continue
            except SiteDown as exc:
                self.call_from_thread(self.say, str(exc), "error")
                return
            parts += review_lines(review, self._status_of(side))
        self.call_from_thread(self._show_reviews, "\n".join(parts))

    def _status_of(self, side: str) -> str:
        player = (self.view.get("players") or {}).get(side) or {}
        return str((player.get("progress") or {}).get("status", ""))

    def _show_reviews(self, text: str) -> None:
        self.say("")
        self.push_screen(TextScreen(text))

    async def action_quit(self) -> None:
        self.remote.close()
        self.exit(0)


def _sentence(text: str) -> str:
    """``text`` (the site's words) as a sentence.

    >>> _sentence("no move to review yet")
    'No move to review yet.'
    """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def review_lines(review: dict[str, Any], status: str) -> list[str]:
    """A side's review (the site's) as Markdown lines: when the chance to
    win was lost, then each move with its label.

    >>> review_lines({"lost_at": None, "start_value": {"chance": 0},
    ...               "moves": [{"index": 0, "move_text": "a>b", "label_text": "best"}]}, "lost")
    ['This deal could not be won from the start.', '', '1. a>b (best)', '']
    """
    listed = review.get("moves")
    moves = [m for m in listed if isinstance(m, dict)] if isinstance(listed, list) else []
    lost = review.get("lost_at")
    if not (isinstance(lost, int) and 0 <= lost < len(moves)):
        lost = None
    start = review.get("start_value")
    if status == "won":
        head = _("Won: the chance to win was never lost.")
    elif lost is None:
        head = _("This deal could not be won from the start.") \
            if isinstance(start, dict) and start.get("chance") == 0 \
            else _("The review found no move that lost the chance to win.")
    else:
        head = _("The chance to win was lost at move {n}: {move}.").format(
            n=lost + 1, move=printable(str(moves[lost].get("move_text", ""))))
    lines = [head, ""]
    for place, entry in enumerate(moves, 1):
        text = str(entry.get("move_text") or entry.get("move") or "")
        if entry.get("label_text"):
            text += f" ({entry['label_text']})"
        if entry.get("index") == lost:
            text = f"**{text}**"
        lines.append(f"{place}. {printable(text)}")
    return [*lines, ""]


__all__ = ["DuelApp", "DuelEndScreen", "progress_text", "review_lines", "settings_text"]
