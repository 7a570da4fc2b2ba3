"""ply.distributed on a local Ray (2 CPUs): the same results as the local arena and the CLI,
whatever the batch size, and after a worker dies mid-run."""

import json
import subprocess
import sys

import pytest
import ray

import ply
import ply.distributed


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def same(a, b):
    a, b = dict(a), dict(b)
    a.pop("elapsed"), b.pop("elapsed")
    assert a == b


@pytest.mark.parametrize("batch", [1, 3, 50])
def test_a_match_equals_the_local_one(batch):
    args = dict(games=10, seed=11, iters=200)
    local = ply.match("connect4", "mcts", "alphabeta", **args)
    same(ply.distributed.match("connect4", "mcts", "alphabeta", batch=batch, **args), local)


def test_a_tournament_equals_the_command(ply_bin):
    agents = ["random", "expectimax:depth=1", "mcts:iters=100"]
    ours = ply.distributed.tournament("pig", agents, games=6, seed=3, options="target=30", batch=4)
    cli = subprocess.run([ply_bin, "tournament", "pig", *agents, "--games", "6", "--seed", "3", "-o", "target=30",
                          "--json"], check=True, capture_output=True, text=True).stdout
    same(ours, json.loads(cli))


def test_a_dead_worker_is_retried_and_the_result_is_unchanged(tmp_path):
    args = dict(games=6, seed=5, iters=100)
    local = ply.match("connect4", "mcts", "random", **args)
    same(ply.distributed.match("connect4", "mcts", "random", batch=3, _fail_first=str(tmp_path), **args), local)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["0-0", "0-3"], "both batches died once"


def test_bad_input_is_refused_before_the_cluster_is_used():
    with pytest.raises(ply.SpecError, match="connect4 has no agent 'nope'"):
        ply.distributed.match("connect4", "nope", "random", games=2)
    with pytest.raises(ply.SpecError, match="--games must be at least 1"):
        ply.distributed.tournament("connect4", ["random", "mcts"], games=0)


