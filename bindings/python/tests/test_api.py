"""The by-name layer from Python: games, states, notation, observations, agents, errors."""

import json
import subprocess

import pytest

import ply


def test_games_are_the_commands_games(ply_bin):
    listed = subprocess.run([ply_bin, "games"], check=True, capture_output=True, text=True).stdout
    names = [line.split()[0] for line in listed.splitlines() if line and not line.startswith(" ")]
    assert [g["name"] for g in ply.games()] == names
    connect4 = ply.games()[0]
    assert connect4["agents"] == ["alphabeta", "mcts", "random"]


def test_game_options_as_string_dict_or_keywords():
    for game in (ply.game("pig", "players=3,target=50"), ply.game("pig", players=3, target=50),
                 ply.game("pig", {"players": 3}, target=50)):
        assert game.num_players == 3
        assert game.options == "players=3,target=50"
    assert ply.game("gomoku", size=9).new_state().observation()["size"] == 9


def test_a_game_played_through_by_text_and_json():
    state = ply.game("connect4").new_state()
    assert state.turn == 0 and state.current_player == 0 and not state.is_terminal()
    assert state.legal_actions() == ["4", "3", "5", "2", "6", "1", "7"]
    for move in ["4", "3", "4", "3", "4", "3"]:
        assert state.apply(move) == move
    copy = state.clone()
    assert state.apply("d") == "4", "the canonical form is returned"
    assert state.is_terminal() and state.turn == "over" and state.current_player is None
    assert state.returns() == [1.0, 0.0]
    assert copy.returns() is None and copy.legal_actions(), "a clone is independent"
    game = ply.game("connect4")
    assert game.state_from_text(state.to_text()).to_text() == state.to_text()
    assert game.state_from_json(state.to_json()).to_text() == state.to_text()
    assert game.state_from_json(json.dumps(state.to_json())).to_text() == state.to_text()


def test_chance_events_and_json_actions():
    state = ply.game("pig", players=2).new_state()
    assert state.apply("roll") == "roll"
    assert state.turn == "chance" and state.is_chance()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == ["1", "2", "3", "4", "5", "6"]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply("5")
    assert state.turn == 0
    gomoku = ply.game("gomoku").new_state()
    assert gomoku.apply({"x": 7, "y": 7}) == "h8"
    assert gomoku.action_json("i9") == {"x": 8, "y": 8}


def test_observations_hide_the_other_seats_cards():
    state = ply.game("kuhn").new_state()
    state.apply("J")
    state.apply("K")
    assert state.hidden_information
    assert state.to_text().startswith("JK"), "the whole state knows both cards"
    assert state.observation(0)["cards"] == ["J", "?"]
    assert state.observation(1)["cards"] == ["?", "K"]
    assert "K" not in state.observation_text(0) and "J" not in state.observation_text(1)
    with pytest.raises(ply.SpecError, match="seat 2 does not exist"):
        state.observation(2)


def test_agents_choose_moves_and_report_their_search():
    state = ply.game("connect4").new_state()
    agent = ply.agent("connect4", "mcts:iters=300", seed=1)
    move, report = agent.choose(state)
    assert move in state.legal_actions()
    assert report["iterations"] == 300 and report["pv"][0] == move
    again, _ = ply.agent(ply.game("connect4"), "mcts:iters=300", seed=1).choose(state)
    assert again == move, "the same seed and iteration budget choose the same move"
    move, report = ply.agent("connect4", "alphabeta").choose(state, iters=2000)
    assert 0 < report["iterations"] <= 2100
    # A hidden-information agent is handed a re-dealt position, and still plays legally.
    kuhn = ply.game("kuhn").new_state()
    kuhn.apply("Q")
    kuhn.apply("K")
    assert ply.agent("kuhn", "mcts", seed=3).choose(kuhn, iters=200)[0] in kuhn.legal_actions()


@pytest.mark.parametrize(
    "call, kind, message",
    [
        (lambda: ply.game("chess"), ply.SpecError, "unknown game 'chess'; Ply has: connect4"),
        (lambda: ply.game("pig", players=9), ply.SpecError, "players must be between 2 and 6"),
        (lambda: ply.game("pig", colour="red"), ply.SpecError, "colour"),
        (lambda: ply.agent("connect4", "deep_blue"), ply.SpecError, "connect4 has no agent 'deep_blue'"),
        (lambda: ply.agent("connect4", "mcts:depth=3"), ply.SpecError, "depth"),
        (lambda: ply.game("connect4").new_state().apply("9"), ply.NotationError, "'9' is not a column"),
        (lambda: ply.game("connect4").state_from_text("xxxx"), ply.NotationError, ""),
        (lambda: ply.game("connect4").new_state().apply(4), ply.ArgumentError, "action must be a str"),
        (lambda: ply.game(4), ply.ArgumentError, "name must be a str"),
        (lambda: ply.game("pig", players=[3]), ply.ArgumentError, "option players"),
        (lambda: ply.agent("connect4", "mcts", seed="one"), ply.ArgumentError, "seed must be an int"),
        (lambda: ply.agent("connect4", "mcts").choose("4"), ply.ArgumentError, "state must be a ply.State"),
        (lambda: ply.match("connect4", "random", "random", games=0), ply.SpecError, "--games must be at least 1"),
        (lambda: ply.match("connect4", "random", "random", iters=-1), ply.SpecError, "iters must be"),
        (lambda: ply.tournament("connect4", "random"), ply.ArgumentError, "agents must be a list"),
    ],
)
def test_bad_input_raises_a_ply_error_with_the_commands_message(call, kind, message):
    with pytest.raises(kind) as caught:
        call()
    assert isinstance(caught.value, ply.Error)
    assert message in str(caught.value)


def test_illegal_moves_leave_the_state_unchanged():
    state = ply.game("connect4").new_state()
    for _ in range(6):
        state.apply("1")
    with pytest.raises(ply.IllegalMoveError):
        state.apply("1")
    assert state.to_text().count("x") == 3
    over = ply.game("connect4").state_from_text("......./......./x....../xo...../xo...../xo.....")
    with pytest.raises(ply.IllegalMoveError, match="game is over"):
        ply.agent("connect4", "random").choose(over)
