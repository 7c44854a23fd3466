"""A game's life, the same in every interface: :class:`Session`.

The terminal game, line mode and the browser game each turn keys, lines or
requests into calls on a :class:`Session` and draw what comes back; the
session asks the engine (:class:`~lucie.engine.Game`, one :class:`Step` per
player's move), keeps the clock, records every change in the store and
holds the claim that keeps two programs from playing one stored game.

What holds for every interface:

- **A change is applied only once it is recorded.**  Each change is made on
  a copy of the game, recorded, and only then becomes the game in play; if
  the store cannot write (:class:`~lucie.store.StoreError`: a full disk, a
  locked database), :class:`NotSavedError` is raised and the game stays exactly
  as it was.
- **A result is final.**  Once a game is won, lost (no move left) or
  resigned, its result is recorded once and never changed.  Undo after the
  end goes on as *practice*, which is not recorded (:attr:`Session.practice`,
  the interfaces say so); Restart or "play this deal again" open a new
  recorded game of the same deal (:meth:`Session.again`).
- **Leaving a game** for another (:meth:`Session.leave`, the interfaces ask
  first) counts a game with moves as resigned; a game without a move is
  forgotten (deleted from the store), and so are the player's other
  untouched games that no program holds any more.
- **The clock** (:class:`Clock`) counts only while the game is shown and in
  play: it stops at the end, when the game is left, and where the
  interface says it is hidden (:meth:`Session.hide`; the browser's page
  tells the server).  Its value is rounded once (hundredths of a second),
  the same value is stored and shown, and every interface shows whole
  seconds the same way (cut, not rounded).  A site's game (``shared``) has
  the store's clock, not a process's: its page's word (:meth:`Session.seen`)
  and each change are one write each that accrues the time since the page
  last said it showed the game, at most the lease, whatever process gets
  them (:meth:`~lucie.store.Store.tick_clock`); its end records that time
  once, and a process that stops, even killed, loses none of it.
- **A deal picked by difficulty** keeps the rating it was picked by with
  its game in the store (:attr:`Session.picked`): the end of the game tells
  that same figure, after a restart or in another program too.
- **Fair-play marks** (:class:`~lucie.store.Marks`) are set here and
  nowhere else: a game starts marked as played from its first move (a
  game given with moves already made: loaded); a restart, a game played
  again (:meth:`Session.again`) or a deal the player had played before is
  a replay; :meth:`Session.hint_asked` counts the help asked (the
  interfaces call it before they give a hint); each undo is counted with
  the undo.  Help marks by the deal: every game of the same deal and
  variant the player has in play, loaded copies included.  Marks only
  ever add, and nothing is marked once the result is recorded (practice).
- **Policies** every interface offers: :meth:`Session.send_home` (the safe
  cards, or the aces where no card is strictly safe), :meth:`Session.hopeless`
  and :func:`proved_lost` (when to offer resigning).

>>> import tempfile, pathlib
>>> from lucie.rules import Rules
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "games.sqlite3")
>>> session = Session.new(store, "ann", Rules(), 1)
>>> session.play(Move.parse("f>i")).step.text
'7♦ from fan f onto 8♦ in fan i'
>>> store.record(session.game_id).moves
1
>>> session.resign().ended
'resigned'
>>> outcome = session.undo()  # the resignation stays recorded: practice
>>> outcome.practice, store.record(session.game_id).status
(True, 'resigned')
>>> session.close(); store.close()
"""

from __future__ import annotations

import contextlib
import datetime
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeVar

from lucie.daily import daily_date
from lucie.engine import Game, Move, Position, Step
from lucie.errors import LucieError, MoveError
from lucie.i18n import N_, _
from lucie.rules import Rules
from lucie.store import (
    BUSY_TIMEOUT_MS,
    WAIT_UNTIL,
    Checked,
    Entry,
    GameRecord,
    History,
    Mark,
    Marks,
    Player,
    PlayerRef,
    StaleGame,
    Stats,
    Store,
    StoreBusy,
    StoredClock,
    StoreDown,
    StoreError,
    StoreFault,
    StoreFull,
    Tick,
    default_path,
    default_player,
    open_game,
    rank_daily,
    write_error,
)

if TYPE_CHECKING:
    from lucie.analysis.difficulty import Rated
    from lucie.store import Origin

T = TypeVar("T")

#: What else names a game (a browser page's token), told that a new game
#: replaces it: called with the old and the new game's ids, True once it
#: names the new one, False if it named the old one no longer (:meth:`Session.again`).
Link = Callable[[int, int], bool]

