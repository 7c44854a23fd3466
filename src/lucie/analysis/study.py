"""Studies: play many random numbered deals with a policy and measure it.

``lucie study --variant V --games N`` draws N deal numbers from a seed and
plays each one as a real game (:class:`lucie.engine.Game` with that deal
number, so the deal **and its redeals are exactly PySolFC's**), with one of
two policies:

``optimal``
    in each deal, solve it exactly (:func:`lucie.solver.solve_deal`),
    stop at the reachable foundation state whose next *random* deal is worth
    most by the cached values of :mod:`lucie.analysis.odds` (the player does
    not know how the redeal will fall), play the line there, redeal; in the
    last deal, win if the deal can be cleared, else reach the best score.
``hint``
    play the move :func:`lucie.analysis.hints.hint` suggests, one at a time.

The win rate is then the fraction of real games won, with its Wilson 95%
interval: an honest measure of the policy, and (the policy being one a real
player could follow) a lower bound on the optimal win rate up to that
interval.  Each game also records whether its first deal could be cleared
without any redeal (the solver's verdict on deal 1).

Games run on every core by default (``concurrent.futures`` processes), or on
a Dask cluster (``scheduler=ADDRESS``); the value cache is shared through
its SQLite file, each worker adding only its own samples.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from lucie.analysis.cache import ValueCache
from lucie.analysis.checkpoint import Row, Saved, Writer, settings_differ
from lucie.analysis.checkpoint import read as read_checkpoint
from lucie.analysis.odds import DEFAULT_TARGET, Evaluator, Stop, check_rules, wilson
from lucie.deals import lay_out, shuffled_deck
from lucie.engine import REDEAL, Game, Position
from lucie.errors import LucieError
from lucie.i18n import _, format_number, format_percent, ngettext, pgettext
from lucie.rules import Rules

POLICIES: Final = ("optimal", "hint")
#: Largest deal number drawn (as :func:`lucie.deals.random_deal_number`).
MAX_DRAWN: Final = 999_999_999
#: Safety cap on the moves of one hint-policy game (the solver's lines can
#: be long: a Shamrocks win of over 1,000 moves is not rare).
MAX_HINT_MOVES: Final = 20_000


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One played game: deal number, won, final score, and whether the
    first deal could be cleared without a redeal (None if undecided).

    ``unknown``: searches that ran out of budget before deciding where to
    stop or whether the last deal could be won (the game may then have
    been lost though winnable); ``score_capped``: last-deal searches that
    proved the deal lost but ran out before finding its best score (the
    score is then a lower bound).  With the hint policy ``unknown`` counts
    the hints whose search or sampling ran out of time."""

    deal: int
    won: bool
    score: int
    first_deal_clear: bool | None
    unknown: int = 0
    score_capped: int = 0


@dataclass(slots=True)
class StudyResult:
    """What a study measured (see :meth:`to_json`)."""

    rules: Rules
    policy: str
    seed: int
    records: list[GameRecord]
    seconds: float
    jobs: int
    target: int = DEFAULT_TARGET
    extra: dict[str, Any] = field(default_factory=dict)
    #: why the study stopped before its last game ("interrupted", "time
    #: limit"), None when it played them all
    stopped: str | None = None
    #: the games it was to play (None: as many as it played)
    planned: int | None = None
    #: the games read back from the checkpoint, not played by this run
    resumed: int = 0
    checkpoint: str | None = None

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.records)

    @property
    def scores(self) -> dict[int, int]:
        return dict(sorted(Counter(r.score for r in self.records).items()))

    def to_json(self) -> dict[str, Any]:
        n = self.games
        wins = self.wins
        cleared = sum(r.first_deal_clear is True for r in self.records)
        undecided = sum(r.first_deal_clear is None for r in self.records)
        low, high = wilson(wins, n)
        # An undecided first deal may or may not clear: the rate counts it
        # as not (a lower bound) and the interval reaches from the low end
        # of "none of them clears" to the high end of "all of them do".
        clow = wilson(cleared, n)[0]
        chigh = wilson(cleared + undecided, n)[1]
        return {
            "variant": self.rules.spec(),
            "title": self.rules.name(),
            "policy": self.policy,
            "seed": self.seed,
            "games": n,
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "ci95": [low, high],
            "mean_score": sum(r.score for r in self.records) / n if n else 0.0,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(n / self.seconds, 2) if self.seconds > 0 else None,
            "jobs": self.jobs,
            "scores": {str(k): v for k, v in self.scores.items()},
            "first_deal_cleared": cleared,
            "first_deal_undecided": undecided,
            "first_deal_clear_rate": cleared / n if n else None,
            "first_deal_clear_ci95": [clow, chigh],
            "unknown_searches": sum(r.unknown for r in self.records),
            "score_capped_searches": sum(r.score_capped for r in self.records),
            "value_samples_per_state": self.target,
            "redeals": "PySolFC-exact (the redeals of each numbered deal)",
            "partial": self.stopped is not None,
            "stopped": self.stopped,
            "games_planned": self.planned if self.planned is not None else n,
            "games_resumed": self.resumed,
            "checkpoint": self.checkpoint,
            **self.extra,
        }


