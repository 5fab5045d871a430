"""dlperf from Python: the ``dlperf`` tool's commands with named arguments, returning the dicts
its ``--json`` prints, computed by the same C++ code (no NumPy, no subprocess).

Arguments are the tool's flags with ``_`` for ``-`` (``min_memory=`` is ``--min-memory``,
``from_=`` is ``--from``; ``mode="train"`` or ``"infer"``, as the JSON says it, is ``--train`` or
``--infer``); ``True`` gives a flag, ``False`` or ``None`` leaves it out, a list or
tuple is joined with commas (``cluster(gpu=["h100_sxm", "a100_sxm4_80gb"], ...)``). Numbers may
be given as numbers or as the tool's text ("4Ki", "1.5G"). Bad input raises :class:`Error` with
the tool's one-line message. A dict comes back as a :class:`Report` (its fields also
attributes, a table in a notebook) and a list as a :class:`ReportList`. See docs/python.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, TypedDict, Union

from ._dlperf import Error, version
from .report import Report, ReportList
from .request import (AdviseRequest, ClusterRequest, DebiasRequest, GemmRequest, ModelRequest,
                      PowerRequest, RankRequest, Request, RooflineRequest, SpeedupRequest,
                      TcoRequest)
from .report import wrap as _wrap
from ._dlperf import advise_json as _advise_json
from ._dlperf import cluster_json as _cluster_json
from ._dlperf import debias_json as _debias_json
from ._dlperf import gemm_json as _gemm_json
from ._dlperf import model_json as _model_json
from ._dlperf import power_json as _power_json
from ._dlperf import rank_json as _rank_json
from ._dlperf import rent_json as _rent_json
from ._dlperf import roofline_json as _roofline_json
from ._dlperf import serve_json as _serve_json
from ._dlperf import serve_keywords as _serve_keywords
from ._dlperf import speedup_json as _speedup_json
from ._dlperf import tco_json as _tco_json
from ._dlperf import request_keywords as _request_keywords
from ._dlperf import run as _run
from ._dlperf import run_fields as _run_fields
from ._dlperf import sweep as _sweep
from ._dlperf import sweep_rows as _sweep_rows

if TYPE_CHECKING:  # editors and type checkers: **run's keywords, typed
    from typing_extensions import Unpack


class RunOptions(TypedDict, total=False):
    """The keywords of one run of a model, the tool's run flags (:func:`run_fields` lists them
    with their help, from the application layer's one list), as model, speedup, rank, power,
    cluster and advise take them in ``**run``, with ``mode`` and ``link``; the request classes
    take them too. A test holds the two lists equal."""

    train: bool
    infer: bool
    mode: str  # "train" or "infer", the JSON's "mode": the same as train=True or infer=True
    batch: Union[int, str]
    seq: Union[int, str]
    image: Union[int, str]
    prompt: Union[int, str]
    generate: Union[int, str]
    dtype: str
    weights: str
    optimizer: str
    optimizer_kernels: str
    checkpointing: bool
    selective_checkpointing: str  # "ops" or "layers" (torchtitan's; docs/models.md)
    doc_tokens: Union[int, str]
    packing: bool
    nchw: bool
    no_flash: bool
    attention: str  # the attention kernel in place of the stack's (docs/stacks.md)
    eager: bool
    gpus: Union[int, str]
    zero: Union[int, str]
    tp: Union[int, str]
    async_tp: bool  # training with tp: collectives pipelined with their GEMMs (docs/parallel.md)
    pp: Union[int, str]  # training: pipeline stages (docs/parallel.md)
    vpp: Union[int, str]  # training with pp: model chunks per GPU
    cp: Union[int, str]  # training: GPUs each sequence is split over (ring attention)
    ep: Union[int, str]  # training a mixture of experts: GPUs its experts are spread over
    ep_dispatch: str  # with ep: "per-expert" (each copy) or "per-gpu" (DeepEP, HybridEP)
    shard_group: Union[int, str]  # training with zero 2/3: GPUs a shard spans (hybrid sharding)
    grad_accum: Union[int, str]
    gpus_per_node: Union[int, str]
    network: str  # training across servers: each GPU's port (hardware/links.hpp ids)
    fp32_reduce: bool
    split: str  # "tensor" or "layer" (default: the stack's; docs/parallel.md)
    link: str  # model: the link between the GPUs (hardware/links.hpp ids)
    overhead: Union[int, float, str]
    kv_dtype: str
    lora: Union[int, str]
    lora_targets: Union[str, Sequence[str]]
    qlora: bool
    gpu_layers: Union[int, str]  # llama.cpp's -ngl on one GPU (docs/models.md, "Partial offload")
    host_memory: str  # with gpu_layers: the host memory (hardware/host_memory.hpp ids)
    stack: str


__all__ = [
    "Error",
    "Report",
    "ReportList",
    "RunOptions",
    "run_fields",
    "Request",
    "ModelRequest",
    "ClusterRequest",
    "GemmRequest",
    "RooflineRequest",
    "PowerRequest",
    "DebiasRequest",
    "TcoRequest",
    "RankRequest",
    "SpeedupRequest",
    "AdviseRequest",
    "version",
    "run",
    "gpus",
    "models",
    "roofline",
    "gemm",
    "cycles",
    "model",
    "speedup",
    "rank",
    "advise",
    "power",
    "cluster",
    "tco",
    "debias",
    "export_device",
    "sweep",
]

Json = Any
Number = Union[int, float, str]
# Every argument defaults to None, the flag left out: a missing required flag is reported by the
# tool itself (dlperf.Error "--flops is required"), as on the command line.


def _text(value: Any) -> str:
    if isinstance(value, bool):  # never reached for flags; a bool where a value belongs
        raise Error(f"expected a value, got {value!r}")
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same double
    if isinstance(value, (list, tuple)):
        return ",".join(_text(v) for v in value)
    return str(value)


# mode= takes the values of the JSON's "mode" key and stands for the tool's --train or --infer.
_MODES = {"train": "--train", "infer": "--infer"}


def _command_line(command: str, options: Dict[str, Any], json: bool) -> List[str]:
    args = [command]
    for key, value in options.items():
        if value is None or value is False:
            continue
        if key == "mode":
            if not isinstance(value, str) or value not in _MODES:
                raise Error(f"mode: expected 'train' or 'infer', got {value!r}")
            args.append(_MODES[value])
            continue
        flag = "--" + key.rstrip("_").replace("_", "-")
        if value is True:
            args.append(flag)
        else:
            args += [flag, _text(value)]
    if json:
        args.append("--json")
    return args


def run(*args: str) -> Json:
    """Runs a dlperf command line as words, e.g. ``run("model", "--preset", "gpt2", ...,
    "--json")``, and returns its JSON (a :class:`Report` or :class:`ReportList`)."""
    return _wrap(_run([str(a) for a in args]))


def _call(command: str, options: Dict[str, Any], json: bool = True) -> Json:
    return _wrap(_run(_command_line(command, options, json)))


def gpus() -> List[Dict[str, Any]]:
    """The GPU catalog with derived peaks (``dlperf gpus --json``)."""
    return _call("gpus", {})


def models() -> List[Dict[str, Any]]:
    """The model presets (``dlperf models --json``)."""
    return _call("models", {})


def roofline(
    *,
    flops: Optional[Number] = None,
    bytes: Optional[Number] = None,
    gpu: Optional[str] = None,
    device: Optional[str] = None,
    dtype: Optional[str] = None,
    accumulator: Optional[str] = None,
    sparse: bool = False,
) -> Dict[str, Any]:
    """Time and bound of a workload on one GPU or device file (``dlperf roofline --json``)."""
    return _typed_report(_roofline_json, "roofline", dict(locals()))


def gemm(
    *,
    m: Optional[Number] = None,
    n: Optional[Number] = None,
    k: Optional[Number] = None,
    gpu: Optional[str] = None,
    device: Optional[str] = None,
    batch: Optional[Number] = None,
    dtype: Optional[str] = None,
    accumulator: Optional[str] = None,
    sparse: bool = False,
) -> Dict[str, Any]:
    """A GEMM's time, tile and bound (``dlperf gemm --json``)."""
    return _typed_report(_gemm_json, "gemm", dict(locals()))


