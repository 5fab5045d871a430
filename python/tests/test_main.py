"""``python -m dlperf``: the installed package runs the tool itself, with the executable's text,
JSON, stderr line and exit code for the same command line."""

import subprocess
import sys

import pytest

LINES = [
    "gpus",
    "model --preset llama3_8b --gpu rtx_4090 --infer --prompt 512 --generate 128 --stack llama.cpp",
    "model --preset llama2_7b --gpu h100_sxm --train --batch 4 --seq 2048 --json",
    "rank --task infer16",
    "--version",
    "model --preset gpt2 --gpu rtx_9090",  # exit 2, one line on stderr
    "",  # no command: exit 2, the list of commands
    "model --help",
]


@pytest.mark.parametrize("line", LINES)
def test_python_m_dlperf_is_the_tool(cli, line):
    words = line.split()
    mine = subprocess.run([sys.executable, "-m", "dlperf", *words], capture_output=True, text=True)
    tool = subprocess.run([cli.path, *words], capture_output=True, text=True)
    assert (mine.returncode, mine.stdout, mine.stderr) == (tool.returncode, tool.stdout,
                                                           tool.stderr)