def draw_deals(seed: int, games: int) -> list[int]:
    """The deal numbers of a study: ``games`` numbers drawn from ``seed``.

    >>> draw_deals(1, 3) == draw_deals(1, 3), len(set(draw_deals(5, 50)))
    (True, 50)
    """
    rng = random.Random(seed)
    return [rng.randint(1, MAX_DRAWN) for _game in range(games)]


# ---------------------------------------------------------------------------
# one game
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    first: bool | None = None
    deals: int = 0
    unknown: int = 0
    score_capped: int = 0


def _choose(ev: Evaluator, position: Position, tally: _Tally) -> Stop:
    """Where the policy stops in this deal.  In a last deal searched under
    a time budget, or with the merci to come (the slow case), the win is
    decided first by the fastest exact verdict (``frontier=False``); only a
    lost deal is then searched for its best score, so a budget that runs
    out there costs score, never a win.  (Without either, the best-score
    search alone is exact and quicker.)  In any other deal a frontier
    search cut short by a budget is followed by the verdict, which may
    still settle the deal at once (a loss proved at the first position, a
    win the fastest search finds): a budget never hides a verdict."""
    verdict_first = position.redeals_left == 0 and (
        position.merci_available or ev.solve_seconds is not None
    )
    verdict = ev.verdict(position) if verdict_first else None
    result = verdict if verdict is not None and verdict.status == "solved" \
        else ev.solve(position)
    if verdict is None and result.status == "unknown":
        verdict = ev.verdict(position)
        if verdict.status == "solved":
            result = verdict  # the win found: the stop to play
    decided = verdict if verdict is not None else result  # the search that decides a win
    if tally.deals == 0:
        tally.first = None if decided.status == "unknown" else decided.status == "solved"
    tally.deals += 1
    if result.status != "solved":
        # with redeals to come, where to stop rests on the whole frontier:
        # a cut frontier may have cost the game even when the verdict is known
        if decided.status == "unknown" or (
                result.status == "unknown" and position.redeals_left > 0):
            tally.unknown += 1
        elif result.status == "unknown":
            tally.score_capped += 1
    return ev.choose(position, result)


def play_optimal(rules: Rules, deal: int, ev: Evaluator) -> GameRecord:
    """Play deal ``deal`` with the optimal-by-values policy (module doc).

    The deal and each redeal come from the engine (:func:`shuffled_deck`,
    :func:`lay_out`, :meth:`Position.redeal` with the deal's own generator,
    as :class:`Game` does); within a deal the chosen line is played by
    :meth:`~lucie.analysis.odds.Stop.reached` instead of one engine move at a
    time (the tests check that both give the same game).
    """
    deck, shuffler = shuffled_deck(deal)
    fans, foundations = lay_out(rules, deck)
    position = Position.start(rules, fans, foundations)
    tally = _Tally()
    while not position.is_won:
        position = _choose(ev, position, tally).reached()
        if position.is_won or position.redeals_left == 0:
            break
        position = position.redeal(shuffler)
    return GameRecord(deal, position.is_won, position.score, tally.first, tally.unknown,
                      tally.score_capped)


def play_optimal_checked(rules: Rules, deal: int, ev: Evaluator) -> GameRecord:
    """:func:`play_optimal` through a :class:`Game`, every move checked by
    the engine (slower; the tests compare the two)."""
    game = Game(rules, deal)
    tally = _Tally()
    while not game.position.is_won:
        game.push_all(_choose(ev, game.position, tally).moves)
        if game.position.is_won or game.position.redeals_left == 0:
            break
        game.push(REDEAL)
    return GameRecord(deal, game.position.is_won, game.position.score, tally.first,
                      tally.unknown, tally.score_capped)