def _typed_report(report: Any, command: str, options: Dict[str, Any],
                  apart: Sequence[str] = ()) -> Any:
    # The application layer takes the request by keyword (no command line to build and parse; the
    # same to_json); the tool's command line serves every refusal, for its message. The options
    # in ``apart`` chose ``report`` and are the command line's alone.
    # A keyword that is a Python word has a trailing underscore (from_); the layer's has none.
    given = [(k.rstrip("_"), _switch_or_text(v)) for k, v in options.items()
             if v is not None and v is not False and k not in apart]
    result = report(given)
    if result is not None:
        return _wrap(result)
    return _call(command, options)


def cycles(*, latencies: Optional[str] = None, device: Optional[str] = None) -> Json:
    """Instruction latencies in cycles (``dlperf cycles --json``)."""
    return _call("cycles", dict(locals()))


def model(
    *,
    preset: Optional[str] = None,
    config: Optional[str] = None,
    gpu: Optional[str] = None,
    device: Optional[str] = None,
    layers: Optional[Number] = None,
    hidden: Optional[Number] = None,
    heads: Optional[Number] = None,
    kv_heads: Optional[Number] = None,
    ffn: Optional[Number] = None,
    ffn_kind: Optional[str] = None,
    arch: Optional[str] = None,
    vocab: Optional[Number] = None,
    max_seq: Optional[Number] = None,
    experts: Optional[Number] = None,
    experts_per_token: Optional[Number] = None,
    norm: Optional[str] = None,
    head_dim: Optional[Number] = None,
    token_types: Optional[Number] = None,
    expert_ffn: Optional[Number] = None,
    shared_expert_ffn: Optional[Number] = None,
    dense_layers: Optional[Number] = None,
    q_lora_rank: Optional[Number] = None,
    kv_lora_rank: Optional[Number] = None,
    rope_head_dim: Optional[Number] = None,
    v_head_dim: Optional[Number] = None,
    untied_embeddings: bool = False,
    no_biases: bool = False,
    qkv_bias: bool = False,
    qk_norm: bool = False,
    sandwich_norms: bool = False,
    learned_positions: bool = False,
    pooler: bool = False,
    dropout: bool = False,
    serve: bool = False,
    rate: Optional[Number] = None,
    block_size: Optional[Number] = None,
    kv_fraction: Optional[Number] = None,
    step_tokens: Optional[Number] = None,
    max_seqs: Optional[Number] = None,
    concurrency: Optional[Number] = None,
    prompt_min: Optional[Number] = None,
    generate_min: Optional[Number] = None,
    power_limit: Optional[Number] = None,
    **run: Unpack[RunOptions],
) -> Dict[str, Any]:
    """A whole model's training step or inference on a GPU: step time, tokens/s, the memory
    breakdown and whether it fits (``dlperf model --json``). ``config`` is a model file
    (docs/models.md); ``layers``, ``hidden``, ``heads``, ``vocab``, ``max_seq`` and the other
    shape keywords describe a transformer instead (the tool's shape flags, docs/models.md,
    "Describing a model"); ``run`` holds the run flags (train, infer, batch, seq, dtype, weights, stack,
    ...). ``serve=True`` gives continuous-batching serving instead (``--serve``, with ``rate``,
    ``block_size``, ``kv_fraction``, ``step_tokens``, ``max_seqs``, ``concurrency``, and
    ``prompt_min`` and ``generate_min`` for lengths spread up to ``prompt`` and ``generate``;
    docs/models.md, "Serving").
    ``power_limit`` is the watts each GPU is limited to (``--power-limit``; docs/buying.md, "Power")."""
    options = dict(locals())
    options.update(options.pop("run"))
    # A request whose every keyword the application layer takes runs there (_typed_report); any
    # other goes to the tool's command line, which names the keyword it does not know.
    report, keywords = (_serve_json, _SERVE_REQUEST_KEYWORDS) if serve else (
        _model_json, _REQUEST_KEYWORDS)
    given = {k for k, v in options.items() if v is not None and v is not False} - {"serve"}
    if given <= keywords:
        return _typed_report(report, "model", options, apart=("serve",))
    return _call("model", options)


