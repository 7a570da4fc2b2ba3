"""Type stubs for the native module (bindings/python/src): what ``ply`` re-exports."""

from os import PathLike
from typing import Any, Literal, Mapping, Optional, Sequence, Union

__version__: str

OptionValue = Union[str, int, float, bool]
Options = Union[str, Mapping[str, OptionValue], None]
JSON = Any

class Game:
    """A game by name with its options (``ply.game("pig", players=3)``)."""

    @property
    def name(self) -> str: ...
    @property
    def about(self) -> str: ...
    @property
    def options(self) -> str:
        """The options as ``key=value,...`` (empty: the defaults)."""
    @property
    def num_players(self) -> int: ...
    @property
    def hidden_information(self) -> bool:
        """Whether players see different things (cards in hand)."""
    def new_state(self) -> State:
        """The start position."""
    def state_from_text(self, text: str) -> State:
        """A position in the game's text notation."""
    def state_from_json(self, json: Union[str, JSON]) -> State:
        """A position in the game's JSON form (a dict, or a JSON string)."""
    def agents(self) -> list[dict[str, Any]]:
        """The agents this game offers: ``name``, ``about``, ``params`` (name, default, help)."""
    def option_info(self) -> list[dict[str, str]]:
        """The options this game takes: name, default and help."""