def play_hint(rules: Rules, deal: int, cache: ValueCache, seconds: float) -> GameRecord:
    """Play deal ``deal`` move by move as :func:`~lucie.analysis.hints.hint` says.

    Whether the first deal could have been cleared is a fact of its own when
    redeals follow: the first hint's search says it (:attr:`~lucie.analysis.hints.Hint.clears`:
    a win found, none proved, or undecided when its budget ran out), so no
    search runs for it alone.  With no redeal the first deal is the game,
    and the policy's own result says it.
    """
    from lucie.analysis.hints import hint

    game = Game(rules, deal)
    first: bool | None = None
    cut_short = 0
    for count in range(MAX_HINT_MOVES):
        advice = hint(game.position, max_seconds=seconds, cache=cache, seed=deal)
        if count == 0:
            first = advice.clears
        cut_short += advice.budget_ran_out
        if advice.move is None:
            break
        game.push(advice.move)
    won = game.position.is_won
    return GameRecord(deal, won, game.position.score, won if rules.redeals == 0 else first,
                      cut_short)


# ---------------------------------------------------------------------------
# chunks of games (run in worker processes or on Dask workers)
# ---------------------------------------------------------------------------

_WORKER_CACHES: dict[str, ValueCache] = {}


def _worker_cache(path: str | None) -> ValueCache:
    key = path or ":memory:"
    cache = _WORKER_CACHES.get(key)
    if cache is None:
        cache = _WORKER_CACHES[key] = ValueCache(path)
    return cache


def run_chunk(
    spec: str, deals: Sequence[int], policy: str, cache_path: str | None,
    target: int, hint_seconds: float, solve_seconds: float | None = None,
    sample_seconds: float | None = None,
) -> list[GameRecord]:
    """Play some deals; module-level so that it pickles for worker processes
    and Dask."""
    rules = Rules.parse(spec)
    cache = _worker_cache(cache_path)
    records: list[GameRecord] = []
    rng = random.Random(deals[0] if deals else 0)
    ev = Evaluator(rules, cache, rng=rng, target=target, solve_seconds=solve_seconds,
                   sample_seconds=sample_seconds)
    for deal in deals:
        if policy == "hint":
            records.append(play_hint(rules, deal, cache, hint_seconds))
        else:
            records.append(play_optimal(rules, deal, ev))
    cache.flush()
    return records


def _chunks(deals: Sequence[int], size: int) -> Iterator[list[int]]:
    for i in range(0, len(deals), size):
        yield list(deals[i:i + size])


def _progress_bar(games: int, desc: str, initial: int = 0) -> Any:
    """A tqdm bar on stderr (None without tqdm)."""
    try:
        from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # pragma: no cover - tqdm is in the study extra
        return None
    return tqdm(total=games, initial=initial, unit="game", desc=desc, file=sys.stderr)


def _ignore_sigint() -> None:  # pragma: no cover - runs in the workers
    """Workers leave Ctrl+C (sent to the whole process group) to the study,
    which stops them itself: no traceback from each of them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _OutOfTimeError(Exception):
    """The study's time limit was reached."""


@dataclass(slots=True)
class _Run:
    """The state of a running study: the records by chunk, the checkpoint,
    the progress shown."""

    games: int
    chunks: list[list[int]]
    done: dict[int, list[GameRecord]]
    writer: Writer | None = None
    bar: Any = None
    progress_seconds: float | None = None
    on_chunk: Callable[[int], None] | None = None
    start: float = field(default_factory=time.monotonic)
    shown: float = field(default_factory=time.monotonic)
    deadline: float | None = None
    #: the time of the runs before this one (from the checkpoint)
    before: float = 0.0

    @property
    def seconds(self) -> float:
        return self.before + time.monotonic() - self.start

    @property
    def count(self) -> int:
        return sum(len(r) for r in self.done.values())

    def add(self, index: int, batch: list[GameRecord]) -> None:
        """Keep one chunk's games: in the checkpoint first (nothing played is
        lost), then in the report and the progress shown."""
        if self.writer is not None:
            self.writer.add(index, [_row(r) for r in batch], self.seconds)
        self.done[index] = batch
        if self.bar is not None:
            self.bar.update(len(batch))
        elif self.progress_seconds is not None:
            now = time.monotonic()
            if now - self.shown >= self.progress_seconds:
                self.shown = now
                self._line()
        if self.on_chunk is not None:
            self.on_chunk(self.count)

    def _line(self) -> None:
        count = self.count
        wins = sum(r.won for rows in self.done.values() for r in rows)
        low, high = wilson(wins, count)
        print(_("study: {done} of {games} games, {wins} won ({rate}, 95% CI "
                "{low} to {high}), {minutes} min").format(
            done=count, games=self.games, wins=wins,
            rate=format_percent(wins / max(count, 1), 1), low=format_percent(low, 1),
            high=format_percent(high, 1), minutes=format_number(self.seconds / 60, 1)),
            file=sys.stderr, flush=True)

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise _OutOfTimeError
        return left

    def records(self) -> list[GameRecord]:
        return [r for index in sorted(self.done) for r in self.done[index]]


