"""dlperf.plot draws the numbers it is given: a sweep's points, a GPU's roofline (its peak and
its ridge point) and a ranking, each as the package's functions return them."""

import pytest

import dlperf
from conftest import optional


@pytest.fixture(autouse=True)
def agg():
    """matplotlib without a display; skipped without matplotlib (conftest.optional)."""
    optional("matplotlib").use("Agg")
    import dlperf.plot  # noqa: F401


def test_a_sweep_plot_has_one_line_per_group_with_its_rows():
    rows = dlperf.sweep(frame=False, gpu=["rtx_4090", "h100_sxm"], preset="llama3_8b",
                        mode="infer", prompt=512, generate=128, batch=[1, 8, 32])
    ax = dlperf.plot.sweep(rows, x="batch", y="decode_tokens_per_s", by="gpu")
    lines = ax.get_lines()
    assert [line.get_label() for line in lines] == ["gpu rtx_4090", "gpu h100_sxm"]
    for line, gpu in zip(lines, ["rtx_4090", "h100_sxm"]):
        mine = [r for r in rows if r["gpu"] == gpu]
        assert list(line.get_xdata()) == [r["batch"] for r in mine]
        assert list(line.get_ydata()) == [r["decode_tokens_per_s"] for r in mine]
    assert ax.get_ylabel() == "generation (tokens/s)"


def test_a_sweep_plot_draws_a_dataframe_as_its_rows():
    optional("pandas")
    grid = dict(gpu=["rtx_4090", "mi300x"], preset="llama3_8b", mode="infer", prompt=512,
                generate=128, batch=[1, 8], stack=["vllm", "vllm-rocm", "llama.cpp"])
    frame = dlperf.plot.sweep(dlperf.sweep(**grid), x="batch", y="decode_tokens_per_s",
                              by=["gpu", "stack"])
    rows = dlperf.plot.sweep(dlperf.sweep(frame=False, **grid), x="batch",
                             y="decode_tokens_per_s", by=["gpu", "stack"])
    # vLLM's CUDA build and llama.cpp's do not run on the MI300X, nor vLLM's ROCm build on the
    # RTX 4090: three lines, in both.
    assert [line.get_label() for line in frame.get_lines()] == [
        "gpu rtx_4090, stack vllm", "gpu rtx_4090, stack llama.cpp", "gpu mi300x, stack vllm-rocm"]
    for a, b in zip(frame.get_lines(), rows.get_lines()):
        assert list(a.get_ydata()) == list(b.get_ydata())


def test_a_sweep_plot_leaves_out_rows_that_did_not_run_and_names_a_missing_column():
    rows = dlperf.sweep(frame=False, gpu="h100_sxm", preset="gpt2", batch=[0, 1, 2])
    ax = dlperf.plot.sweep(rows, x="batch", y="step_time_s")
    assert list(ax.get_lines()[0].get_xdata()) == [1, 2]
    with pytest.raises(dlperf.Error, match="no column 'speed'"):
        dlperf.plot.sweep(rows, x="batch", y="speed")


def test_a_roofline_plot_tops_out_at_the_peak_and_puts_a_kernel_where_roofline_says():
    ax = dlperf.plot.roofline("h100_sxm", "bf16", kernels=[("GEMV", 2e9, 1e9)])
    roof, kernel = ax.get_lines()
    r = dlperf.roofline(gpu="h100_sxm", dtype="bf16", flops=2e9, bytes=1e9)
    assert max(roof.get_ydata()) == pytest.approx(r["peak_tflops"])
    assert list(kernel.get_xdata()) == [r["arithmetic_intensity"]]
    assert list(kernel.get_ydata()) == [r["attainable_tflops"]]
    assert kernel.get_ydata()[0] < r["peak_tflops"]  # a GEMV is DRAM-bound


def test_a_rank_plot_has_the_top_gpus_best_first():
    ax = dlperf.plot.rank("infer16", top=5)
    best = dlperf.rank(task="infer16")[:5]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [r["id"] for r in reversed(best)]
    assert "relative to" in ax.get_xlabel()