def speedup(
    *,
    from_: Optional[str] = None,
    to: Optional[str] = None,
    from_device: Optional[str] = None,
    to_device: Optional[str] = None,
    preset: Optional[str] = None,
    **run: Unpack[RunOptions],
) -> Json:
    """How much faster GPU ``to`` is than ``from_`` (``dlperf speedup --json``): the guide's rule
    and, with ``preset`` and its ``run``, the modelled steps; ``from_device`` and ``to_device`` are
    device files instead of the ids."""
    options = dict(locals())
    options.update(options.pop("run"))
    return _typed_report(_speedup_json, "speedup", options)


def rank(
    *,
    task: Optional[str] = None,
    gpus: Optional[Number] = None,
    min_memory: Optional[Number] = None,
    prices: Optional[str] = None,
    host_cost: Optional[Number] = None,
    prices_at: Optional[str] = None,
    device: Optional[str] = None,
    **run: Unpack[RunOptions],
) -> Json:
    """GPUs by performance and performance per dollar (``dlperf rank --json``); ``prices`` is a
    price file (docs/buying.md), ``prices_at`` "launch" or "market", ``device`` a device file whose
    GPU joins the ranking, and ``run`` the run of a preset ``task``."""
    options = dict(locals())
    options.update(options.pop("run"))
    return _typed_report(_rank_json, "rank", options)


