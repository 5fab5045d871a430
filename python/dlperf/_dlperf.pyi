"""The extension under dlperf (python/module.cpp); use the dlperf package's functions."""

from typing import Any, Dict, List, Tuple

version: str

class Error(ValueError):
    """Bad input: the message is the dlperf tool's one line on stderr (after "dlperf: error: ")."""

def run(args: List[str]) -> Any:
    """Runs the dlperf command line ``args`` (no program name) and returns its JSON as dicts,
    lists, str, int, float, bool and None. Raises Error for bad input."""

def sweep(axes: List[Tuple[str, List[str]]], threads: int = 0) -> Dict[str, List[Any]]:
    """Runs the grid of ``axes`` (keyword and value texts, the last axis fastest) on ``threads``
    threads (0: every core) and returns its figures by column. Raises Error for a grid it
    refuses (unknown or repeated keyword, no model, no device, an empty axis)."""

def sweep_rows(axes: List[Tuple[str, List[str]]], labels: List[List[Any]],
               threads: int = 0) -> List[Dict[str, Any]]:
    """Runs the grid of ``axes`` as sweep() does and returns one dict a point: each axis's name
    with the point's entry of ``labels`` (one list per axis, beside its values), then
    SWEEP_FIGURES; use dlperf.sweep."""

def model_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf model --json`` for keyword and value pairs, through the application layer; None
    for a request it refuses (dlperf.model then runs the tool's command line for its message)."""

def advise_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf advise --json`` for keyword and value pairs, through the application layer; None
    for a request it refuses (dlperf.advise then runs the tool's command line for its
    message)."""

def rent_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf advise --rent --json`` for keyword and value pairs, through the application layer;
    None for a request it refuses (dlperf.advise then runs the tool's command line for its
    message)."""

def serve_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf model --serve --json`` for keyword and value pairs, through the application layer;
    None for a request it refuses (dlperf.model then runs the tool's command line for its
    message)."""

def serve_keywords() -> List[str]:
    """The keywords a serving request takes besides a model request's: rate, block_size,
    kv_fraction, step_tokens, max_seqs, concurrency, prompt_min, generate_min."""

def cluster_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf cluster --json`` for keyword and value pairs, through the application layer; None
    for a request it refuses (dlperf.cluster then runs the tool's command line for its
    message)."""

def gemm_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf gemm --json`` for keyword and value pairs, through the application layer; None for
    a request it refuses (dlperf.gemm then runs the tool's command line for its message)."""

def roofline_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf roofline --json`` for keyword and value pairs, through the application layer;
    None for a request it refuses (dlperf.roofline then runs the tool's command line for its
    message)."""

def power_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf power --json`` for keyword and value pairs, through the application layer; None
    for a request it refuses (dlperf.power then runs the tool's command line for its message)."""

def debias_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf debias --json`` for keyword and value pairs, through the application layer; None
    for a request it refuses (dlperf.debias then runs the tool's command line for its message)."""

def tco_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf tco --json`` for keyword and value pairs, through the application layer; None for
    a request it refuses (dlperf.tco then runs the tool's command line for its message)."""

def rank_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf rank --json`` for keyword and value pairs, through the application layer; None for
    a request it refuses (dlperf.rank then runs the tool's command line for its message)."""

def speedup_json(fields: List[Tuple[str, str]]) -> Any:
    """``dlperf speedup --json`` for keyword and value pairs, through the application layer; None
    for a request it refuses (dlperf.speedup then runs the tool's command line for its
    message)."""

def request_keywords() -> List[str]:
    """Every keyword a model request takes: the model, the device, power_limit, link, mode and
    the run fields."""

def run_fields() -> List[Dict[str, Any]]:
    """The run's fields, the list the tool's run flags come from: one dict each with keyword,
    flag, kind ("text", "choice" or "toggle"), job_layout, help, default and names."""

def format_value(unit: str, value: float) -> str:
    """``value`` as the tool's text output writes a figure of ``unit``: "s" a duration ("1.50
    ms"), "%" a fraction as a percentage, "B" a memory size ("15.0 GiB"), "$" US dollars, ""
    three significant digits, any other unit with an SI prefix."""

def main(args: List[str]) -> int:
    """Runs the dlperf tool on ``args`` (no program name), printing as the dlperf command does;
    returns its exit code (0, 2 for bad input, 1 otherwise). ``python -m dlperf`` calls it."""
