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