def advise(
    *,
    preset: Optional[str] = None,
    use_case: Optional[str] = None,
    task: Optional[str] = None,
    budget: Optional[Number] = None,
    gpus: Optional[Number] = None,
    prices: Optional[str] = None,
    host_cost: Optional[Number] = None,
    device: Optional[str] = None,
    top: Optional[Number] = None,
    rent: bool = False,
    by: Optional[str] = None,
    prices_at: Optional[str] = None,
    years: Optional[Number] = None,
    utilization: Optional[Number] = None,
    kwh_price: Optional[Number] = None,
    dataset_tokens: Optional[Number] = None,
    epochs: Optional[Number] = None,
    **run: Unpack[RunOptions],
) -> Json:
    """GPUs to buy for a model or use case, with reasons (``dlperf advise --json``), ranked by
    ``by`` ("cost" per task, the default; "time" per task; "perf_per_dollar") at ``prices_at``
    ("market", the default, or "launch") prices, a task's cost spread over ``years`` of
    ``utilization`` at ``kwh_price`` (default: a desk's residential price, a data-centre board's
    commercial price times the facility's PUE); with ``rent=True``, GPUs to rent, cheapest per million
    tokens first (``dlperf advise --rent``). A training run with ``dataset_tokens`` (and
    ``epochs``) also times and prices that job on each GPU. ``host_cost`` is the host's price in
    USD whatever the GPU count, and ``device`` a device file whose GPU joins the candidates."""
    options = dict(locals())
    options.update(options.pop("run"))
    return _typed_report(_rent_json if rent else _advise_json, "advise", options, apart=("rent",))


