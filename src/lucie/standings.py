"""The deal of the day's table, as every interface shows it (``lucie
daily``, the browser's table): the ranked results (:func:`lucie.store.rank_daily`),
the player's own entry, and the deal's odds once the day is over.

The odds are those of :func:`lucie.analysis.odds.estimate_odds` from the
deal's start, worked out once and kept in the store (:meth:`Store.keep_deal_odds
<lucie.store.Store.keep_deal_odds>`) when the search finished within its
budget; a figure cut short by its budget is shown as it is (its own text
says so) and not kept, so that a later look may do better.  The word
"exact" appears only where the solver proved the figure
(:attr:`~lucie.analysis.odds.Odds.proved`).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lucie.daily import daily_deal, today
from lucie.engine import Game, status_name
from lucie.i18n import _
from lucie.rules import Rules
from lucie.store import Entry, Marks, PlayerRef, Store, rank_daily

#: Seconds the odds of a finished day's deal may take at most.
ODDS_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class DailyTable:
    """The table of one variant's deal of one day."""

    rules: Rules
    day: datetime.date
    deal: int
    entries: tuple[Entry, ...]
    #: the store's id of the player who looks (None: not known)
    me: int | None = None

    @property
    def over(self) -> bool:
        """Whether the day is over (UTC): only then are the odds shown."""
        return self.day < today()

    @property
    def mine(self) -> Entry | None:
        """The entry of the player who looks."""
        return next((e for e in self.entries if e.record.player_id == self.me), None)

    @property
    def ranked(self) -> int:
        """How many entries are ranked (fair games)."""
        return sum(1 for e in self.entries if e.rank is not None)

    def to_json(self) -> dict[str, Any]:
        """The table as ``lucie daily --json`` and ``GET /api/daily`` give it."""
        mine = self.mine
        return {
            "variant": self.rules.spec(), "variant_name": self.rules.name(),
            "date": self.day.isoformat(), "deal": self.deal, "over": self.over,
            "ranked": self.ranked,
            "entries": [entry_json(e, self.me) for e in self.entries],
            "mine": entry_json(mine, self.me) if mine is not None else None,
        }


def entry_json(entry: Entry, me: int | None) -> dict[str, Any]:
    """One entry as JSON, with the words a page shows (in the language in use)."""
    data = entry.to_json()
    data["status_text"] = status_name(entry.record.status)
    data["why_not_ranked"] = why_not_ranked(entry)
    data["mine"] = entry.record.player_id == me
    return data


def why_not_ranked(entry: Entry) -> str | None:
    """Why an entry is not ranked, in words (None for a ranked one)."""
    return marks_why(entry.marks)


def marks_why(marks: Marks) -> str | None:
    """Why a game with these fair-play marks does not count for a table, in
    words (None for a fair game)."""
    words = {"unknown": _("played before fair play was recorded"),
             "replay": _("not played from the first move"),
             "loaded": _("loaded, not played from the first move"),
             "hints": _("hints asked")}
    reasons = marks.reasons
    return "; ".join(words.get(r, r) for r in reasons) if reasons else None


def parse_day(text: str) -> datetime.date:
    """A date given as ``YYYY-MM-DD`` (or ``today``), not after today (UTC)."""
    from lucie.errors import LucieError

    if text.strip().lower() == "today":
        return today()
    try:
        day = datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise LucieError(_("{date} is not a date (YYYY-MM-DD, e.g. {example})").format(
            date=repr(text), example=today().isoformat())) from None
    if day > today():
        raise LucieError(_("{date} has not come yet: no deal of the day to show").format(
            date=day.isoformat()))
    return day


def daily_table(store: Store, rules: Rules, day: datetime.date | None = None,
                me: PlayerRef = None) -> DailyTable:
    """The table of the deal of ``day`` (default today, UTC) in ``rules``,
    seen by ``me``."""
    day = day or today()
    deal = daily_deal(rules, day)
    entries = rank_daily(store.deal_games(rules, deal), rules, day)
    return DailyTable(rules, day, deal, tuple(entries), store.player_id(me))


def odds_from_json(data: dict[str, Any]) -> Any:
    """The :class:`~lucie.analysis.odds.Odds` of its JSON (:meth:`Odds.to_json`)."""
    from lucie.analysis.odds import Odds

    low, high = data["ci95"]
    return Odds(float(data["win_rate"] or 0.0), (float(low), float(high)),
                int(data["samples"]), None if data["mean_score"] is None
                else float(data["mean_score"]), bool(data["budget_ran_out"]),
                int(data["searches"]), int(data["searches_cut"]))