class State:
    """A position: who is to move, the legal actions, notation, and what each seat sees."""

    @property
    def game(self) -> str: ...
    @property
    def num_players(self) -> int: ...
    @property
    def turn(self) -> Union[int, Literal["chance", "over"]]:
        """The seat to move, or ``"chance"`` (a die roll, a deal is pending), or ``"over"``."""
    @property
    def current_player(self) -> Optional[int]:
        """The seat to move, or ``None`` at a chance event or once the game is over."""
    @property
    def hidden_information(self) -> bool: ...
    def is_chance(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> list[str]:
        """The moves of the player to move, in text form."""
    def chance_outcomes(self) -> list[tuple[str, float]]:
        """The pending chance event's outcomes with their probabilities."""
    def apply(self, action: Union[str, dict[str, Any]]) -> str:
        """Plays an action (text, or JSON as a dict); returns its canonical text. An illegal or
        malformed action raises ``IllegalMoveError``/``NotationError`` and changes nothing."""
    def returns(self) -> Optional[list[float]]:
        """Every seat's score once over (1 win, 0 loss, shares for draws), else ``None``."""
    def to_text(self) -> str:
        """The whole position in text notation (hidden cards included)."""
    def to_json(self) -> JSON:
        """The whole position in JSON form (hidden cards included)."""
    def action_json(self, action: str) -> JSON: ...
    def observation(self, seat: Optional[int] = None) -> JSON:
        """What ``seat`` sees (``None``: a spectator), as a dict: no other seat's secrets."""
    def observation_text(self, seat: Optional[int] = None) -> str:
        """What ``seat`` sees (``None``: a spectator), as text."""
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...

class Agent:
    """An agent built from a spec (``ply.agent("connect4", "mcts:iters=1000", seed=1)``)."""

    @property
    def spec(self) -> str: ...
    @property
    def game(self) -> str: ...
    def choose(
        self, state: State, time_ms: Optional[int] = None, iters: Optional[int] = None
    ) -> tuple[str, dict[str, Any]]:
        """The move for the player to move (not played) and the search report: depth,
        iterations, value, scores, proven, pv, elapsed_ms. The spec's own time=/iters= win;
        with no budget at all, 1000 ms. Hidden-information games: the agent sees a re-deal for
        its seat. Releases the GIL; Ctrl-C raises KeyboardInterrupt."""

def games() -> list[dict[str, Any]]:
    """Every game: name, about, options (name, default, help), agents (names)."""

def game(name: str, options: Options = None, **kwargs: OptionValue) -> Game:
    """A game by name with options as ``"key=value,..."``, a dict, or keyword arguments."""

def agent(game: Union[Game, str], spec: str, seed: Optional[int] = None) -> Agent:
    """An agent from a spec as on the command line, with a seed (default 1)."""

def match(
    game: Union[Game, str],
    first: str,
    second: str,
    *,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    time_ms: Optional[int] = None,
    iters: Optional[int] = None,
    threads: Optional[int] = None,
    openings: Optional[int] = None,
    options: Options = None,
    out: Union[str, PathLike[str], None] = None,
) -> dict[str, Any]:
    """``ply match``: the dict its ``--json`` prints (``out``: every game as a JSON line)."""

def tournament(
    game: Union[Game, str],
    agents: Sequence[str],
    *,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    time_ms: Optional[int] = None,
    iters: Optional[int] = None,
    threads: Optional[int] = None,
    openings: Optional[int] = None,
    options: Options = None,
    out: Union[str, PathLike[str], None] = None,
) -> dict[str, Any]:
    """``ply tournament``: the dict its ``--json`` prints."""

def ffa(
    game: Union[Game, str],
    agents: Sequence[str],
    *,
    all_orders: Optional[bool] = None,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    time_ms: Optional[int] = None,
    iters: Optional[int] = None,
    threads: Optional[int] = None,
    openings: Optional[int] = None,
    options: Options = None,
    out: Union[str, PathLike[str], None] = None,
) -> dict[str, Any]:
    """``ply ffa``: the dict its ``--json`` prints."""

# Used by ply.pettingzoo.
def action_space(state: State) -> tuple[str, Optional[int]]: ...
def action_mask(state: State, n: int) -> bytes: ...
def play_index(state: State, index: int) -> str: ...
def observation_array(state: State, seat: int) -> Optional[tuple[bytes, list[int]]]: ...

# Used by ply.distributed: a run split into batches of games, and put back together.
def play_batch(
    game: Union[Game, str],
    first: str,
    second: str,
    pairing: int,
    start: int,
    end: int,
    *,
    seed: Optional[int] = None,
    time_ms: Optional[int] = None,
    iters: Optional[int] = None,
    threads: Optional[int] = None,
    openings: Optional[int] = None,
    options: Options = None,
) -> str:
    """Games ``start..end`` of pairing ``pairing`` as game records (JSON lines)."""
def assemble_match(game: Union[Game, str], first: str, second: str, records_jsonl: str, elapsed_s: float) -> dict[str, Any]: ...
def assemble_tournament(game: Union[Game, str], agents: list[str], per_pairing: list[str], elapsed_s: float) -> dict[str, Any]: ...
def tournament_pairings(agents: int) -> list[tuple[int, int]]: ...
def ffa_games(
    game: Union[Game, str],
    agents: list[str],
    *,
    all_orders: bool = False,
    games: Optional[int] = None,
    seed: Optional[int] = None,
    time_ms: Optional[int] = None,
    iters: Optional[int] = None,
    openings: Optional[int] = None,
    options: Options = None,
) -> int:
    """The number of games of a free-for-all (whole rounds), after checking its arguments."""
def play_ffa_batch(
    game: Union[Game, str],
    agents: list[str],
    start: int,
    end: int,
    *,
    all_orders: bool = False,
    seed: Optional[int] = None,
    time_ms: Optional[int] = None,
    iters: Optional[int] = None,
    threads: Optional[int] = None,
    openings: Optional[int] = None,
    options: Options = None,
) -> str:
    """Games ``start..end`` of a free-for-all as game records (JSON lines)."""
def assemble_ffa(game: Union[Game, str], agents: list[str], all_orders: bool, records_jsonl: str, elapsed_s: float) -> dict[str, Any]:
    """What ``ply ffa --json`` prints, from all the games' records in index order."""

# Used by ply.distributed.tune: the genetic tuner a generation at a time.
TuneJob = tuple[list[float], list[float], int]

class Tuner:
    """A tuning run (``ply tune``) played a generation at a time: ``next_games()`` lists a
    generation's games ``(a, b, seed)``, ``finish(results)`` takes their results in that order
    and saves the checkpoint, if any."""

    def __init__(
        self,
        game: Union[Game, str],
        agent: str,
        weights: int,
        *,
        param: str = "weights",
        population: int = 100,
        min_weight: float = 0.0,
        max_weight: float = 10.0,
        tournaments: int = 10,
        tournament_size: int = 10,
        selected: int = 3,
        children: int = 12,
        mutants: int = 3,
        generations: int = 4,
        seed: int = 1,
        time_ms: Optional[int] = None,
        iters: Optional[int] = None,
        options: Options = None,
        checkpoint: Union[str, PathLike[str], None] = None,
        resume: bool = False,
    ) -> None: ...
    @property
    def generations(self) -> int:
        """The run's number of generations."""
    def games_left(self) -> int:
        """Games still to play in the run."""
    def reports(self) -> list[dict[str, Any]]:
        """Every generation done so far, as in ``ply tune --json``'s ``generations``."""
    def lines(self) -> list[str]:
        """The lines ``ply tune`` prints for the generations done so far."""
    def next_games(self) -> Optional[list[TuneJob]]:
        """The next generation's games (the same until ``finish``), or ``None`` when done."""
    def finish(self, results: list[Union[float, str]]) -> dict[str, Any]:
        """Ends the generation: each game's result in order, ``a``'s score or why it failed."""
    def result(self) -> dict[str, Any]:
        """What ``ply tune --json`` prints."""

def tune_games(
    game: Union[Game, str],
    agent: str,
    param: str,
    games: list[TuneJob],
    *,
    time_ms: Optional[int] = None,
    iters: Optional[int] = None,
    options: Options = None,
) -> list[Union[float, str]]:
    """Plays tuning games; each result is ``a``'s score or why the game failed."""
