"""The examples in docs/python.md run as written, in order, as one session would."""

import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "python.md"


def test_the_examples_run():
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 4
    namespace = {}
    for code in blocks:
        exec(compile(code, str(DOC), "exec"), namespace)
    assert namespace["state"].is_terminal() and namespace["env"].agents == []
