"""The PettingZoo environments: PettingZoo's own api_test for every registered game, and what
the observations, masks, chance and rewards mean."""

import pathlib
import subprocess
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import ply
import ply.pettingzoo


@pytest.mark.parametrize("name", [g["name"] for g in ply.games()])
def test_every_game_passes_pettingzoos_api_test(name):
    with warnings.catch_warnings():
        # api_test warns about dict observations and all-zero boards; it fails by assertion.
        warnings.simplefilter("ignore")
        api_test(ply.pettingzoo.env(name), num_cycles=200)


def test_options_reach_the_game():
    env = ply.pettingzoo.env("pig", players=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    env = ply.pettingzoo.env("gomoku", size=9)
    assert env.action_space("player_0").n == 81
    assert env.observation_space("player_0")["observation"].shape == (9, 9, 2)


def test_connect4_planes_and_columns():
    env = ply.pettingzoo.env("connect4")
    env.reset(seed=0)
    env.step(3)  # player_0 in column 4
    env.step(3)  # player_1 on top of it
    env.step(0)
    mine = env.observe("player_1")["observation"]
    assert mine.shape == (6, 7, 2) and mine.dtype == np.uint8
    assert mine[4, 3, 0] == 1 and mine[5, 3, 1] == 1 and mine[5, 0, 1] == 1, "own stones first, top row first"
    assert env.observe("player_0")["observation"][5, 0, 0] == 1
    assert list(env.observe("player_1")["action_mask"]) == [1] * 7
    assert list(env.observe("player_0")["action_mask"]) == [0] * 7, "only the agent to move has moves"
    for _ in range(4):
        env.step(3)
    assert list(env.observe(env.agent_selection)["action_mask"]) == [1, 1, 1, 0, 1, 1, 1], "column 4 is full"
    with pytest.raises(ply.IllegalMoveError):
        env.step(3)


def test_a_won_game_rewards_plus_and_minus_one():
    env = ply.pettingzoo.env("connect4")
    env.reset()
    for column in [0, 1, 0, 1, 0, 1, 0]:
        env.step(column)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 1, "player_1": -1}
    env.step(None)
    env.step(None)
    assert env.agents == []


def test_chance_is_resolved_from_the_seed():
    def play(seed):
        env = ply.pettingzoo.env("einstein")
        env.reset(seed=seed)
        seen = []
        for agent in env.agent_iter(40):
            observation, _, done, truncated, _ = env.last()
            seen.append(observation["observation"].tobytes())
            env.step(None if done or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
        return seen

    assert play(5) == play(5)
    assert play(5) != play(6)
    env = ply.pettingzoo.env("einstein")
    env.reset(seed=1)
    board = env.observe(env.agent_selection)["observation"]
    assert board.shape == (5, 5, 13)
    assert board[:, :, :6].sum() == 6 and board[:, :, 6:12].sum() == 6, "six cubes a side"
    assert 1 <= board[0, 0, 12] <= 6, "the die is rolled before a move"


def test_text_observations_show_only_the_seats_own_card():
    env = ply.pettingzoo.env("kuhn")
    env.reset(seed=3)
    state = env.unwrapped.state
    cards = state.to_text()[:2]
    for seat, agent in enumerate(env.possible_agents):
        text = bytes(env.observe(agent)["observation"]).rstrip(b"\0").decode()
        assert text == env.unwrapped.observation_text(agent) == state.observation_text(seat)
        assert cards[seat] in text and cards[1 - seat] not in text


def test_listed_actions_index_the_legal_list():
    env = ply.pettingzoo.env("pig")
    env.reset(seed=2)
    state = env.unwrapped.state
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.shape == (2,) and list(mask[: len(state.legal_actions())]) == [1] * len(state.legal_actions())
    # Risk's placements offer more actions than a space of 1: the mask refuses to cut them.
    risk = ply.pettingzoo.env("risk", max_actions=1)
    risk.reset(seed=0)
    with pytest.raises(ply.SpecError, match="raise max_actions"):
        for agent in risk.agent_iter(500):
            risk.observe(agent)
            risk.step(0)


def test_the_speed_comparison_runs():
    script = pathlib.Path(__file__).resolve().parents[1] / "bench" / "connect4_speed.py"
    out = subprocess.run([sys.executable, str(script), "--steps", "2000"], check=True, capture_output=True,
                         text=True).stdout
    assert "connect_four_v3" in out and out.strip().splitlines()[-1].startswith("ratio: ")
