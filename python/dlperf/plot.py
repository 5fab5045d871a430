"""Plots of dlperf's answers, drawn with matplotlib when it is installed (``pip install
matplotlib``): a sweep's figure against one of its keywords, a GPU's roofline with kernels on it,
and a ranking of GPUs. Each function draws on ``ax`` (a new figure's axes when None) and returns
the axes. See docs/python.md, "Sweeps"."""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from . import Error, rank as _rank, roofline as _roofline

# Axis labels for the figures a sweep gives (SI units, as its columns).
_LABELS = {
    "step_time_s": "step time (s)",
    "samples_per_s": "samples/s",
    "tokens_per_s": "tokens/s",
    "tflops": "TFLOP/s per GPU",
    "mfu": "model FLOPs utilisation",
    "prefill_s": "time to first token (s)",
    "decode_s_per_token": "time per output token (s)",
    "prompt_tokens_per_s": "prompt processing (tokens/s)",
    "decode_tokens_per_s": "generation (tokens/s)",
    "memory_bytes": "memory per GPU (bytes)",
    "capacity_bytes": "GPU memory (bytes)",
    "communication_s": "communication (s)",
    "max_batch": "largest batch that fits",
}


def _axes(ax: Any) -> Any:
    if ax is not None:
        return ax
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:  # matplotlib is optional: say how to get it
        raise ImportError("dlperf.plot needs matplotlib: pip install matplotlib") from e
    return plt.figure().add_subplot()


def _records(data: Any) -> List[Dict[str, Any]]:
    """A sweep's rows as dicts, from a DataFrame or a list of dicts."""
    if hasattr(data, "to_dict"):
        return data.to_dict("records")
    return list(data)


def _missing(value: Any) -> bool:
    """None, or the NaN a DataFrame holds in its place."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def sweep(data: Any, x: str, y: str, by: Union[str, Sequence[str], None] = None, ax: Any = None,
          logx: bool = False, logy: bool = False) -> Any:
    """Draws figure ``y`` of a :func:`dlperf.sweep` against its keyword ``x``, one line per value
    of ``by`` (a keyword or a list of them). Rows that did not run (``error``) or have no ``y``
    are left out. Raises :class:`dlperf.Error` naming a column the sweep does not have."""
    rows = _records(data)
    keys = [by] if isinstance(by, str) else list(by or [])
    if rows:
        for column in [x, y, *keys]:
            if column not in rows[0]:
                raise Error(f"plot.sweep: the sweep has no column '{column}' "
                            f"(it has: {', '.join(rows[0])})")
    lines: Dict[Tuple[Any, ...], List[Tuple[Any, Any]]] = {}
    for row in rows:
        if not _missing(row.get("error")) or _missing(row.get(y)):
            continue
        lines.setdefault(tuple(row[k] for k in keys), []).append((row[x], row[y]))
    ax = _axes(ax)
    for group, points in lines.items():
        label = ", ".join(f"{k} {v}" for k, v in zip(keys, group)) or None
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=label)
    ax.set_xlabel(x)
    ax.set_ylabel(_LABELS.get(y, y))
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    if keys:
        ax.legend()
    return ax


def roofline(gpu: str, dtype: str = "bf16", kernels: Iterable[Tuple[str, float, float]] = (),
             ax: Any = None, **options: Any) -> Any:
    """Draws the roofline of ``gpu`` in ``dtype`` (attainable TFLOP/s against FLOP per byte of
    DRAM traffic, both axes logarithmic), and each kernel ``(label, flops, bytes)`` at the
    throughput :func:`dlperf.roofline` gives it. ``options`` go to :func:`dlperf.roofline`
    (``device=``, ``sparse=``, ``accumulator=``)."""
    ridge_run = _roofline(gpu=gpu, dtype=dtype, flops=1, bytes=1, **options)
    peak = ridge_run["peak_tflops"]
    ridge = ridge_run["ridge_flops_per_byte"]
    intensities = [ridge * 10 ** (k / 10) for k in range(-30, 21)]
    ax = _axes(ax)
    ax.plot(intensities, [min(peak, peak * i / ridge) for i in intensities],
            label=f"{gpu} {dtype}")
    for label, flops, traffic in kernels:
        k = _roofline(gpu=gpu, dtype=dtype, flops=flops, bytes=traffic, **options)
        ax.plot([k["arithmetic_intensity"]], [k["attainable_tflops"]], marker="o",
                linestyle="", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("FLOP per byte of DRAM traffic")
    ax.set_ylabel("attainable TFLOP/s")
    ax.legend()
    return ax


def rank(task: str = "infer16", top: int = 10, ax: Any = None, **options: Any) -> Any:
    """Draws the ``top`` GPUs of :func:`dlperf.rank` for ``task`` as bars of their performance
    relative to its reference GPU, the best at the top. ``options`` go to :func:`dlperf.rank`."""
    rows = _rank(task=task, **options)[:top]
    ax = _axes(ax)
    ax.barh([r["id"] for r in reversed(rows)],
            [r["relative_performance"] for r in reversed(rows)])
    reference: Optional[str] = rows[0]["reference"] if rows else None
    ax.set_xlabel(f"performance relative to {reference}" if reference else "performance")
    return ax
