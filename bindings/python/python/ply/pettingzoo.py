"""PettingZoo AEC environments for every Ply game: ``ply.pettingzoo.env("connect4")``.

Agents are ``player_0`` ... ``player_{N-1}`` (the game's seats). Each observation is a dict
``{"observation": ..., "action_mask": ...}`` for the agent that observes:

- ``observation``: a ``uint8`` array. Connect Four: ``(6, 7, 2)`` stone planes, the agent's own
  stones first, top row first (as PettingZoo's ``connect_four_v3``); Gomoku: ``(size, size, 2)``
  the same way; EinStein: ``(5, 5, 13)``, planes 0-5 the agent's cubes 1-6, 6-11 the other
  side's, 12 the die rolled (0 before the roll). Other games (Pig, Kuhn poker, Risk, Tactics) are
  observed in their text form, what that seat sees and nothing more, as UTF-8 bytes zero-padded to
  ``max_text`` (``env.unwrapped.observation_text(agent)`` gives the string).
- ``action_mask``: ``int8``, 1 for the legal actions of the agent to move (all 0 for the others).

Action indices: Connect Four's are its columns 0-6, Gomoku's its points ``y * size + x``. The other
games' action sets change with the position, so an index there is the position in the state's
legal list (``state.legal_actions()``, the same order for the same position), under a fixed
maximum ``max_actions`` per game (EinStein 720: chosen arrangements; Risk and Tactics 1024, above
what random play reaches on the default maps; raise it for big custom maps: a position with more
legal actions raises ``ply.SpecError``).

Chance events (dice, deals) are resolved inside the environment from the seed given to
``reset``. An illegal action raises ``ply.IllegalMoveError``. When the game ends every agent is
rewarded ``N * score - 1`` (N players, the score 1 for a win, 0 for a loss, shared in draws): +1
and -1 in a two-player game, and the rewards always sum to 0. A turn of several decisions (Pig,
Risk, Tactics) selects the same agent several times in a row.
"""

from __future__ import annotations

import random

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import _ply
from . import game as _game
from .errors import SpecError

# Action-space sizes of the games indexed by legal list (the others' come from their boards);
# any other game gets DEFAULT_MAX_ACTIONS.
MAX_ACTIONS = {"pig": 2, "kuhn": 2, "einstein": 720}
DEFAULT_MAX_ACTIONS = 1024
MAX_TEXT = 4096


def env(game, options=None, *, max_actions=None, max_text=MAX_TEXT, render_mode=None, **kwargs):
    """The AEC environment of ``game`` (a name) with options as a string, a dict or keywords."""
    return PlyEnv(game, options, max_actions=max_actions, max_text=max_text, render_mode=render_mode, **kwargs)


class PlyEnv(AECEnv):
    """A Ply game as a PettingZoo AEC environment (see the module's documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "ply", "is_parallelizable": False}

    def __init__(self, game, options=None, *, max_actions=None, max_text=MAX_TEXT, render_mode=None, **kwargs):
        super().__init__()
        self.game = _game(game, options, **kwargs)
        self.metadata = dict(self.metadata, name=f"ply_{self.game.name}")
        self.render_mode = render_mode
        self._start = self.game.new_state()
        kind, size = _ply.action_space(self._start)
        self._actions = size if size is not None else (max_actions or MAX_ACTIONS.get(self.game.name, DEFAULT_MAX_ACTIONS))
        self._max_text = max_text
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        array = _ply.observation_array(self._start, 0)
        if array is not None:
            self._shape = tuple(array[1])
            high = 6 if self.game.name == "einstein" else 1
            observation = spaces.Box(0, high, self._shape, np.uint8)
        else:
            self._shape = None
            observation = spaces.Box(0, 255, (max_text,), np.uint8)
        space = spaces.Dict(
            {"observation": observation, "action_mask": spaces.Box(0, 1, (self._actions,), np.int8)}
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self._actions) for agent in self.possible_agents}
        self._no_moves = np.zeros(self._actions, np.int8)
        self.state = None
        self._rng = random.Random()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng.seed(seed)
        self.state = self._start.clone()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._advance()

    def _advance(self):
        """Rolls the dice up to the next decision, then selects the agent to move or ends."""
        state = self.state
        while state.is_chance():
            outcomes = state.chance_outcomes()
            pick = self._rng.random()
            for outcome, probability in outcomes:
                pick -= probability
                if pick < 0:
                    break
            state.apply(outcome)
        player = state.current_player
        if player is not None:
            self.agent_selection = self.possible_agents[player]
            return
        returns = state.returns()
        n = len(returns)
        for agent, score in zip(self.possible_agents, returns):
            self.rewards[agent] = n * score - 1
            self.terminations[agent] = True

    def observe(self, agent):
        seat = self._seat[agent]
        state = self.state
        if self._shape is not None:
            data, _ = _ply.observation_array(state, seat)
            observation = np.frombuffer(data, np.uint8).reshape(self._shape)
        else:
            observation = self._text_array(state.observation_text(seat))
        if state.current_player == seat:
            mask = np.frombuffer(_ply.action_mask(state, self._actions), np.int8)
        else:
            mask = self._no_moves
        return {"observation": observation, "action_mask": mask}

    def _text_array(self, text):
        data = text.encode()
        if len(data) > self._max_text:
            raise SpecError(f"the observation has {len(data)} bytes, more than max_text={self._max_text}")
        out = np.zeros(self._max_text, np.uint8)
        out[: len(data)] = np.frombuffer(data, np.uint8)
        return out

    def observation_text(self, agent):
        """What ``agent`` sees, as text."""
        return self.state.observation_text(self._seat[agent])

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        _ply.play_index(self.state, int(action))
        self._cumulative_rewards[agent] = 0
        self._advance()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        text = self.state.observation_text() if self.state is not None else ""
        if self.render_mode == "human":
            print(text)
        return text

    def close(self):
        pass
