"""dlperf.sweep: a grid of model estimates through the application layer, each row exactly the
figures `dlperf model --json` prints for its point (the same C++ code computes both), rows that
cannot run carrying the tool's own reason, and the grid's order that of itertools.product."""

import itertools
import math

import pytest

import dlperf
from conftest import optional

# A grid over GPUs of both vendors, stacks and shapes: 2 x 2 x 2 x 3 = 24 points, some refused
# (llama.cpp's ROCm build on the NVIDIA card).
GRID = dict(
    gpu=["rtx_4090", "mi300x"],
    preset="llama3_8b",
    mode="infer",
    prompt=512,
    generate=[0, 128],
    batch=[1, 8],
    stack=["ceiling", "vllm", "llama.cpp-rocm"],
)


def _line(point):
    """The tool's command line for one point of GRID."""
    words = ["model", "--json"]
    for key, value in point.items():
        if key == "mode":
            words.append("--" + value)
        else:
            words += ["--" + key.replace("_", "-"), str(value)]
    return " ".join(words)


def _points(grid):
    names = list(grid)
    values = [v if isinstance(v, list) else [v] for v in grid.values()]
    return [dict(zip(names, p)) for p in itertools.product(*values)]


def test_every_row_is_the_tools_json_for_its_point(cli):
    rows = dlperf.sweep(frame=False, **GRID)
    points = _points(GRID)
    assert len(rows) == len(points) == 24
    ran = refused = 0
    for row, point in zip(rows, points):
        for key, value in point.items():
            assert row[key] == value
        result = cli.run(_line(point))
        if result.returncode == 2:
            refused += 1
            assert row["error"] == result.stderr.strip()[len("dlperf: error: "):]
            assert row["step_time_s"] is None and row["fits"] is None
            continue
        ran += 1
        j = cli.json(_line(point))
        assert row["error"] is None
        for key in ("step_time_s", "samples_per_s", "tokens_per_s", "tflops", "mfu", "fits",
                    "max_batch", "prefill_s", "decode_s_per_token", "prompt_tokens_per_s",
                    "decode_tokens_per_s", "communication_s"):
            assert row[key] == j[key], key  # bit for bit, None where the JSON has null
        assert row["memory_bytes"] == j["memory"]["total_bytes"]
        assert row["capacity_bytes"] == j["memory"]["capacity_bytes"]
    # llama.cpp-rocm is refused on the RTX 4090, and vllm (its CUDA build) on the MI300X.
    assert ran == 16 and refused == 8


def test_a_shape_is_a_grid_of_its_own_every_row_the_tools_json(cli):
    # The model by its shape (layers, hidden, ...): each point's transformer is the one the
    # tool's shape flags describe with the same values.
    grid = dict(layers=[12, 24], hidden=[1024, 2048], heads=16, kv_heads=[4, 16], vocab=32000,
                max_seq=4096, ffn_kind="swiglu", norm="rmsnorm", no_biases=True, gpu="h100_sxm",
                mode="infer", prompt=512, generate=128)
    rows = dlperf.sweep(frame=False, **grid)
    assert len(rows) == 8
    for row, point in zip(rows, _points(grid)):
        words = ["model", "--json"]
        for key, value in point.items():
            flag = "--" + key.replace("_", "-")
            words += [flag] if value is True else ["--infer"] if key == "mode" else [flag, str(value)]
        j = cli.json(" ".join(words))
        assert row["error"] is None
        assert (row["decode_tokens_per_s"], row["memory_bytes"]) == (
            j["decode_tokens_per_s"], j["memory"]["total_bytes"])
    with pytest.raises(dlperf.Error, match="give a model by preset or by its shape"):
        dlperf.sweep(preset="gpt2", hidden=[768, 1024], gpu="h100_sxm")


def test_one_thread_and_every_core_give_the_same_rows():
    grid = dict(gpu=["t4", "a100_sxm4_80gb"], preset=["gpt2", "llama2_7b"], batch=[1, 4, 16],
                seq=[256, 1024], checkpointing=[False, True])
    assert dlperf.sweep(threads=1, frame=False, **grid) == dlperf.sweep(frame=False, **grid)