def _row(record: GameRecord) -> Row:
    return (record.deal, record.won, record.score, record.first_deal_clear, record.unknown,
            record.score_capped)


def _play(run: _Run, spec: str, args: tuple[Any, ...], n_jobs: int,
          scheduler: str | None) -> None:
    """Play the chunks not done yet, in this process, in worker processes or
    on Dask; stops at the time limit (:class:`_OutOfTimeError`) or on Ctrl+C
    (:class:`KeyboardInterrupt`), the worker processes then ended at once."""
    todo = [(i, part) for i, part in enumerate(run.chunks) if i not in run.done]
    if scheduler is not None:
        _run_dask(scheduler, spec, todo, args, run)
    elif n_jobs == 1 and run.deadline is None:
        for index, part in todo:
            run.add(index, run_chunk(spec, part, *args))
    else:
        _run_pool(run, spec, todo, args, n_jobs)


def _run_pool(run: _Run, spec: str, todo: list[tuple[int, list[int]]],
              args: tuple[Any, ...], n_jobs: int) -> None:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=n_jobs, initializer=_ignore_sigint)
    finished = False
    try:
        futures = {pool.submit(run_chunk, spec, part, *args): index for index, part in todo}
        pending = set(futures)
        while pending:
            ready, pending = wait(pending, timeout=run.remaining(),
                                  return_when=FIRST_COMPLETED)
            for future in ready:
                try:
                    run.add(futures[future], future.result())
                except BrokenProcessPool:
                    raise _worker_died(run.count, run.games) from None
            run.remaining()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            # stop now: the chunks in play are lost (they are not in the
            # checkpoint), the games done are kept
            workers = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()
            for process in workers:
                process.join(5)


