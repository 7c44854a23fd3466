"""The Gymnasium environment: API conformance, masks agree with the engine."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from lucie.engine import Game, Move
from lucie.rl import ENV_ID, ActionSpace, LucieEnv
from lucie.rules import VARIANTS


@pytest.mark.parametrize("name", ["classic", "reserve", "merci", "trefoil"])
def test_check_env(name: str) -> None:
    check_env(LucieEnv(name), skip_render_check=True)


def test_action_ids_round_trip() -> None:
    for fans, cells in ((18, 0), (18, 4), (16, 1)):
        space = ActionSpace(fans, cells)
        for action in range(space.size):
            assert space.index(space.move(action)) == action
        with pytest.raises(ValueError):
            space.move(space.size)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_masked_random_play_matches_the_engine(name: str) -> None:
    env = LucieEnv(name, max_steps=400)
    obs, info = env.reset(seed=3, options={"deal": 11})
    shadow = Game(VARIANTS[name].rules, 11)
    rng = np.random.default_rng(5)
    total = 0.0
    for _ in range(400):
        mask = info["action_mask"]
        legal = {env.actions.index(m) for m in shadow.legal_moves}
        assert set(np.flatnonzero(mask)) == legal
        action = int(rng.choice(np.flatnonzero(mask)))
        shadow.push(env.actions.move(action))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        assert obs["redeals_left"] == shadow.position.redeals_left
        on_foundations = int((obs["cards"][:, 0] == 0).sum())
        assert on_foundations == shadow.score == info["score"]
        if terminated or truncated:
            break
    assert total == shadow.score - shadow.start.score


def test_illegal_action_changes_nothing() -> None:
    env = LucieEnv("classic")
    obs, info = env.reset(options={"deal": 1})
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[5])
    obs2, reward, terminated, _, info2 = env.step(illegal)
    assert np.array_equal(obs["cards"], obs2["cards"])
    assert reward == 0.0 and not terminated and "illegal" in info2


def test_registered_with_gymnasium() -> None:
    env = gym.make(ENV_ID, variant="trefoil")
    obs, info = env.reset(seed=1)
    assert int((obs["cards"][:, 0] == 0).sum()) == 4  # aces start home
    assert info["deal"] is not None


def test_autoplay_sends_safe_cards_home_in_the_same_action() -> None:
    env = LucieEnv("classic", autoplay=True)
    _, info = env.reset(options={"deal": 2})
    shadow = Game(VARIANTS["classic"].rules, 2)
    step = shadow.play("h>f")
    action = env.actions.index(step.move)
    assert info["action_mask"][action]
    _, reward, _, _, info = env.step(action)
    assert info["moves"] == [str(m) for m in step.moves] and len(step.moves) > 1
    assert reward == len(step.moves) == info["score"]
    assert env.game.steps == shadow.steps


def test_illegal_action_says_why() -> None:
    env = LucieEnv("classic")
    env.reset(options={"deal": 1})
    _, _, _, _, info = env.step(env.actions.index(Move.parse("a>b")))
    assert info["illegal"] == "a>b: 4♠ cannot go on 10♥ (fans build down in suit)"