def power(
    *,
    gpu: Optional[str] = None,
    device: Optional[str] = None,
    count: Optional[Number] = None,
    limit: Optional[Number] = None,
    rest_watts: Optional[Number] = None,
    compute_share: Optional[Number] = None,
    preset: Optional[str] = None,
    **run: Unpack[RunOptions],
) -> Json:
    """Power of ``count`` GPUs and their system, the PSU it needs, and what a power limit of
    ``limit`` watts saves and costs (``dlperf power --json``); ``device`` is a device file instead
    of ``gpu``, and ``run`` holds the run of ``preset``, whose estimate gives the compute share."""
    options = dict(locals())
    options.update(options.pop("run"))
    return _typed_report(_power_json, "power", options)


def cluster(
    *,
    gpu: Optional[Union[str, Sequence[str]]] = None,
    device: Optional[str] = None,
    link: Optional[str] = None,
    preset: Optional[str] = None,
    bucket: Optional[Number] = None,
    power_limit: Optional[Number] = None,
    **run: Unpack[RunOptions],
) -> Json:
    """A training job on several GPUs: all-reduce, step, speed-up and efficiency
    (``dlperf cluster --json``); ``gpu`` is one id or several (repeated in order to fill
    ``gpus``), ``device`` a device file instead, ``power_limit`` the watts each GPU is limited
    to."""
    options = dict(locals())
    options.update(options.pop("run"))
    return _typed_report(_cluster_json, "cluster", options)


def tco(
    *,
    gpu: Optional[str] = None,
    device: Optional[str] = None,
    count: Optional[Number] = None,
    prices: Optional[str] = None,
    host_cost: Optional[Number] = None,
    gpu_watts: Optional[Number] = None,
    kwh_price: Optional[Number] = None,
    system_price: Optional[Number] = None,
    cloud_hourly: Optional[Number] = None,
    other_watts: Optional[Number] = None,
    utilization: Optional[Number] = None,
    preset_utilization: Optional[str] = None,
    days: Optional[Number] = None,
    grid_kg_per_kwh: Optional[Number] = None,
    billing: Optional[str] = None,
) -> Json:
    """Desktop against cloud: cost of ownership and break-even (``dlperf tco --json``). With
    ``gpu`` the board's power and price come from the catalog and the cloud price from the
    built-in offers unless ``cloud_hourly`` or a ``prices`` file gives one; ``device`` is a device
    file instead of ``gpu``."""
    return _typed_report(_tco_json, "tco", dict(locals()))


def debias(
    *,
    ratio: Optional[Number] = None,
    batch_from: Optional[Number] = None,
    batch_to: Optional[Number] = None,
    gpus_from: Optional[Number] = None,
    gpus_to: Optional[Number] = None,
    kind: Optional[str] = None,
    efficiency_from: Optional[Number] = None,
    efficiency_to: Optional[Number] = None,
    gpu_from: Optional[str] = None,
    gpu_to: Optional[str] = None,
    device_from: Optional[str] = None,
    device_to: Optional[str] = None,
    link_from: Optional[str] = None,
    link_to: Optional[str] = None,
    preset: Optional[str] = None,
) -> Dict[str, Any]:
    """A reported throughput ratio (``to`` over ``from``) with batch and GPU-count differences
    taken out (``dlperf debias --json``): each side's efficiency is given, from the multi-GPU
    model (``gpu_X`` or ``device_X`` with ``link_X``, running ``preset``), or linear."""
    return _typed_report(_debias_json, "debias", dict(locals()))


def export_device(*, gpu: str) -> Dict[str, Any]:
    """The device file of catalog GPU ``gpu`` (``dlperf export --gpu ID``), to edit and pass
    back as ``device=``."""
    return _call("export", {"gpu": gpu}, json=False)


# The figures of a sweep's row, in the order of its columns (dlperf/app/sweep.hpp).
SWEEP_FIGURES = (
    "error",
    "fits",
    "step_time_s",
    "samples_per_s",
    "tokens_per_s",
    "tflops",
    "mfu",
    "prefill_s",
    "decode_s_per_token",
    "prompt_tokens_per_s",
    "decode_tokens_per_s",
    "memory_bytes",
    "capacity_bytes",
    "communication_s",
    "max_batch",
)


