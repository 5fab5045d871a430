"""The extension under dlperf (python/module.cpp); use the dlperf package's functions."""

from typing import Any, List

version: str

class Error(ValueError):
    """Bad input: the message is the dlperf tool's one line on stderr (after "dlperf: error: ")."""

def run(args: List[str]) -> Any:
    """Runs the dlperf command line ``args`` (no program name) and returns its JSON as dicts,
    lists, str, int, float, bool and None. Raises Error for bad input."""
