"""The Python session in docs/python.md runs, so the page cannot drift from the package."""

import pathlib
import re

from conftest import optional

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_docs_python_session_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert blocks, "docs/python.md has no ```python block"
    for block in blocks:
        # A block that needs optional packages says so on its first line ("# needs: pandas").
        needs = re.match(r"# needs: (.*)\n", block)
        for name in needs.group(1).split(", ") if needs else []:
            optional(name)
        exec(compile(block, str(DOC), "exec"), {})
    out = capsys.readouterr().out
    assert "tokens/s" in out and "dlperf.Error: --gpu: unknown GPU id 'rtx_9090'" in out