# Every keyword a model request takes in the application layer (dlperf/app/keyword_request.hpp).
_REQUEST_KEYWORDS = frozenset(_request_keywords())
# And a serving request's (dlperf/app/serve_report.hpp).
_SERVE_REQUEST_KEYWORDS = _REQUEST_KEYWORDS | frozenset(_serve_keywords())


def run_fields() -> List[Dict[str, Any]]:
    """Every run field a request, a sweep axis and the tool's run flags take, from the one list
    they all come from: keyword (``grad_accum``), flag (``--grad-accum``), kind (``"text"``,
    ``"choice"`` or ``"toggle"``), job_layout (whether it lays out a job over GPUs: rank, power,
    speedup and advise choose that themselves), help (the tool's help line), default (as text;
    ``""`` where not given) and names (the values a choice takes, or the catalog ids a text field
    such as ``network`` reads)."""
    return _run_fields()


def _switch_or_text(value: Any) -> str:
    if isinstance(value, bool):  # a switch of the run (checkpointing=[False, True])
        return "true" if value else "false"
    return _text(value)


def sweep(request: Optional[ModelRequest] = None, *, threads: int = 0,
          frame: Optional[bool] = None, **axes: Any) -> Any:
    """Runs ``dlperf model`` over a grid: every keyword takes one value or a list of them
    (``gpu=["rtx_4090", "h100_sxm"], preset="llama3_8b", batch=[1, 8, 32], mode="infer"``),
    and each combination of them is one estimate, computed in C++ on ``threads`` threads (0:
    every core) without the GIL. A :class:`ModelRequest` given first is the grid's base: each of
    its keywords is an axis of its one value, unless ``axes`` gives that keyword (its column then
    stands where the request has it).

    The keywords: ``gpu`` or ``device`` (a device file), ``preset`` or ``config`` (a model
    file) or the model's shape (``layers``, ``hidden``, ``heads``, ``vocab``, ``max_seq`` and the
    other shape keywords of :func:`model`), ``power_limit``, ``link``, ``mode`` and every run
    flag of :func:`model` (``batch``, ``seq``, ``prompt``, ``generate``, ``dtype``, ``weights``,
    ``stack``, ``gpus``, ``tp``, ...).
    Each row holds its keywords' values and the figures ``dlperf model --json`` gives for it,
    bit for bit (:data:`SWEEP_FIGURES`, in SI units; None where that JSON has null). A
    combination the model refuses comes back as a row whose ``error`` says why.

    Returns a pandas DataFrame when pandas is installed (``frame=None``) or ``frame=True``, else
    a list of dicts, in the order of ``itertools.product`` over the keywords as given.
    """
    if request is not None:
        if not isinstance(request, ModelRequest):
            raise Error(f"sweep: the request must be a ModelRequest, not {type(request).__name__}")
        axes = {**request.keywords(), **axes}
    names = list(axes)
    values = [
        list(v) if isinstance(v, (list, tuple, range)) else [v] for v in axes.values()
    ]
    grid = [(k, [_switch_or_text(x) for x in vs]) for k, vs in zip(names, values)]
    if frame is None:
        try:
            import pandas  # noqa: F401
        except ImportError:
            frame = False
        else:
            frame = True
    if frame:
        import pandas

        columns = _sweep(grid, threads)
        # Each input's column in itertools.product's order, by list repetition: each value
        # repeated for the points of the later axes, the whole repeated for the earlier ones.
        data: Dict[str, Any] = {}
        inner = len(columns["error"])
        outer = 1
        for name, vs in zip(names, values):
            inner //= len(vs)
            block: List[Any] = []
            for v in vs:
                block += [v] * inner
            data[name] = block * outer
            outer *= len(vs)
        data.update({k: columns[k] for k in SWEEP_FIGURES})
        return pandas.DataFrame(data)
    # The rows' dicts are built in C++, each with its inputs as given here (docs/python.md,
    # "What a sweep costs").
    return _sweep_rows(grid, values, threads)
