"""Shared fixtures: the dlperf tool whose --json the Python package must equal.

The tool is $DLPERF_CLI, else build/bin/dlperf in the checkout; tests that compare with it are
skipped when neither exists (CI sets DLPERF_CLI)."""

import json
import os
import pathlib
import shlex
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _cli_path():
    given = os.environ.get("DLPERF_CLI")
    if given:  # named: it must be there (CI), never a silent skip
        assert os.access(given, os.X_OK), f"DLPERF_CLI={given} is not an executable"
        return given
    path = str(ROOT / "build" / "bin" / "dlperf")
    return path if os.access(path, os.X_OK) else None


class Cli:
    def __init__(self, path):
        self.path = path

    def run(self, line):
        return subprocess.run([self.path, *shlex.split(line)], capture_output=True, text=True)

    def json(self, line):
        r = self.run(line)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    def error(self, line):
        """The tool's one stderr line for a rejected command line, without its prefix."""
        r = self.run(line)
        assert r.returncode == 2, (line, r.returncode, r.stdout)
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("dlperf: error: "), r.stderr
        return lines[0][len("dlperf: error: "):]


@pytest.fixture(scope="session")
def cli():
    path = _cli_path()
    if path is None:
        pytest.skip("no dlperf tool to compare with: set DLPERF_CLI or build build/bin/dlperf")
    return Cli(path)


def optional(name):
    """The optional package @p name (pandas, matplotlib) for a test: the test is skipped without
    it, except where DLPERF_TEST_ALL is set (.ci/run), where every test must run."""
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("DLPERF_TEST_ALL"):
            pytest.fail(f"{name} is not installed, and DLPERF_TEST_ALL asks for every test")
        pytest.skip(f"{name} is not installed")


def call_from_line(line):
    """The dlperf package call a command line stands for: ("roofline --gpu t4 --flops 1e12")
    -> dlperf.roofline(gpu="t4", flops="1e12"). Words after a flag up to the next "--" word are
    its value; a flag without one is True."""
    import dlperf

    words = shlex.split(line)
    command, rest = words[0], words[1:]
    kwargs = {}
    i = 0
    while i < len(rest):
        flag = rest[i]
        assert flag.startswith("--"), line
        key = flag[2:].replace("-", "_")
        key = {"from": "from_"}.get(key, key)
        if i + 1 < len(rest) and not rest[i + 1].startswith("--"):
            kwargs[key] = rest[i + 1]
            i += 2
        else:
            kwargs[key] = True
            i += 1
    kwargs.pop("json", None)
    function = {"export": "export_device"}.get(command, command)
    return getattr(dlperf, function), kwargs
