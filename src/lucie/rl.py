"""A Gymnasium environment for reinforcement learning on La Belle Lucie.

Needs the ``rl`` extra (``pip install 'lucie[rl]'``).  The environment asks
the engine for legal moves and applies them through :class:`lucie.Game`;
it knows no rule of its own.

Actions are fixed integer ids, the same for every position of a variant
(declared once by :class:`ActionSpace`, as OpenSpiel games do):

==========================  =====================================
ids                         move
==========================  =====================================
0                           redeal ``R``
1 .. F                      fan i to the foundation (``c>f``)
then F*F                    fan i onto fan j (``c>g``)
then F*C                    fan i to cell c (``c>1``)
then C                      cell c to the foundation (``1>f``)
then C*F                    cell c onto fan j (``1>g``)
then 52*F                   card k onto fan j (merci ``7H>g`` or take-back)
==========================  =====================================

``info["action_mask"]`` (and :meth:`LucieEnv.action_masks`) marks the legal
ids.  An action is played by :meth:`lucie.engine.Game.play` (with the
engine's autoplay when ``autoplay=True``).  An illegal action changes
nothing, gives ``illegal_penalty`` (0 by default) and says why in
``info["illegal"]``.  The reward is the change in
score (cards on the foundations), so an episode's return is the number
of cards it sent home.

>>> env = LucieEnv("classic")
>>> obs, info = env.reset(options={"deal": 1})
>>> [env.actions.move(int(a)) for a in info["action_mask"].nonzero()[0]][:3]
[Move.parse('R'), Move.parse('b>e'), Move.parse('f>i')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from lucie.cards import DECK
from lucie.deals import MAX_DEAL
from lucie.engine import Game, Move
from lucie.errors import MoveError
from lucie.rules import Rules
from lucie.text import render

ENV_ID: Final = "lucie/LaBelleLucie-v0"

Obs = dict[str, Any]


@dataclass(frozen=True)
class ActionSpace:
    """The fixed numbering of moves for ``fans`` fans and ``cells`` cells."""

    fans: int
    cells: int

    @property
    def size(self) -> int:
        f, c = self.fans, self.cells
        return 1 + f + f * f + f * c + c + c * f + 52 * f

    def move(self, action: int) -> Move:
        """The move of an action id (raises ``ValueError`` if out of range)."""
        f, c = self.fans, self.cells
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is not in 0..{self.size - 1}")
        if action == 0:
            return Move.redeal()
        a = action - 1
        if a < f:
            return Move.to_foundation(a)
        a -= f
        if a < f * f:
            return Move.build(a // f, a % f)
        a -= f * f
        if a < f * c:
            return Move.to_cell(a // c, a % c)
        a -= f * c
        if a < c:
            return Move.from_cell(a, None)
        a -= c
        if a < c * f:
            return Move.from_cell(a // f, a % f)
        a -= c * f
        return Move.card_to_fan(DECK[a // f], a % f)

    def index(self, move: Move) -> int:
        """The action id of a move."""
        f, c = self.fans, self.cells
        if move.is_redeal:
            return 0
        base = 1
        if move.src_kind == "fan" and move.dst_kind == "foundation":
            return base + move.src
        base += f
        if move.src_kind == "fan" and move.dst_kind == "fan":
            return base + move.src * f + move.dst
        base += f * f
        if move.src_kind == "fan" and move.dst_kind == "cell":
            return base + move.src * c + move.dst
        base += f * c
        if move.src_kind == "cell" and move.dst_kind == "foundation":
            return base + move.src
        base += c
        if move.src_kind == "cell" and move.dst_kind == "fan":
            return base + move.src * f + move.dst
        base += c * f
        return base + move.src * f + move.dst


class LucieEnv(gym.Env[Obs, int]):
    """La Belle Lucie (any variant) as a Gymnasium environment.

    ``variant``: a rules spec (``"classic"``, ``"trefoil,merci=on"`` ...).
    ``reset(seed=...)`` draws a deal number from the environment's random
    generator; ``reset(options={"deal": N})`` plays deal N (PySolFC's).

    Observation (a dict):

    - ``cards``: for each of the 52 cards (lucie's order, clubs A..K first),
      ``[place, depth]``: place 0 = foundation, 1..F = fan, F+1..F+C = cell;
      depth = cards above it in its fan (0 = the top);
    - ``redeals_left``, ``merci_available`` (0/1).

    ``autoplay=True``: after each action the engine sends the safe cards
    home too (:meth:`lucie.engine.Game.play`), and the reward counts them.
    ``info["moves"]`` lists the moves an action made.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's API)

    def __init__(self, variant: str = "classic", *, max_steps: int = 1000,
                 illegal_penalty: float = 0.0, autoplay: bool = False,
                 render_mode: str | None = None) -> None:
        self.rules = Rules.parse(variant)
        self.autoplay = autoplay
        self.actions = ActionSpace(self.rules.num_fans, self.rules.cells)
        self.max_steps = max_steps
        self.illegal_penalty = illegal_penalty
        self.render_mode = render_mode
        places = 1 + self.rules.num_fans + self.rules.cells
        # Discrete samples numpy integers; step() accepts any int-like
        self.action_space = spaces.Discrete(self.actions.size)  # type: ignore[assignment]
        self.observation_space = spaces.Dict({
            "cards": spaces.Box(
                low=0, high=np.array([[places - 1, 51]] * 52), shape=(52, 2), dtype=np.int16
            ),
            "redeals_left": spaces.Discrete(self.rules.redeals + 1),
            "merci_available": spaces.Discrete(2),
        })
        self.game = Game(self.rules, 1)
        self._steps = 0

    # -- Gymnasium API ------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        deal = (options or {}).get("deal")
        if deal is None:
            deal = int(self.np_random.integers(1, min(MAX_DEAL, 2**62)))
        self.game = Game(self.rules, int(deal))
        self._steps = 0
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        move = self.actions.move(int(action))
        self._steps += 1
        truncated = self._steps >= self.max_steps
        before = self.game.score
        try:
            step = self.game.play(move, autoplay=self.autoplay)
        except MoveError as exc:
            info = self._info()
            info["illegal"] = str(exc)
            return self._obs(), self.illegal_penalty, False, truncated, info
        reward = float(self.game.score - before)
        terminated = self.game.outcome.finished
        info = self._info()
        info["moves"] = [str(m) for m in step.moves]
        return self._obs(), reward, terminated, truncated and not terminated, info

    def render(self) -> str | None:
        return render(self.game)

    # -- helpers ------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.int8]:
        """1 for each legal action id, 0 elsewhere."""
        mask = np.zeros(self.actions.size, dtype=np.int8)
        for move in self.game.position.legal_moves():
            mask[self.actions.index(move)] = 1
        return mask

    def _obs(self) -> Obs:
        p = self.game.position
        cards = np.zeros((52, 2), dtype=np.int16)
        for i, fan in enumerate(p.fans):
            n = len(fan)
            for k, card in enumerate(fan):
                cards[int(card)] = (1 + i, n - 1 - k)
        base = 1 + len(p.fans)
        for i, cell in enumerate(p.cells):
            if cell is not None:
                cards[int(cell)] = (base + i, 0)
        return {
            "cards": cards,
            "redeals_left": p.redeals_left,
            "merci_available": int(p.merci_available),
        }

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks(),
            "deal": self.game.deal,
            "score": self.game.score,
            "status": self.game.outcome.status,
        }


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (``gym.make(ENV_ID, variant=...)``)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point="lucie.rl:LucieEnv")


register()