def test_rows_are_finite_and_never_above_peak():
    rows = dlperf.sweep(frame=False, gpu=["rtx_3090", "h100_sxm", "mi300x"],
                        preset=["gpt2", "llama3_8b"], batch=[1, 2, 4, 8, 16, 32],
                        seq=[256, 1024], mode=["train", "infer"])
    assert len(rows) == 144
    for row in rows:
        assert row["error"] is None, row
        assert math.isfinite(row["step_time_s"]) and row["step_time_s"] > 0
        assert 0 < row["mfu"] <= 1


def test_a_bad_value_is_a_row_and_a_bad_grid_an_error():
    rows = dlperf.sweep(frame=False, gpu="h100_sxm", preset="gpt2", batch=[0, 1])
    assert rows[0]["error"] == "--batch '0' must be in [1, 16777216]"
    assert rows[1]["error"] is None
    with pytest.raises(dlperf.Error, match="unknown run field 'batchsize'"):
        dlperf.sweep(gpu="h100_sxm", preset="gpt2", batchsize=[1, 2])
    with pytest.raises(dlperf.Error, match="give a device"):
        dlperf.sweep(preset="gpt2")
    with pytest.raises(dlperf.Error, match="'batch' has no values"):
        dlperf.sweep(gpu="h100_sxm", preset="gpt2", batch=[])


def test_a_frame_has_one_row_per_point():
    pandas = optional("pandas")
    frame = dlperf.sweep(gpu=["rtx_4090", "h100_sxm"], preset="llama3_8b", batch=[1, 8],
                         mode="infer", prompt=512, generate=128)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame["gpu"]) == ["rtx_4090", "rtx_4090", "h100_sxm", "h100_sxm"]
    assert list(frame["batch"]) == [1, 8, 1, 8]
    assert frame["error"].isna().all()
    assert (frame["decode_tokens_per_s"] > 0).all()


def test_a_list_of_dicts_holds_the_frames_rows_in_the_same_order():
    pandas = optional("pandas")
    rows = dlperf.sweep(frame=False, **GRID)
    frame = dlperf.sweep(frame=True, **GRID)
    assert len(rows) == len(frame) == 24
    # Each row: the grid's keywords as given, then SWEEP_FIGURES, in that order.
    assert all(list(r) == list(GRID) + list(dlperf.SWEEP_FIGURES) for r in rows)
    for row, (_, framed) in zip(rows, frame.iterrows()):
        for key, value in row.items():
            if value is None:
                assert pandas.isna(framed[key]), key
            else:
                assert framed[key] == value, key


def test_the_rows_binding_refuses_labels_that_do_not_match_the_axes():
    from dlperf import _dlperf

    axes = [("gpu", ["h100_sxm"]), ("preset", ["gpt2"]), ("batch", ["1", "2"])]
    with pytest.raises(ValueError, match="one list of labels for each axis"):
        _dlperf.sweep_rows(axes, [["h100_sxm"], ["gpt2"]])
    with pytest.raises(ValueError, match="one label for each value of an axis"):
        _dlperf.sweep_rows(axes, [["h100_sxm"], ["gpt2"], [1]])
    rows = _dlperf.sweep_rows(axes, [["H100"], ["GPT-2"], [1, 2]])
    assert [(r["gpu"], r["preset"], r["batch"]) for r in rows] == [("H100", "GPT-2", 1),
                                                                    ("H100", "GPT-2", 2)]



def test_an_expert_split_that_does_not_divide_is_a_row_with_its_reason():
    # Qwen3-30B-A3B on 16 H100s: its experts over 8 or 16 GPUs, not 3; the once-a-GPU dispatch
    # sends fewer bytes across the two servers than each copy.
    rows = dlperf.sweep(frame=False, gpu="h100_sxm", preset="qwen3_30b_a3b", train=True, gpus=16,
                        zero=1, seq=4096, stack="megatron", ep=[16, 3],
                        ep_dispatch=["per-expert", "per-gpu"])
    assert len(rows) == 4
    by = {(r["ep"], r["ep_dispatch"]): r for r in rows}
    assert by[(16, "per-expert")]["error"] is None
    assert by[(16, "per-gpu")]["tokens_per_s"] > by[(16, "per-expert")]["tokens_per_s"]
    for dispatch in ("per-expert", "per-gpu"):
        assert "must divide the GPUs of a pipeline stage" in by[(3, dispatch)]["error"]
