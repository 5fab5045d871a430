"""What dlperf's functions return: the tool's JSON as dicts and lists, which also read their
fields as attributes and show themselves in a notebook as tables, each figure written as the
tool's text output writes it (the same C++ formatting as the tool and the page).

    r = dlperf.model(preset="llama2_7b", gpu="h100_sxm", train=True, batch=4, seq=2048)
    r.step_time_s == r["step_time_s"]   # True
    r                                   # in Jupyter: a table, "step_time_s  …  95.2 ms"
"""

from __future__ import annotations

import html
from typing import Any, Iterable, List

from ._dlperf import format_value as _format_value

# The unit each field's name says it is in (the JSON's keys are SI units, named by their
# suffix), as format_value takes it; rates ("tokens_per_s") are plain numbers.
_RATES = ("_per_s", "_per_second")
_SUFFIXES = (
    ("_s_per_token", "s"),
    ("_s", "s"),
    ("_bytes", "B"),
    ("_usd", "$"),
    ("_hz", "Hz"),
    ("_watts", "W"),
)
_FRACTIONS = ("mfu", "utilisation", "utilization", "fraction", "share", "efficiency")

# The rows a list shows in a notebook before it says how many more there are.
LIST_ROWS = 30


def _unit(key: str) -> str:
    """The unit format_value writes field @p key's number in: "" for a plain number."""
    if key.endswith("_bytes_per_s"):
        return "B/s"
    if key.endswith(_RATES):
        return ""
    for suffix, unit in _SUFFIXES:
        if key.endswith(suffix):
            return unit
    if any(key == f or key.endswith("_" + f) for f in _FRACTIONS):
        return "%"
    return ""


def _text(key: str, value: Any) -> str:
    """A field's value for a person: a number in its unit, a scalar as it is, a nested value by
    its size."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "-"}[value]
    unit = _unit(key) if isinstance(value, (int, float)) else None
    if isinstance(value, int) and not unit:
        return str(value)  # a count (a batch, a sequence) exactly
    if isinstance(value, (int, float)):
        # A large plain number (parameters) with an SI prefix: "6.74 G".
        if not unit and abs(value) >= 1e6:
            return _format_value(" ", float(value)).strip()
        return _format_value(unit or "", float(value))
    if isinstance(value, dict):
        return f"{len(value)} fields"
    if isinstance(value, list):
        return f"{len(value)} items"
    return str(value)


def _cell(key: str, value: Any) -> str:
    return "<td>" + html.escape(_text(key, value)) + "</td>"


class Report(dict):
    """One report: the dict ``dlperf COMMAND --json`` prints, its fields also attributes
    (``r.step_time_s``), shown in a notebook as a table of its fields."""

    __slots__ = ()

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"this report has no field {key!r}") from None

    def __dir__(self) -> Iterable[str]:
        return list(super().__dir__()) + [k for k in self if isinstance(k, str)]

    def __repr__(self) -> str:
        return f"Report({dict.__repr__(self)})"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th>{_cell(k, v)}</tr>"
                       for k, v in self.items())
        return f"<table class=\"dlperf-report\">{rows}</table>"


class ReportList(list):
    """A list of reports (a ranking, advice, the catalog): shown in a notebook as one table, a
    row per entry and a column per field of the first."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"ReportList({list.__repr__(self)})"

    def _repr_html_(self) -> str:
        if not self or not isinstance(self[0], dict):
            return "<pre>" + html.escape(repr(self)) + "</pre>"
        columns: List[str] = [k for k, v in self[0].items() if not isinstance(v, (dict, list))]
        head = "".join(f"<th>{html.escape(k)}</th>" for k in columns)
        body = "".join(
            "<tr>" + "".join(_cell(k, row.get(k)) for k in columns) + "</tr>"
            for row in self[:LIST_ROWS])
        more = len(self) - LIST_ROWS
        note = f"<p>{more} more (the list holds all {len(self)})</p>" if more > 0 else ""
        return f"<table class=\"dlperf-report\"><tr>{head}</tr>{body}</table>{note}"


def wrap(value: Any) -> Any:
    """@p value as a Report (a dict) or a ReportList of Reports (a list); anything else as it
    is."""
    if isinstance(value, dict):
        return Report(value)
    if isinstance(value, list):
        return ReportList(Report(e) if isinstance(e, dict) else e for e in value)
    return value