def run_study(
    rules: Rules,
    games: int,
    *,
    seed: int | None = None,
    jobs: int | None = None,
    policy: str = "optimal",
    cache_path: str | Path | None = None,
    scheduler: str | None = None,
    target: int = DEFAULT_TARGET,
    hint_seconds: float = 2.0,
    solve_seconds: float | None = None,
    sample_seconds: float | None = None,
    chunk: int | None = None,
    progress: bool | None = None,
    on_chunk: Callable[[int], None] | None = None,
    checkpoint: str | Path | None = None,
    resume: bool = False,
    time_limit: float | None = None,
    progress_seconds: float | None = None,
) -> StudyResult:
    """Play ``games`` random deals with ``policy`` and measure it.

    ``jobs``: worker processes (default: every core; 1 runs in this
    process); ``scheduler``: a Dask scheduler address instead;
    ``cache_path``: the value cache file (None: memory only, per worker);
    ``solve_seconds``: a time budget per one-deal search (None: none; a
    search that runs out counts as ``unknown`` and plays the best line it
    found); ``sample_seconds``: the same for the searches that sample
    values (see :class:`~lucie.analysis.odds.Evaluator`); ``progress``: a
    tqdm bar (default: only when stderr is a terminal), else, with
    ``progress_seconds``, a line on stderr at most that often.

    ``checkpoint``: a file where each chunk of games played is kept as it
    finishes (:mod:`lucie.analysis.checkpoint`); with ``resume`` the games
    it holds are not played again (``seed`` None: the checkpoint's) and the
    result is the one an uninterrupted study gets; without, a checkpoint of
    an unfinished study there is an error.  ``time_limit`` (seconds) or
    Ctrl+C (:class:`KeyboardInterrupt`, which the command line also raises
    for SIGTERM) stop the study at once with what it has: a result with
    :attr:`StudyResult.stopped` set.
    """
    _check_args(games, policy, jobs)
    check_rules(rules)
    path = Path(checkpoint).expanduser() if checkpoint is not None else None
    saved = read_checkpoint(path) if path is not None else None
    if seed is None:
        seed = int(saved.header["seed"]) if resume and saved is not None else \
            random.SystemRandom().randint(1, MAX_DRAWN)
    deals = draw_deals(seed, games)
    n_jobs = jobs or os.cpu_count() or 1
    size = chunk or max(1, min(25, games // (n_jobs * 4) or 1))
    spec = rules.spec()
    identity = _identity(spec, policy, seed, games, target, hint_seconds, solve_seconds,
                         sample_seconds)
    done: dict[int, list[GameRecord]] = {}
    if saved is not None:
        size, done = _resumed(path, saved, identity, deals, resume, size)
    run = _Run(games, list(_chunks(deals, size)), done, on_chunk=on_chunk,
               progress_seconds=progress_seconds,
               before=saved.seconds if saved is not None and done else 0.0)
    if path is not None:
        run.writer = Writer(path, saved if done else None, {**identity, "chunk": size})
    if time_limit is not None:
        run.deadline = run.start + time_limit
    show = sys.stderr.isatty() if progress is None else progress
    if show:
        run.bar = _progress_bar(games, f"{spec} ({policy})", run.count)
    resumed = run.count
    args = (policy, str(cache_path) if cache_path is not None else None, target,
            hint_seconds, solve_seconds, sample_seconds)
    stopped = _play_until_stopped(run, spec, args, n_jobs, scheduler)
    if stopped is not None and path is not None:
        # stopped at any point, even between writing a chunk and counting
        # it: the report is what the checkpoint holds, no more, no less
        kept = read_checkpoint(path)
        if kept is not None:
            run.done = {i: [GameRecord(*row) for row in rows] for i, rows in kept.chunks.items()}
    result = _result(rules, policy, seed, run, hint_seconds, solve_seconds, sample_seconds,
                     target, 0 if scheduler is not None else n_jobs)
    result.stopped, result.planned, result.resumed = stopped, games, resumed
    result.checkpoint = str(path) if path is not None else None
    return result


def _identity(
    spec: str, policy: str, seed: int, games: int, target: int, hint_seconds: float,
    solve_seconds: float | None, sample_seconds: float | None,
) -> dict[str, Any]:
    """The settings a checkpoint is kept with (a resumed study must have
    the same): each policy's budgets, None for the other policy's."""
    optimal = policy == "optimal"
    return {"variant": spec, "policy": policy, "seed": seed, "games": games,
            "target": target, "hint_seconds": hint_seconds if policy == "hint" else None,
            "solve_seconds": solve_seconds if optimal else None,
            "sample_seconds": sample_seconds if optimal else None}


def _play_until_stopped(
    run: _Run, spec: str, args: tuple[Any, ...], n_jobs: int, scheduler: str | None,
) -> str | None:
    """Play the study's chunks (:func:`_play`); what stopped it before the
    end ("time limit" or "interrupted"), or None.  The progress bar and the
    checkpoint are closed either way."""
    try:
        _play(run, spec, args, n_jobs, scheduler)
    except _OutOfTimeError:
        return "time limit"
    except KeyboardInterrupt:
        return "interrupted"
    finally:
        if run.bar is not None:
            run.bar.close()
        if run.writer is not None:
            run.writer.close()
    return None


def _check_args(games: int, policy: str, jobs: int | None) -> None:
    if games < 1:
        raise LucieError(_("games={games}: at least one game is needed").format(games=games))
    if policy not in POLICIES:
        raise LucieError(_("unknown policy {policy} (known: {known})").format(
            policy=repr(policy), known=", ".join(POLICIES)))
    if jobs is not None and jobs < 1:
        raise LucieError(_("jobs={jobs}: at least one job is needed").format(jobs=jobs))


def _resumed(
    path: Path | None, saved: Saved, identity: dict[str, Any], deals: list[int], resume: bool,
    size: int,
) -> tuple[int, dict[int, list[GameRecord]]]:
    """The chunk size and the games of a checkpoint found where a study is
    to write one (``size`` and none when a new study replaces a finished
    one); an error when it is another study's or not to be resumed."""
    if not resume:
        if saved.finished or not saved.chunks:
            return size, {}  # (replaced: its study was reported, or had no game yet)
        raise LucieError(_(
            "{file} holds an unfinished study ({done} of {games} games of {variant}, seed "
            "{seed}): add --resume to go on with it, or give another file with --checkpoint"
        ).format(file=path, done=saved.games_done, games=saved.header["games"],
                 variant=saved.header["variant"], seed=saved.header["seed"]))
    differ = settings_differ(saved.header, identity)
    if differ:
        raise LucieError(_("{file} is the checkpoint of another study ({differences}); it is "
                           "left as it is").format(file=path, differences="; ".join(differ)))
    size = int(saved.header["chunk"])
    chunks = list(_chunks(deals, max(1, size)))
    done: dict[int, list[GameRecord]] = {}
    for index, rows in saved.chunks.items():
        if not 0 <= index < len(chunks) or [r[0] for r in rows] != chunks[index]:
            raise LucieError(_("{file} is damaged: its chunk {index} is not the study's "
                               "deals; it is left as it is").format(file=path, index=index))
        done[index] = [GameRecord(*row) for row in rows]
    return size, done


def _result(
    rules: Rules, policy: str, seed: int, run: _Run, hint_seconds: float,
    solve_seconds: float | None, sample_seconds: float | None, target: int, jobs: int,
) -> StudyResult:
    seconds = run.seconds
    if policy == "hint":
        from lucie.analysis.hints import HINT_TARGET

        # the hints sample their own target and have their own budget
        result = StudyResult(rules, policy, seed, run.records(), seconds, jobs, HINT_TARGET)
        result.extra["hint_seconds"] = hint_seconds
    else:
        result = StudyResult(rules, policy, seed, run.records(), seconds, jobs, target)
        result.extra["solve_seconds"] = solve_seconds
        result.extra["sample_seconds"] = sample_seconds
    return result


def _worker_died(done: int, games: int) -> LucieError:
    """The error of a study whose worker process died."""
    return LucieError(ngettext(
        "a worker process died after {done} of {count} game "
        "(most likely out of memory in a long one-deal search); "
        "cap the searches with smaller solve_seconds / sample_seconds "
        "(--solve-seconds, --sample-seconds)",
        "a worker process died after {done} of {count} games "
        "(most likely out of memory in a long one-deal search); "
        "cap the searches with smaller solve_seconds / sample_seconds "
        "(--solve-seconds, --sample-seconds)", games,
    ).format(done=done, count=games))


def _run_dask(
    address: str, spec: str, todo: list[tuple[int, list[int]]], args: tuple[Any, ...],
    run: _Run,
) -> None:
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise LucieError(
            _("--scheduler needs dask[distributed] (pip install 'lucie[study]')")
        ) from None
    try:
        client = Client(address, timeout=20)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise LucieError(_("cannot reach the Dask scheduler at {address}: {error}").format(
            address=address, error=exc)) from None
    try:
        chunks = [part for _index, part in todo]
        futures = client.map(
            run_chunk, [spec] * len(chunks), chunks,
            *[[a] * len(chunks) for a in args], pure=False,
        )
        index = {future.key: i for (i, _part), future in zip(todo, futures, strict=True)}
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            run.add(index[future.key], future.result())
            run.remaining()  # (the time limit is looked at as each chunk ends)
    finally:
        client.close()  # type: ignore[no-untyped-call]


def plot_scores(result: StudyResult, path: str | Path) -> None:
    """Write a bar chart of the score distribution as a PNG (Agg backend)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise LucieError(_("--plot needs matplotlib (pip install 'lucie[study]')")) from None
    data = result.to_json()
    scores = result.scores
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.bar(list(scores), list(scores.values()), width=0.9, color="#3a6ea5")
    ax.set_xlabel(_("final score (cards on the foundations)"))
    ax.set_ylabel(pgettext("chart axis", "games"))
    low, high = data["ci95"]
    ax.set_title(
        _("{variant}, {policy} policy: {wins}/{games} won ({rate}, 95% CI {low} to {high})")
        .format(
            variant=result.rules.name(), policy=result.policy, wins=data["wins"],
            games=data["games"], rate=format_percent(data["win_rate"], 1),
            low=format_percent(low, 1), high=format_percent(high, 1)),
        fontsize=10,
    )
    ax.set_xlim(-0.5, 52.5)
    fig.tight_layout()
    try:
        fig.savefig(path, format="png", dpi=100)
    except OSError as exc:
        raise LucieError(_("{path}: cannot write the plot ({error})").format(
            path=path, error=exc.strerror)) from None
    finally:
        plt.close(fig)
