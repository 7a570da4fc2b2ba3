import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def ply_bin():
    """The `ply` command built from the same sources (scripts/test builds target/debug/ply);
    the package's runs are compared with its --json output."""
    path = pathlib.Path(os.environ.get("PLY_BIN", ROOT / "target" / "debug" / "ply"))
    assert path.exists(), f"{path} is missing: cargo build -p ply-cli, or set PLY_BIN"
    return str(path)
