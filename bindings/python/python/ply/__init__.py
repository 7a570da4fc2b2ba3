"""Ply from Python: every game and agent of the Ply engine by name, the arena's matches,
tournaments and free-for-alls (the same results as the ``ply`` command's ``--json``), and
PettingZoo environments (``ply.pettingzoo``). See docs/python.md.

>>> import ply
>>> state = ply.game("connect4").new_state()
>>> state.apply("4")
'4'
>>> move, report = ply.agent("connect4", "mcts:iters=500", seed=1).choose(state)
"""

from .errors import ArgumentError, Error, IllegalMoveError, NotationError, SpecError
from ._ply import Agent, Game, State, __version__, agent, ffa, game, games, tournament
from ._ply import match  # noqa: F401  (a soft keyword, still a fine attribute name)

__all__ = [
    "Agent",
    "ArgumentError",
    "Error",
    "Game",
    "IllegalMoveError",
    "NotationError",
    "SpecError",
    "State",
    "__version__",
    "agent",
    "ffa",
    "game",
    "games",
    "match",
    "tournament",
]