def test_the_command_line_front_prints_the_commands_json(ply_bin):
    # --address auto: the local Ray this module started.
    ours = subprocess.run([sys.executable, "-m", "ply.distributed", "match", "connect4", "random", "mcts:iters=50",
                           "--games", "4", "--seed", "2", "--batch", "2", "--address", "auto"],
                          check=True, capture_output=True, text=True).stdout
    cli = subprocess.run([ply_bin, "match", "connect4", "random", "mcts:iters=50", "--games", "4", "--seed", "2",
                          "--json"], check=True, capture_output=True, text=True).stdout
    same(json.loads(ours), json.loads(cli))
    bad = subprocess.run([sys.executable, "-m", "ply.distributed", "match", "chess", "random", "random"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: unknown game 'chess'")


def test_a_free_for_all_equals_the_command(ply_bin):
    agents = ["random", "expectimax:depth=1", "mcts:iters=100"]
    ours = ply.distributed.ffa("pig", agents, all_orders=True, games=12, seed=5, options="players=3,target=30",
                               batch=5)
    cli = subprocess.run([ply_bin, "ffa", "pig", *agents, "--all-orders", "--games", "12", "--seed", "5", "-o",
                          "players=3,target=30", "--json"], check=True, capture_output=True, text=True).stdout
    same(ours, json.loads(cli))


def test_a_free_for_all_with_a_dead_worker_is_unchanged(tmp_path):
    agents = ["random", "mcts:iters=50", "random"]
    args = dict(games=7, seed=9, options="players=3,target=30")
    local = ply.ffa("pig", agents, **args)
    assert local["games"] == 9, "whole rounds of 3"
    same(ply.distributed.ffa("pig", agents, batch=4, _fail_first=str(tmp_path), **args), local)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ffa-0", "ffa-4", "ffa-8"]


# A small schedule: 2 generations of 2 tournaments of 4 genes (12 games each) on Connect Four.
TUNE = dict(weights=2, population=8, tournaments=2, tournament_size=4, selected=2, children=3, mutants=1,
            iters=500, seed=5)
TUNE_FLAGS = ["--weights", "2", "--population", "8", "--tournaments", "2", "--tournament-size", "4", "--selected",
              "2", "--children", "3", "--mutants", "1", "--iters", "500", "--seed", "5"]


def ply_tune(ply_bin, *args):
    return subprocess.run([ply_bin, "tune", "connect4", "alphabeta:depth=1", *TUNE_FLAGS, *args], check=True,
                          capture_output=True, text=True).stdout


def test_a_tuning_run_equals_the_command(ply_bin):
    lines = []
    ours = ply.distributed.tune("connect4", "alphabeta:depth=1", generations=2, batch=5,
                                on_generation=lambda report, line: lines.append((report, line)), **TUNE)
    assert ours == json.loads(ply_tune(ply_bin, "--generations", "2", "--json"))
    assert [report for report, _ in lines] == ours["generations"]
    text = ply_tune(ply_bin, "--generations", "2")
    assert [line for _, line in lines] == text.splitlines()[:-1]
    # The command-line front prints what `ply tune` prints.
    front = subprocess.run([sys.executable, "-m", "ply.distributed", "tune", "connect4", "alphabeta:depth=1",
                            *TUNE_FLAGS, "--generations", "2", "--batch", "7", "--address", "auto"],
                           check=True, capture_output=True, text=True).stdout
    assert front == text


def test_a_checkpoint_goes_on_from_either_side(ply_bin, tmp_path):
    whole = ply_tune(ply_bin, "--generations", "3")
    ours = tmp_path / "ours.json"
    ply.distributed.tune("connect4", "alphabeta:depth=1", generations=1, checkpoint=str(ours), **TUNE)
    assert ply_tune(ply_bin, "--generations", "3", "--checkpoint", str(ours), "--resume") == whole
    theirs = tmp_path / "theirs.json"
    ply_tune(ply_bin, "--generations", "2", "--checkpoint", str(theirs))
    lines = []
    result = ply.distributed.tune("connect4", "alphabeta:depth=1", generations=3, checkpoint=str(theirs),
                                  resume=True, on_generation=lambda _, line: lines.append(line), **TUNE)
    assert lines + [f"best: {result['spec']}"] == whole.splitlines()


def test_a_tuning_run_with_a_dead_worker_is_unchanged(ply_bin, tmp_path):
    ours = ply.distributed.tune("connect4", "alphabeta:depth=1", generations=2, batch=6,
                                _fail_first=str(tmp_path), **TUNE)
    assert ours == json.loads(ply_tune(ply_bin, "--generations", "2", "--json"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tune-0-0", "tune-0-6", "tune-1-0", "tune-1-6"]


def cli_error(ply_bin, *args):
    run = subprocess.run([ply_bin, *args], capture_output=True, text=True)
    assert run.returncode == 2
    return run.stderr.strip().removeprefix("error: ")


@pytest.mark.parametrize("call, command", [
    (lambda: ply.distributed.ffa("pig", ["random", "nope"]), ["ffa", "pig", "random", "nope"]),
    (lambda: ply.distributed.ffa("pig", ["random"] * 2), ["ffa", "pig", "random", "random"]),
    (lambda: ply.distributed.ffa("pig", ["random"] * 3, options="colour=red"),
     ["ffa", "pig", "random", "random", "random", "-o", "colour=red"]),
    (lambda: ply.distributed.ffa("pig", ["random"] * 3, games=0),
     ["ffa", "pig", "random", "random", "random", "--games", "0"]),
    (lambda: ply.distributed.tune("connect4", "random", weights=2), ["tune", "connect4", "random", "--weights", "2"]),
    (lambda: ply.distributed.tune("connect4", "alphabeta", weights=3),
     ["tune", "connect4", "alphabeta", "--weights", "3"]),
    (lambda: ply.distributed.tune("chess", "alphabeta", weights=2), ["tune", "chess", "alphabeta", "--weights", "2"]),
    (lambda: ply.distributed.tune("connect4", "alphabeta", weights=2, population=1),
     ["tune", "connect4", "alphabeta", "--weights", "2", "--population", "1"]),
])
def test_bad_input_raises_the_commands_message(ply_bin, call, command):
    with pytest.raises(ply.SpecError) as raised:
        call()
    assert str(raised.value) == cli_error(ply_bin, *command)


def test_a_failed_tuning_game_raises_the_commands_message(ply_bin):
    small = dict(population=4, tournaments=1, tournament_size=4, selected=1, children=1, mutants=1, generations=1,
                 iters=50)
    # c=0 (the lowest weight) is accepted up front; mcts refuses c above 100 in the games.
    with pytest.raises(ply.SpecError, match="a tuning game failed") as raised:
        ply.distributed.tune("connect4", "mcts", param="c", weights=1, max_weight=200, batch=2, **small)
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in small.items()]
    assert str(raised.value) == cli_error(ply_bin, "tune", "connect4", "mcts", "--param", "c", "--weights", "1",
                                          "--max", "200", *flags)
