"""ply.match, ply.tournament and ply.ffa give what `ply ... --json` prints for the same
arguments, and Ctrl-C stops them."""

import json
import os
import signal
import subprocess
import threading
import time

import pytest

import ply


def cli(ply_bin, *args):
    out = subprocess.run([ply_bin, *args, "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def same(a, b):
    """Equal but for the wall time."""
    a, b = dict(a), dict(b)
    a.pop("elapsed"), b.pop("elapsed")
    assert a == b


def test_match_equals_the_command(ply_bin, tmp_path):
    out = tmp_path / "games.jsonl"
    ours = ply.match("connect4", "mcts:iters=200", "alphabeta", games=6, seed=7, iters=300, threads=2, out=out)
    same(ours, cli(ply_bin, "match", "connect4", "mcts:iters=200", "alphabeta", "--games", "6", "--seed", "7",
                   "--iters", "300", "--threads", "2"))
    assert ours["result"]["score"]["wins"] + ours["result"]["score"]["draws"] + ours["result"]["score"]["losses"] == 6
    assert len(out.read_text().splitlines()) == 6


def test_tournament_equals_the_command(ply_bin):
    agents = ["random", "expectimax:depth=1", "mcts:iters=100"]
    ours = ply.tournament("pig", agents, games=4, seed=3, options={"target": 30}, threads=1)
    same(ours, cli(ply_bin, "tournament", "pig", *agents, "--games", "4", "--seed", "3", "-o", "target=30"))
    assert ours["agents"] == agents and len(ours["pairs"]) == 3


def test_ffa_equals_the_command(ply_bin):
    agents = ["random", "expectimax:depth=1", "random"]
    game = ply.game("pig", players=3, target=30)
    ours = ply.ffa(game, agents, games=6, seed=5, iters=100, all_orders=True)
    same(ours, cli(ply_bin, "ffa", "pig", *agents, "-o", "players=3,target=30", "--games", "6", "--seed", "5",
                   "--iters", "100", "--all-orders"))
    assert ours["players"] == 3 and ours["all_orders"]


def test_a_run_with_a_bad_agent_raises_the_commands_message(ply_bin):
    with pytest.raises(ply.SpecError) as caught:
        ply.match("connect4", "mcts:c=x", "random", games=2)
    run = subprocess.run([ply_bin, "match", "connect4", "mcts:c=x", "random", "--games", "2"],
                         capture_output=True, text=True)
    assert run.stderr.strip() == f"error: {caught.value}"


def interrupt_soon(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize(
    "call",
    [
        lambda: ply.match("connect4", "mcts", "mcts", games=1000, iters=1_000_000, threads=1),
        lambda: ply.agent("gomoku", "mcts").choose(ply.game("gomoku").new_state(), time_ms=600_000),
    ],
    ids=["match", "choose"],
)
def test_ctrl_c_interrupts_a_long_call(call):
    # A shell starts background jobs with SIGINT ignored, and Python keeps it so: Ctrl-C's
    # handler is put back for the test, or the signal would never reach the call.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    timer = interrupt_soon(0.5)
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - started < 10


def test_long_calls_release_the_gil():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.01)

    thread = threading.Thread(target=tick)
    thread.start()
    ply.agent("connect4", "mcts").choose(ply.game("connect4").new_state(), time_ms=500)
    stop.set()
    thread.join()
    assert len(ticks) > 20, "another Python thread ran while the agent thought"