def kept_odds(store: Store, table: DailyTable) -> dict[str, Any] | None:
    """The deal's odds kept in the store, as JSON with its text in the
    language in use; None if none is kept or the day is not over."""
    if not table.over:
        return None
    text = store.deal_odds(table.rules, table.deal)
    if text is None:
        return None
    try:
        data: dict[str, Any] = odds_from_json(json.loads(text)).to_json()
    except (ValueError, KeyError, TypeError):
        return None  # damaged: worked out again
    return data


def keep_odds(store: Store, table: DailyTable, data: dict[str, Any]) -> None:
    """Keep odds just worked out (JSON), if the search finished in its budget."""
    if data.get("budget_ran_out") or not table.over:
        return
    store.keep_deal_odds(table.rules, table.deal, json.dumps(
        {k: data[k] for k in ("win_rate", "ci95", "samples", "mean_score", "budget_ran_out",
                              "searches", "searches_cut")}))


def table_odds(store: Store, table: DailyTable,
               work: Callable[[Game], dict[str, Any] | None]) -> dict[str, Any] | None:
    """The deal's odds once the day is over: kept ones, else ``work``'s
    (the odds' JSON of the deal's start, None: not worked out), kept when
    they are complete."""
    if not table.over:
        return None
    found = kept_odds(store, table)
    if found is None:
        found = work(Game(table.rules, table.deal))
        if found is not None:
            keep_odds(store, table, found)
    return found


__all__ = ["ODDS_SECONDS", "DailyTable", "challenge_game", "challenge_join", "challenge_open",
           "challenge_saved", "challenge_view", "daily_table", "entry_json", "keep_odds",
           "kept_odds", "marks_why", "odds_from_json", "parse_day", "table_odds", "why_not_ranked"]


# -- challenges: the same deal for a friend ----------------------------------


def challenge_open(store: Store, token: str, game_id: int) -> None:
    """A challenge known by its link's ``token`` to the deal of the stored
    game ``game_id`` (whose player is the challenger: the caller checks that
    the game is the request's player's, and over)."""
    store.new_challenge(token, game_id)


def challenge_join(store: Store, token: str, me: PlayerRef, game_id: int) -> int:
    """Game ``game_id`` (``me``'s new game of the deal) becomes ``me``'s in
    challenge ``token``: a player has one game a challenge, the first one
    recorded (returned: another than ``game_id`` if another request of the
    player got there first)."""
    return store.join_challenge(token, me, game_id)


def challenge_game(store: Store, token: str) -> Game | None:
    """A new game of the challenge's deal (its variant and deal number, or
    the layout of a game from a layout); None if there is no such challenge."""
    found = store.challenge(token)
    if found is None:
        return None
    old = store.game(found[0])
    if old.deal is not None:
        return Game(old.rules, old.deal)
    return Game(old.rules, position=old.start, seed=old.seed)


def challenge_view(store: Store, token: str, me: PlayerRef) -> dict[str, Any] | None:
    """The challenge as its players see it: the challenger's game first,
    then each friend's (result, score, moves, time, fair-play marks, read
    from the store: never from a request); ``can_play`` for a player who
    has no game in it yet, ``reviews_open`` once the player's own game in
    it is over.  None if there is no such challenge."""
    from lucie.store import FINISHED, StoreError

    found = store.challenge(token)
    if found is None:
        return None
    first, joined = found
    pid = store.player_id(me)
    entries: list[dict[str, Any]] = []
    for index, gid in enumerate([first, *joined.values()], 1):
        try:
            record = store.record(gid)
        except StoreError:
            continue  # a game gone (its player deleted) or damaged
        data = entry_json(Entry(None, record, store.marks(gid)), pid)
        data.update(index=index, challenger=index == 1, over=record.status in FINISHED)
        del data["rank"]
        entries.append(data)
    mine = next((e for e in entries if e["mine"]), None)
    record0 = store.record(first)
    rules = Rules.parse(record0.variant)
    return {"token": token, "variant": rules.spec(), "variant_name": rules.name(),
            # (as text, as every deal number the page gets: they may pass 2**53)
            "deal": None if record0.deal is None else str(record0.deal), "entries": entries,
            "can_play": mine is None,
            "reviews_open": mine is not None and bool(mine["over"])}


def challenge_saved(store: Store, token: str, index: int,
                    me: PlayerRef) -> tuple[int, str] | None:
    """The store's id and saved game (lucie JSON) of entry ``index`` (1:
    the challenger's) of the
    challenge, for its review: only for a player whose own game in it is over, and only
    of a game that is over; None otherwise."""
    from lucie.formats import save_game
    from lucie.store import FINISHED

    view = challenge_view(store, token, me)
    if view is None or not view["reviews_open"]:
        return None
    entry = next((e for e in view["entries"] if e["index"] == index), None)
    if entry is None or entry["status"] not in FINISHED:
        return None
    game_id = int(entry["game_id"])
    return game_id, save_game(store.game(game_id))
