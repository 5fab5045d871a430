"""Bad input: the CLI's own rejected command lines (tests/cli/cli_*_test.cpp) raise dlperf.Error
with exactly the tool's one stderr line, and no argument crashes the interpreter."""

import math

import pytest

import dlperf
from conftest import call_from_line

BAD = [
    "roofline --gpu rtx_9090 --flops 1 --bytes 1",
    "roofline --gpu rtx_4090 --flops 1 --bytes 1 --dtype fp7",
    "roofline --gpu rtx_4090 --flops -5 --bytes 1",
    "roofline --gpu rtx_4090 --flops abc --bytes 1",
    "roofline --gpu rtx_4090 --flops 1 --bytes 12parsecs",
    "roofline --gpu rtx_4090 --flops nan --bytes 1",
    "roofline --gpu rtx_4090 --flops inf --bytes 1",
    "roofline --gpu rtx_4090 --flops 0 --bytes 0",
    "roofline --gpu a100_sxm4_40gb --flops 1 --bytes 1 --dtype fp8_e4m3",
    "roofline --gpu gtx_1080 --flops 1 --bytes 1 --dtype bf16",
    "roofline --gpu v100_sxm2 --flops 1 --bytes 1 --sparse",
    "roofline --gpu rtx_4090 --flops 1 --bytes 1 --accumulator fp64",
    "roofline --flops 1 --bytes 1",
    "roofline --gpu t4 --flops 1",
    "roofline --gpu t4 --device missing.json --flops 1 --bytes 1",
    "gemm --gpu a100_sxm4_40gb --m 0 --n 1 --k 1",
    "gemm --gpu a100_sxm4_40gb --m 8 --n 1.5 --k 1",
    "gemm --gpu a100_sxm4_40gb --m 8 --n 8 --k -8",
    "gemm --gpu nope --m 8 --n 8 --k 8",
    "gemm --gpu v100_sxm2 --m 8 --n 8 --k 8 --sparse",
    "gemm --gpu a100_sxm4_40gb --m 8 --n 8",
    "cycles --latencies 1999",
    "cycles --latencies turing_tu11x",
    "model --preset gpt5 --gpu h100_sxm",
    "model --gpu h100_sxm",
    "model --preset gpt2 --gpu h100_sxm --batch 0",
    "model --preset gpt2 --gpu h100_sxm --dtype fp7",
    "model --preset gpt2 --gpu h100_sxm --config nonexistent.json",
    "model --preset gpt2 --gpu h100_sxm --train --infer",
    "model --layers 12 --gpu h100_sxm",
    "speedup --from v100_sxm3 --to a100_sxm4_40gb",
    "speedup --to a100_sxm4_40gb",
    "speedup --from gtx_1080 --to v100_sxm2",
    "speedup --from a100_sxm4_40gb --to mi300x",
    "speedup --from v100_sxm2 --to a100_sxm4_40gb --preset gpt5",
    "advise",
    "advise --use-case gaming",
    "advise --use-case kaggle --gpus 3",
    "advise --use-case kaggle --budget -5",
    "advise --use-case kaggle --budget 0",
    "advise --use-case kaggle --top 0",
    "advise --use-case kaggle --prices /nonexistent.json",
    "cluster --gpu rtx_3090 --gpus 0 --link pcie4_x16",
    "cluster --gpu rtx_3090 --gpus 4 --link pcie9_x16",
    "cluster --gpu rtx_3090 --gpus 4",
    "cluster --gpu rtx_9999 --gpus 4 --link nvlink3",
    "cluster --gpu rtx_3090 --gpus 4 --link nvlink3 --tp 2",
    "debias --ratio -1",
    "debias",
    "debias --ratio 2 --kind rnn",
    "power --gpu rtx_3090 --count 0",
    "power --gpu rtx_3090 --limit 400",
    "power --gpu rtx_3090 --compute-share 1.5",
    "tco --gpu-watts 450 --other-watts 150 --kwh-price 0.3 --system-price 3000 --cloud-hourly 1.1 --days 0",
    "rank --task train32",
    "rank --task infer8 --gpus 3",
    "rank --task infer8 --min-memory -4",
    "rank --task infer8 --prices /nonexistent/prices.json",
    "export --gpu rtx_9999",
]


@pytest.mark.parametrize("line", BAD)
def test_error_is_the_tools_line(cli, line):
    function, kwargs = call_from_line(line)
    with pytest.raises(dlperf.Error) as caught:
        function(**kwargs)
    assert str(caught.value) == cli.error(line)


def test_error_class():
    assert issubclass(dlperf.Error, ValueError)
    with pytest.raises(dlperf.Error, match="unknown GPU id 'rtx_9090'"):
        dlperf.model(preset="gpt2", gpu="rtx_9090")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"batch": math.nan},
        {"batch": math.inf},
        {"batch": -1},
        {"batch": 10**40},
        {"batch": 2.5},
        {"batch": True},
        {"batch": ""},
        {"seq": "1e400"},
        {"dtype": "\x00"},
        {"gpus": [1, 2]},
        {"no_such_flag": 1},
        {"mode": "inference"},
        {"mode": 1},
        {"mode": "train", "infer": True},
    ],
)
def test_bad_python_values_raise_not_crash(kwargs):
    with pytest.raises(dlperf.Error):
        dlperf.model(preset="gpt2", gpu="h100_sxm", **kwargs)


def test_mode_names_what_is_wrong():
    with pytest.raises(dlperf.Error, match=r"^mode: expected 'train' or 'infer', got 'inference'$"):
        dlperf.model(preset="gpt2", gpu="h100_sxm", mode="inference")


def test_raw_command_lines():
    with pytest.raises(dlperf.Error, match="a subcommand is required"):
        dlperf.run()
    with pytest.raises(dlperf.Error, match="unknown command 'modle'"):
        dlperf.run("modle", "--json")
    with pytest.raises(dlperf.Error, match="printed no JSON"):
        dlperf.run("model", "--preset", "gpt2", "--gpu", "t4", "--dtype", "fp16")
    with pytest.raises(dlperf.Error):
        dlperf.run("model", "--help")
