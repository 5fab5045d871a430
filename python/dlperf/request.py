"""Requests as objects: one class per command that the application layer runs by keyword, each
built with the keywords of the package's function of that command, checked when it is built,
and estimated when asked. A request shows itself as the call it stands for and, in a notebook,
as a table of its keywords with the tool's command line under it.

    q = dlperf.ModelRequest(preset="llama3_8b", gpu="h100_sxm", mode="infer", batch=8)
    q.batch                      # 8
    q.replace(batch=32)          # the same request at another batch
    q.command_line()             # "dlperf model --preset llama3_8b --gpu h100_sxm --infer ..."
    q.estimate()                 # the Report dlperf.model(**q.keywords()) gives
    dlperf.sweep(q, gpu=["rtx_4090", "h100_sxm"], batch=[1, 8, 32])
"""

from __future__ import annotations

import difflib
import html
import importlib
import inspect
import shlex
from typing import Any, Callable, ClassVar, Dict, FrozenSet, Optional, TypeVar

from ._dlperf import Error

R = TypeVar("R", bound="Request")


class Request:
    """A request of one command by keyword: the keywords of the package's function ``command``
    (``dlperf.model``'s for :class:`ModelRequest`), values as that function takes them. A keyword
    the function does not take is refused when the request is built, naming the keywords it
    takes; a value is checked when the request is estimated, by the same code as the tool's
    flag. ``None`` leaves a keyword out."""

    __slots__ = ("_keywords",)
    command: ClassVar[str] = ""  # the package function (and the tool command) it stands for
    _accepted: ClassVar[Optional[FrozenSet[str]]] = None

    def __init__(self, **keywords: Any) -> None:
        accepted = self.accepted_keywords()
        for key in keywords:
            if key not in accepted:
                close = difflib.get_close_matches(key, accepted, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise Error(f"{type(self).__name__}: unknown keyword {key!r}{hint} (valid: "
                            f"{', '.join(sorted(accepted))})")
        object.__setattr__(self, "_keywords",
                           {k: v for k, v in keywords.items() if v is not None})

    @classmethod
    def _function(cls) -> Callable[..., Any]:
        return getattr(importlib.import_module(__package__), cls.command)

    @classmethod
    def keyword_annotations(cls) -> Dict[str, Any]:
        """Each keyword of the package's function with its annotation: its own, then the run's
        (``RunOptions``) where it takes a run (python/tools/request_stubs.py types the
        requests' stub from these)."""
        parameters = inspect.signature(cls._function()).parameters.values()
        out = {p.name: p.annotation for p in parameters if p.kind is p.KEYWORD_ONLY}
        if any(p.kind is p.VAR_KEYWORD for p in parameters):
            run = importlib.import_module(__package__).RunOptions.__annotations__
            for name, annotation in run.items():
                out.setdefault(name, annotation)
        return out

    @classmethod
    def accepted_keywords(cls) -> FrozenSet[str]:
        """The keywords of the package's function: its own, and the run's (``RunOptions``)
        where it takes a run."""
        if cls.__dict__.get("_accepted") is None:
            cls._accepted = frozenset(cls.keyword_annotations())
        return cls._accepted  # type: ignore[return-value]

    def keywords(self) -> Dict[str, Any]:
        """The keywords given, in the order given (a copy)."""
        return dict(self._keywords)

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        if key in self.accepted_keywords():
            return self._keywords.get(key)
        raise AttributeError(f"{type(self).__name__} has no keyword {key!r}")

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"a {type(self).__name__} does not change: use replace({key}=...)")

    def replace(self: R, **changes: Any) -> R:
        """This request with ``changes`` (a keyword set to None is left out)."""
        return type(self)(**{**self._keywords, **changes})

    def estimate(self) -> Any:
        """The report: what ``dlperf.<command>(**keywords)`` returns."""
        return self._function()(**self._keywords)

    def command_line(self) -> str:
        """The ``dlperf`` command line of this request, for a terminal (shell-quoted)."""
        package = importlib.import_module(__package__)
        return "dlperf " + shlex.join(package._command_line(self.command, self._keywords, False))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._keywords == self._keywords  # type: ignore

    __hash__ = None  # type: ignore[assignment]  # its values may be lists

    def __repr__(self) -> str:
        given = ", ".join(f"{k}={v!r}" for k, v in self._keywords.items())
        return f"{type(self).__name__}({given})"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(repr(v))}</td></tr>"
                       for k, v in self._keywords.items())
        line = html.escape(self.command_line())
        return (f"<table class=\"dlperf-request\"><caption>{type(self).__name__}</caption>"
                f"{rows}</table><pre>{line}</pre>")


class ModelRequest(Request):
    """A whole model's training step, inference or (``serve=True``) serving on a GPU: the
    keywords of :func:`dlperf.model`."""

    __slots__ = ()
    command = "model"


class ClusterRequest(Request):
    """A training job on several GPUs: the keywords of :func:`dlperf.cluster`."""

    __slots__ = ()
    command = "cluster"


class GemmRequest(Request):
    """One GEMM on one GPU: the keywords of :func:`dlperf.gemm`."""

    __slots__ = ()
    command = "gemm"


class RooflineRequest(Request):
    """A workload's FLOP over its bytes on one GPU: the keywords of :func:`dlperf.roofline`."""

    __slots__ = ()
    command = "roofline"


class PowerRequest(Request):
    """GPUs and their system's power, and a power limit: the keywords of :func:`dlperf.power`."""

    __slots__ = ()
    command = "power"


class DebiasRequest(Request):
    """A reported ratio with its batch and GPU-count advantages taken out: the keywords of
    :func:`dlperf.debias`."""

    __slots__ = ()
    command = "debias"


class TcoRequest(Request):
    """Desktop against cloud, the cost of ownership: the keywords of :func:`dlperf.tco`."""

    __slots__ = ()
    command = "tco"


class RankRequest(Request):
    """GPUs by performance and performance per dollar: the keywords of :func:`dlperf.rank`."""

    __slots__ = ()
    command = "rank"


class SpeedupRequest(Request):
    """How much faster one GPU is than another: the keywords of :func:`dlperf.speedup`."""

    __slots__ = ()
    command = "speedup"


class AdviseRequest(Request):
    """GPUs to buy (or with ``rent=True``, to rent) for a model or use case: the keywords of
    :func:`dlperf.advise`."""

    __slots__ = ()
    command = "advise"


REQUESTS = (ModelRequest, ClusterRequest, GemmRequest, RooflineRequest, PowerRequest,
            DebiasRequest, TcoRequest, RankRequest, SpeedupRequest, AdviseRequest)