#: Seconds the browser's clock runs on after the page last said it is shown
#: (the page says so every minute while it is visible); a site's game's
#: lease when none is given.
PAGE_LEASE: Final = 90.0
#: How many of the player's latest games are looked at for untouched games
#: to forget when a new game starts.
_SWEEP: Final = 200


#: What an interface asks before help in a game that counts for the table
#: of the day (:meth:`Session.counts_for_daily`), and says when the player
#: declines (the page asks the same: lucie/web/static/hints.js, stats.js).
HINT_QUESTION: Final = N_("Ask for a hint? This game will then no longer count for the table "
                          "of the day.")
HINT_DECLINED: Final = N_("No hint asked: this game still counts for the table of the day.")
REVIEW_QUESTION: Final = N_("Review this game in play? The review tells the chance to win: if "
                            "the game counts for the table of the day, it will no longer count.")
REVIEW_DECLINED: Final = N_("No review asked: this game still counts for the table of the day.")

class NotSavedError(LucieError):
    """A change could not be recorded; the game stays as it was.

    ``error``: the store's :class:`~lucie.store.StoreError` (a full disk, a
    locked database...)."""

    def __init__(self, error: StoreError) -> None:
        super().__init__(_("not played: the game could not be saved ({error}). Nothing "
                           "changed; try again in a moment.").format(error=error))
        self.error = error


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a :class:`Session` action did (not to be confused with the
    engine's :class:`~lucie.engine.Outcome`, a game's status and score).

    ``step``: the step played or redone; ``undone``: the step taken back;
    ``ended``: the result the game just reached (``won``, ``lost``,
    ``resigned``), recorded now; ``practice``: the game has just become
    practice (a result is recorded, what follows is not); ``restarted``:
    back to the deal's start; ``new_game``: a new game of the same deal was
    opened (Restart after the end); ``aces``: :meth:`Session.send_home`
    sent aces because no card was strictly safe.
    """

    step: Step | None = None
    undone: Step | None = None
    ended: str | None = None
    practice: bool = False
    restarted: bool = False
    new_game: bool = False
    aces: tuple[Move, ...] = ()

    @property
    def practice_note(self) -> str | None:
        """What every interface says when the game has just become
        practice (None otherwise), in the language in use."""
        if not self.practice:
            return None
        return _("Practice: the result of this game stays recorded; what you play now "
                 "is not.")

    @property
    def changed(self) -> bool:
        """Whether the game changed."""
        return (self.step is not None or self.undone is not None or self.restarted
                or self.new_game or self.ended is not None)


class Clock:
    """Seconds played on one game.

    It runs only between :meth:`start` and :meth:`stop`; with a ``lease``,
    only up to ``lease`` seconds after the last :meth:`start` or
    :meth:`touch` (a page that stops saying it is shown stops the clock,
    even if it never says goodbye).  :meth:`seconds` is rounded to
    hundredths, the precision the store keeps.  ``now``: the time it is
    told by (default :func:`time.monotonic`); a site's game's clock is a
    copy of the store's (:meth:`follow`), told by the wall clock.

    >>> clock = Clock(12.5)
    >>> clock.seconds(), clock.running
    (12.5, False)
    >>> clock = Clock(lease=90.0, now=lambda: 1000.0)
    >>> clock.follow(StoredClock(30.0, 900.0)); clock.seconds(), clock.running
    (120.0, True)
    """

    def __init__(self, seconds: float = 0.0, *, lease: float | None = None,
                 now: Callable[[], float] | None = None) -> None:
        self._base = max(0.0, float(seconds))
        self._since: float | None = None
        self._seen = 0.0
        self.lease = lease
        self._now = now

    @property
    def running(self) -> bool:
        return self._since is not None

    def _time(self) -> float:
        return time.monotonic() if self._now is None else self._now()

    def _end(self, now: float) -> float:
        return now if self.lease is None else min(now, self._seen + self.lease)

    def seconds(self) -> float:
        """Seconds played so far."""
        since = self._since
        if since is None:
            return round(self._base, 2)
        return round(self._base + max(0.0, self._end(self._time()) - since), 2)

    def follow(self, stored: StoredClock) -> None:
        """Be the store's clock (a site's game): ``stored.seconds`` accrued,
        and, while the page shows the game, the time since it last said
        so (``stored.shown_at``), at most the lease, as the store will
        count it (:meth:`~lucie.store.Store.tick_clock`)."""
        self._base = max(0.0, stored.seconds)
        self._since = stored.shown_at
        self._seen = stored.shown_at if stored.shown_at is not None else 0.0

    def start(self) -> None:
        """The game is shown (again)."""
        now = self._time()
        if self._since is None:
            self._since = now
        elif self.lease is not None and now > self._seen + self.lease:
            # the lease lapsed meanwhile: that gap did not count
            self._base = self.seconds()
            self._since = now
        self._seen = now

    touch = start

    def stop(self) -> None:
        """The game is no longer shown, over or left."""
        if self._since is not None:
            self._base = self.seconds()
            self._since = None

    def set(self, seconds: float) -> None:
        """Stop at ``seconds`` (the value recorded at the end of a game)."""
        self._since = None
        self._base = seconds


def proved_lost(position: Position, clears: bool | None, budget_ran_out: bool = False) -> bool:
    """Whether a hint's search (its :attr:`~lucie.analysis.hints.Hint.clears`)
    proves the game can no longer be won: the deal in play cannot be
    cleared, and no redeal and no merci is left to change it.  Only then do
    the interfaces offer resigning."""
    return (clears is False and not budget_ran_out and position.redeals_left == 0
            and not position.merci_available)


def review_asked(store: Store, game_id: int, player: PlayerRef) -> None:
    """A review of ``player``'s stored game ``game_id`` is asked (from the
    statistics, by its number): while the game is in play, the review tells
    the winning chance of the position in play, so it is help, marked
    before it is given as :meth:`Session.hint_asked` marks a hint
    (:class:`NotSavedError` if it cannot be: then give no review).  A
    finished game is not marked (it is practice by then), but the review
    of any game marks the player's games of the same deal still in play
    (:meth:`Store.mark_deal <lucie.store.Store.mark_deal>`: it shows the
    solver's move after each of its moves)."""
    try:
        playing = store.record(game_id, of=player).status == "playing"
        store.mark_deal(game_id, itself=playing)
    except StoreError as exc:
        raise NotSavedError(exc) from None


def _pick_text(picked: Rated | None) -> str | None:
    """A pick's rating as the store keeps it (JSON text)."""
    if picked is None:
        return None
    return json.dumps(picked.to_json(), separators=(",", ":"), ensure_ascii=False)


def _is_ace_home(position: Position, move: Move) -> bool:
    if move.dst_kind != "foundation":
        return False
    card = position.moving_card(move)
    return card is not None and card.rank == 1


class Session:
    """One game being played, recorded in ``store`` (None: not recorded,
    e.g. a game loaded from a file in the browser).

    Build one with :meth:`open` (resume the player's unfinished game or
    deal a new one), :meth:`new`, :meth:`stored` (a stored game by id) or
    :meth:`unrecorded`.  Every action raises :class:`MoveError` for an
    illegal change and :class:`NotSavedError` when the store cannot record it;
    either way the game stays as it was.  Call :meth:`close` when the
    program stops showing it (the game stays to be resumed) or
    :meth:`leave` when the player leaves it for another.
    """

    def __init__(
        self,
        game: Game,
        *,
        store: Store | None = None,
        player: PlayerRef = None,
        game_id: int | None = None,
        seconds: float = 0.0,
        resumed: bool = False,
        result: str | None = None,
        lease: float | None = None,
        shared: bool = False,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._game = game
        #: a site's game (``lucie serve``): any of its processes may play it,
        #: so it is never claimed, and each change is made only on the
        #: version it was read at (:attr:`version`; a
        #: :class:`~lucie.store.StaleGame` if another process changed it)
        self.shared = shared
        #: the stored game's version this copy is (shared games)
        self.version: int | None = None
        self.store = store
        self.player = player or default_player()
        #: the game's id in the store (None: not recorded)
        self.game_id = game_id if store is not None else None
        #: whether the game was resumed (rather than dealt)
        self.resumed = resumed
        #: the recorded result (final), None while the game is in play
        self.result = result
        #: a recorded game went on after its end: nothing more is recorded
        self.practice = False
        #: the wall clock a shared game's time is told by (seconds since the
        #: epoch: the processes of a site compare them)
        self.wall = wall
        self.clock = self._clock(seconds, lease)
        self._claimed = False
        #: the rating the deal was picked by, as stored (JSON text), if it was
        self._picked: str | None = None
        #: the game's fair-play marks as last read from the store (None: not
        #: recorded, or not known), and when it was started (ISO, UTC)
        self.fair: Marks | None = None
        self.started: str | None = None

    @property
    def player_name(self) -> str:
        """The player's name as shown (a site's player's display name)."""
        return self.player.name if isinstance(self.player, Player) else self.player

    # -- opening --------------------------------------------------------------

    @classmethod
    def open(cls, store: Store, player: PlayerRef, rules: Rules | None = None,
             deal: int | None = None, *, lease: float | None = None) -> Session:
        """Resume the player's unfinished game (of ``rules``, of ``deal``),
        or deal a new one (see :func:`lucie.store.open_game`); a new game
        forgets the player's untouched games no program holds."""
        try:
            opened = open_game(store, player, rules, deal)
        except StoreError as exc:
            raise NotSavedError(exc) from None
        session = cls(opened.game, store=store, player=player, game_id=opened.game_id,
                      seconds=opened.seconds, resumed=opened.resumed, lease=lease)
        session._claimed = True
        if opened.resumed:
            session._picked = session._stored_pick()
        else:
            session._mark_known_deal()
            session._sweep()
        session.read_marks()
        session._settle_resumed()
        return session

    @classmethod
    def new(cls, store: Store | None, player: PlayerRef, rules: Rules | None = None,
            deal: int | None = None, *, game: Game | None = None,
            lease: float | None = None, picked: Rated | None = None,
            shared: bool = False, wall: Callable[[], float] = time.time) -> Session:
        """A new game (``game``, else a deal of ``rules``), recorded in
        ``store`` and claimed; ``picked``: the rating its deal was picked
        by (:attr:`picked`), recorded with it.  A shared game is shown
        from now on (its clock runs: the page that asked for it shows it)."""
        game = game if game is not None else Game(rules or Rules(), deal)
        session = cls(game, store=store, player=player, lease=lease, shared=shared, wall=wall)
        session._picked = _pick_text(picked)
        if store is not None:
            session.game_id = session._start_in_store(game, "loaded" if game.moves else "start")
            session.read_marks()
            if not shared:  # (another process may be showing a shared game)
                session._sweep()
            session._settle_resumed()
        return session

    @classmethod
    def stored(cls, store: Store, game_id: int, player: PlayerRef = None, *,
               lease: float | None = None, shared: bool = False,
               base: Game | None = None, wall: Callable[[], float] = time.time) -> Session:
        """The stored game ``game_id`` at its last saved position (a
        :class:`~lucie.store.StoreError` if it is missing, damaged or,
        given a ``player``, another player's; a
        :class:`~lucie.errors.LucieError` if another program plays it).
        ``base``: this program's earlier copy of the game, if any (a shared
        game another process played on: only the moves made since are
        replayed, :meth:`~lucie.store.Store.game`)."""
        # the row, marks and pick read with the game (a change after it is refused)
        record, game, marks, picked, clock = store.stored_game(game_id, of=player, base=base)
        version = record.version
        result = record.status if record.status != "playing" else None
        if result == "resigned" and not game.outcome.finished:
            game.resign()
        session = cls(game, store=store, player=player or record.player, game_id=game_id,
                      seconds=record.seconds, resumed=True, result=result, lease=lease,
                      shared=shared, wall=wall)
        if shared:  # the store's clock, as it stands
            session.clock.follow(clock)
        session.version = version
        session._picked = picked
        session.fair, session.started = marks, record.started
        if result is None and shared:
            session._settle_resumed()
        elif result is None:
            if not store.claim(game_id):
                raise LucieError(_("game {id} is being played by another program").format(
                    id=game_id))
            session._claimed = True
            session._settle_resumed()
        return session

    @classmethod
    def unrecorded(cls, game: Game, *, lease: float | None = None) -> Session:
        """A game played without the store (it never enters the statistics)."""
        return cls(game, lease=lease)

    def _stored_pick(self) -> str | None:
        """The rating the stored game's deal was picked by (None if it was
        not, or if it cannot be read: the end then rates the deal anew)."""
        if self.store is None or self.game_id is None:
            return None
        try:
            return self.store.picked_rating(self.game_id)
        except StoreError:
            return None

    def _start_in_store(self, game: Game, origin: Origin) -> int:
        assert self.store is not None
        shown_at = self.wall() if self.shared else None
        try:
            game_id = self.store.start_game(game, self.player, self._picked, origin,
                                            shown_at=shown_at)
            if origin == "start" and self.store.played_before(self.player, game, game_id):
                self.store.mark(game_id, "replay")
            if self.shared:
                self.version = self.store.version(game_id)
                self.clock.follow(StoredClock(0.0, shown_at))
                return game_id
            self.store.claim(game_id)
        except StoreError as exc:
            raise NotSavedError(exc) from None
        self._claimed = True
        return game_id

    def _save(self, game: Game, status: str | None = None, mark: Mark | None = None) -> None:
        """Record ``game`` (its end if ``status``: the clock stops; with the
        fair-play ``mark`` the change makes) and the time played.  A shared
        game only on the version this copy is (else
        :class:`~lucie.store.StaleGame`), its time accrued by the store in
        the same write (:meth:`~lucie.store.Store.record_shared`: a change
        says the page shows the game), so an end records it once."""
        store, game_id = self.store, self.game_id
        assert store is not None and game_id is not None
        if self.shared:
            saved = store.record_shared(game_id, game, self._tick(True), status,
                                        expect=self.version, mark=mark)
            self.version = saved.version
            self.clock.follow(saved.clock)
            return
        seconds = self.clock.seconds()
        if status is not None:
            self.version = store.finish_game(game_id, game, seconds, status)
            self.clock.set(seconds)
        else:
            self.version = store.record_move(game_id, game, seconds, mark=mark)

    def _settle_resumed(self) -> None:
        """A game that ended just before its program stopped (or a new game
        already over) gets its result recorded now."""
        if self.result is None and self._game.outcome.finished and self.recording:
            self._record(self._game)

    def _sweep(self) -> None:
        """Forget the player's games without a move that no program holds
        (a page closed on a fresh deal, a deal looked at and left)."""
        store = self.store
        if store is None:
            return
        try:
            for record in store.history(self.player, limit=_SWEEP):
                if (record.status != "playing" or record.moves or record.id == self.game_id
                        or store.is_claimed(record.id) or not store.claim(record.id)):
                    continue
                try:
                    store.discard(record.id)
                finally:
                    store.release(record.id)
        except StoreError:
            pass  # tidying only: the next new game tries again

    # -- state ------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game in play (replaced by each recorded change: do not keep it)."""
        return self._game

    @property
    def can_undo(self) -> bool:
        """Whether a step can be taken back."""
        return self._game.can_undo

    @property
    def can_redo(self) -> bool:
        """Whether an undone step can be played again."""
        return self._game.can_redo

    @property
    def recording(self) -> bool:
        """Whether changes are recorded (a stored game not gone to practice)."""
        return self.store is not None and self.game_id is not None and not self.practice

    @property
    def picked(self) -> Rated | None:
        """The rating this game's deal was picked by (:class:`Pick.rated
        <lucie.analysis.difficulty.Pick>`), kept with the game in the store;
        None for a deal not picked by difficulty, or a stored rating that no
        longer reads.  The end of the
        game tells this figure (:func:`~lucie.analysis.difficulty.deal_difficulty`'s
        ``picked``)."""
        if self._picked is None:
            return None
        try:
            from lucie.analysis.difficulty import Rated

            data = json.loads(self._picked)
            if not isinstance(data, dict):
                return None
            return Rated.from_json(data)
        except (ValueError, RecursionError):
            return None

    def seconds(self) -> float:
        """Time played on this game (frozen at its end)."""
        return self.clock.seconds()

    def show(self) -> None:
        """The game is shown: its clock runs while it is in play.  A shared
        game's clock is the store's: only the page's word (:meth:`seen`)
        and the changes recorded move it, not one process's."""
        if not self.shared and not self._game.outcome.finished and self.result is None:
            self.clock.start()

    def hide(self) -> None:
        """The game is no longer shown: its clock stops (a shared game's:
        see :meth:`show`)."""
        if not self.shared:
            self.clock.stop()

    def seen(self, shown: bool) -> None:
        """The page says whether it shows the game (the browser's: when
        that changes, and every minute while shown).  A shared game: one
        write accrues, in the store, the time since the page last said it
        showed the game (at most the lease), whatever process heard it
        (:meth:`~lucie.store.Store.tick_clock`), and this copy's clock
        follows the store's; :class:`NotSavedError` if it cannot be
        written.  Any other game: :meth:`show` or :meth:`hide`."""
        if not self.shared or self.store is None or self.game_id is None:
            if shown:
                self.show()
            else:
                self.hide()
            return
        try:
            stored = self.store.tick_clock(self.game_id, self._tick(shown))
        except StoreError as exc:
            raise NotSavedError(exc) from None
        if stored is not None:
            self.clock.follow(stored)

    def _clock(self, seconds: float, lease: float | None) -> Clock:
        """A clock for this game (a shared game's: told by :attr:`wall`,
        with a lease, :data:`PAGE_LEASE` if none is given)."""
        if not self.shared:
            return Clock(seconds, lease=lease)
        return Clock(seconds, lease=PAGE_LEASE if lease is None else lease,
                     now=lambda: self.wall())

    def _tick(self, shown: bool) -> Tick:
        """A write of a shared game's clock, now (:class:`~lucie.store.Tick`)."""
        lease = self.clock.lease
        return Tick(self.wall(), PAGE_LEASE if lease is None else lease, shown)

    def _new_clock(self) -> None:
        """A new game (:meth:`again`, :meth:`replace`) and its clock, which
        runs from now (the page that asked for it shows it): a shared
        game's in the store (if that cannot be written, the page's next
        word starts it)."""
        self.clock = self._clock(0.0, self.clock.lease)
        if self.shared and self.recording:
            with contextlib.suppress(NotSavedError):
                self.seen(True)

    # -- recording ---------------------------------------------------------------

    def _record(self, game: Game, mark: Mark | None = None) -> str | None:
        """Record ``game`` as the state of this session's game (with the
        fair-play ``mark`` the change makes); the result reached if it is
        over now.  Raises :class:`NotSavedError`."""
        outcome = game.outcome
        try:
            self._save(game, outcome.status if outcome.finished else None, mark)
        except StoreError as exc:
            raise NotSavedError(exc) from None
        if mark is not None:
            self.read_marks()
        if not outcome.finished:
            return None
        self.result = outcome.status
        self._release()
        return outcome.status

    def _change(self, change: Callable[[Game], T],
                mark: Mark | None = None) -> tuple[T, str | None]:
        """Make ``change`` on a copy of the game, record it, then make the
        copy the game in play; returns the change's value and the result
        the game reached (if it ended now)."""
        if not self.recording:
            was_over = self._game.outcome.finished
            value = change(self._game)
            outcome = self._game.outcome
            if outcome.finished:
                self.clock.stop()
            return value, outcome.status if outcome.finished and not was_over else None
        work = self._game.fork()
        value = change(work)
        ended = self._record(work, mark)
        self._game = work
        return value, ended

    def _to_practice(self) -> bool:
        """After a recorded result, the game goes on as practice; True if
        it just became practice."""
        if self.result is None or self.practice:
            return False
        self.practice = True
        self.clock.stop()
        return True

    # -- playing -------------------------------------------------------------------

    def play(self, move: Move, *, autoplay: bool = False) -> Outcome:
        """Play ``move`` (and, with ``autoplay``, the safe foundation moves
        after it) as one step."""
        step, ended = self._change(lambda g: g.play(move, autoplay=autoplay))
        return Outcome(step=step, ended=ended)

    def _over(self) -> str:
        status = self._game.outcome.status
        return {"won": _("the game is won"), "lost": _("no move is left"),
                "resigned": _("the game was resigned")}.get(status, _("the game is over"))

    def undo(self) -> Outcome:
        """Take back the last step; after a recorded result, the game goes
        on as practice."""
        if not self._game.can_undo:
            raise MoveError(_("nothing to undo"))
        practice = self._to_practice()
        step, _ended = self._change(lambda g: g.undo_step(), "undo")
        return Outcome(undone=step, practice=practice)

    def redo(self) -> Outcome:
        """Play the last undone step again."""
        if not self._game.can_redo:
            raise MoveError(_("nothing to redo"))
        step, ended = self._change(lambda g: g.redo_step())
        return Outcome(step=step, ended=ended)

    def restart(self) -> Outcome:
        """Back to the start of the deal; after a recorded result, a new
        game of the same deal (:meth:`again`)."""
        if self.result is not None:
            self.again()
            return Outcome(new_game=True)
        if not self._game.moves:
            return Outcome()
        self._change(lambda g: g.restart(), "replay")
        return Outcome(restarted=True)

    def resign(self) -> Outcome:
        """Give the game up: it counts as lost, for good."""
        if self._game.outcome.finished:
            raise MoveError(self._over())
        _value, ended = self._change(lambda g: g.resign())
        return Outcome(ended=ended or "resigned")

    def autoplay(self) -> Outcome:
        """Send the safe cards home as one step (nothing if none is safe)."""
        if self._game.outcome.finished:
            return Outcome()
        moves, ended = self._change(lambda g: g.autoplay())
        return Outcome(step=self._game.steps[-1] if moves else None, ended=ended)

    def send_home(self) -> Outcome:
        """Send every safe card home now, as one step.

        Where no card is strictly safe (builds going up, as in Shamrocks,
        where an ace may hold a two of another suit), the aces that can go
        home go: the player asked for it, and an ace in a fan only ever
        holds a two that could go home after it.  Each ace is a step of its
        own (with the safe cards it lets go home after it), all recorded at
        once.
        """
        outcome = self.autoplay()
        if outcome.step is not None or self._game.outcome.finished:
            return outcome

        def aces(game: Game) -> tuple[Step | None, tuple[Move, ...]]:
            step: Step | None = None
            sent: list[Move] = []
            while not game.outcome.finished:
                p = game.position
                ace = next((m for m in p.legal_moves() if _is_ace_home(p, m)), None)
                if ace is None:
                    break
                step = game.play(ace, autoplay=True)
                sent.extend(step.moves)
            return step, tuple(sent)

        (step, sent), ended = self._change(aces)
        return Outcome(step=step, ended=ended, aces=sent)

    def hopeless(self) -> bool:
        """Whether no move is left but pointless ones: every legal move
        takes a card back from a foundation (which only returns there)."""
        game = self._game
        if not game.rules.foundation_takeback:
            return False  # no take-back: such a position has no move at all
        moves = game.legal_moves
        return (not game.outcome.finished and bool(moves)
                and all(m.src_kind == "card" for m in moves)
                and not game.position.merci_available)

    # -- other games -------------------------------------------------------------

    def again(self, *, link: Link | None = None) -> None:
        """A new game of the same deal (the result of this one stays; a
        deal picked by difficulty keeps the rating it was picked by).
        ``link``: what else names this game (a browser page's token, which
        must name the new game from now on): called with the old and the
        new game's ids once the new game is recorded, before this one is
        left; if it says False (another process replaced the game first)
        the new game is discarded and nothing changes: a
        :class:`NotSavedError` of a :class:`~lucie.store.StaleGame`."""
        old = self._game
        if old.deal is not None:
            game = Game(old.rules, old.deal)
        else:
            game = Game(old.rules, position=old.start, seed=old.seed)
        self._replace(game, self._picked, "replay", link)

    def replace(self, game: Game, *, picked: Rated | None = None) -> None:
        """Leave this game (:meth:`leave`: interfaces ask first when it has
        moves) and play ``game`` from now on, recorded if this one was in
        the store (with ``picked``, the rating its deal was picked by).  The
        new game is recorded before the old one is left: if it cannot be,
        nothing changes."""
        self._replace(game, _pick_text(picked), "loaded" if game.moves else "start")

    def _replace(self, game: Game, picked: str | None, origin: Origin,
                 link: Link | None = None) -> None:
        store = self.store if self.game_id is not None else None
        new_id = None
        if store is not None:
            try:
                new_id = store.start_game(game, self.player, picked, origin)
                if origin == "start" and store.played_before(self.player, game, new_id):
                    store.mark(new_id, "replay")
            except StoreError as exc:
                raise NotSavedError(exc) from None
        try:
            if link is not None and new_id is not None and self.game_id is not None:
                self._link(link, self.game_id, new_id)
            self.leave()
        except NotSavedError:
            if store is not None and new_id is not None:
                with contextlib.suppress(StoreError):
                    store.discard(new_id)
            raise
        self._game = game
        self.game_id = new_id
        self._picked = picked
        self.result = None
        self.practice = False
        self.resumed = False
        self._new_clock()
        self.read_marks()
        if store is not None and new_id is not None and self.shared:
            self.version = store.version(new_id)
            self._settle_resumed()
        elif store is not None and new_id is not None:
            self._claimed = store.claim(new_id)
            self._sweep()
            self._settle_resumed()

    @staticmethod
    def _link(link: Link, old: int, new: int) -> None:
        """Have what names game ``old`` name game ``new`` (see :meth:`again`)."""
        try:
            linked = link(old, new)
        except StoreError as exc:
            raise NotSavedError(exc) from None
        if not linked:
            raise NotSavedError(StaleGame(_(
                "game {id} was replaced by another process meanwhile").format(id=old)))

    def leave(self) -> None:
        """The player leaves this game for another: one with moves still in
        play counts as resigned (ask first), one without a move is
        forgotten.  Its clock stops and its claim is given back.  A shared
        game is left as its stored version is (another process's move
        meanwhile: a :class:`NotSavedError` of a
        :class:`~lucie.store.StaleGame`, nothing changed: read it again)."""
        game = self._game
        if game.moves and not game.outcome.finished and not self.practice:
            self._change(lambda g: g.resign())
        elif self.recording and self.result is None and not game.moves:
            assert self.store is not None and self.game_id is not None
            try:
                gone = self.store.discard(self.game_id)
                if not gone and self.shared and self.store.version(self.game_id) != self.version:
                    # moved on elsewhere (or gone): not this copy's to forget
                    raise StaleGame(_("game {id} was changed by another process meanwhile")
                                    .format(id=self.game_id))
            except StoreError as exc:
                raise NotSavedError(exc) from None
        self.clock.stop()
        self._release()

    def save_time(self) -> None:
        """Record the time played so far on a game still in play (the moves
        are recorded as they are made).  Raises :class:`StoreError` when the
        store cannot write it; nothing else changes.  A shared game's time
        is the store's already: nothing to write."""
        if self.recording and self.result is None and not self.shared:
            self._save(self._game)

    def close(self) -> None:
        """The program stops showing this game: its time is saved and its
        claim given back; an unfinished game stays to be resumed.  A shared
        game's time is the store's (its page goes on, through another
        process perhaps): nothing is written."""
        self.clock.stop()
        if self.recording and self.result is None and not self.shared:
            # the moves are saved already: at worst the last seconds are lost
            with contextlib.suppress(StoreError):
                self._save(self._game)
        self._release()

    def _release(self) -> None:
        if self._claimed and self.store is not None and self.game_id is not None:
            self._claimed = False
            self.store.release(self.game_id)

    # -- fair play -----------------------------------------------------------

    def _mark_known_deal(self) -> None:
        """A new game of a deal the player had played before is a replay."""
        store, game_id = self.store, self.game_id
        if store is None or game_id is None:
            return
        try:
            if store.played_before(self.player, self._game, game_id):
                store.mark(game_id, "replay")
        except StoreError as exc:
            raise NotSavedError(exc) from None

    def hint_asked(self) -> None:
        """The player asks for help (a hint, the odds of the position): the
        game is marked before the help is given (:class:`NotSavedError` if
        the mark cannot be recorded: then give no help), and so is every
        other game of the same deal and variant the player still has in
        play, their loaded copies included (:meth:`Store.mark_deal
        <lucie.store.Store.mark_deal>`): help on a second game of the deal
        of the day, or on a loaded copy of it, is help on the day's game.
        A game whose result is recorded (practice) is not marked itself,
        but its help still marks the others; a game not stored marks
        nothing."""
        if self.store is None or self.game_id is None:
            return
        try:
            self.store.mark_deal(self.game_id,
                                 itself=self.recording and self.result is None)
        except StoreError as exc:
            raise NotSavedError(exc) from None
        self.read_marks()

    def read_marks(self) -> None:
        """Read the game's marks and start (:attr:`fair`, :attr:`started`)
        from the store; where they cannot be read they are not known (None),
        and nothing is claimed of them."""
        self.fair = self.started = None
        store, game_id = self.store, self.game_id
        if store is None or game_id is None:
            return
        with contextlib.suppress(StoreError):
            _version, marks, started = store.fair_play(game_id)
            if started is not None:  # (a missing game: nothing known)
                self.fair, self.started = marks, started

    def check_version(self) -> int | None:
        """The stored game's version, read to check this copy against
        (a shared game); what else another process left is learnt with it
        (:meth:`learn`)."""
        if self.store is None or self.game_id is None:
            return None
        return self.learn(self.store.checked(self.game_id))

    def learn(self, checked: Checked) -> int | None:
        """Take from the store's ``checked`` view of this game what another
        process may have changed without a new version (the marks, if the
        version is this copy's; the clock as the page's word to any process
        left it); returns the stored version."""
        if checked.version == self.version and checked.started is not None:
            self.fair, self.started = checked.marks, checked.started
        if self.shared and checked.clock is not None:
            self.clock.follow(checked.clock)
        return checked.version

    def daily_day(self) -> datetime.date | None:
        """The (UTC) date whose deal of the day this recorded game plays:
        its deal is that of the day it was started (:func:`lucie.daily.daily_date`,
        the table's own test); None for any other game, or one not recorded."""
        if self.started is None or self.game_id is None:
            return None
        return daily_date(self._game.rules, self._game.deal, self.started)

    def counts_for_daily(self) -> bool:
        """Whether the game counts for its day's table now, as the store
        has it: a deal of the day started that day, its marks clean, its
        result not yet recorded.  Help asked then (a hint, the odds, a
        review in play) ends that: the interfaces ask first."""
        return (self.result is None and self.fair is not None and self.fair.fair
                and self.daily_day() is not None)

    def marks(self) -> Marks | None:
        """The game's fair-play marks as recorded (None: not recorded)."""
        if self.store is None or self.game_id is None:
            return None
        return self.store.marks(self.game_id)

    # -- reading back (for the interfaces) -------------------------------------

    def stats(self) -> Stats:
        """The player's statistics in this game's variant."""
        assert self.store is not None
        return self.store.stats(self.player, self._game.rules)


__all__ = [
    "BUSY_TIMEOUT_MS",
    "HINT_DECLINED",
    "HINT_QUESTION",
    "PAGE_LEASE",
    "REVIEW_DECLINED",
    "REVIEW_QUESTION",
    "WAIT_UNTIL",
    "Clock",
    "Entry",
    "GameRecord",
    "History",
    "Marks",
    "NotSavedError",
    "Outcome",
    "Player",
    "PlayerRef",
    "Session",
    "StaleGame",
    "Stats",
    "Store",
    "StoreBusy",
    "StoreDown",
    "StoreError",
    "StoreFault",
    "StoreFull",
    "default_path",
    "default_player",
    "proved_lost",
    "rank_daily",
    "review_asked",
    "write_error",
]
