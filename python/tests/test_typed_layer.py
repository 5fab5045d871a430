"""dlperf.model through the application layer: a request by keywords runs without a command line
and gives the tool's JSON exactly (test_against_cli.py checks the numbers); anything else (shape
flags, --serve, a refusal) goes through the tool's command line. The package's keyword list is
the application layer's."""

import pathlib
import re

import pytest

import dlperf
from dlperf import _dlperf

INIT = pathlib.Path(dlperf.__file__).resolve().parent / "__init__.py"


def _no_command_line(*args, **kwargs):
    raise AssertionError("ran a command line")


def test_a_request_by_keywords_runs_without_a_command_line(monkeypatch, cli):
    expected = cli.json("model --preset llama3_8b --gpu h100_sxm --infer --prompt 512 "
                        "--generate 128 --stack vllm --power-limit 500 --json")
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    got = dlperf.model(preset="llama3_8b", gpu="h100_sxm", infer=True, prompt=512, generate=128,
                       stack="vllm", power_limit=500)
    assert got == expected


def test_shape_flags_and_refusals_take_the_command_line(monkeypatch):
    calls = []
    real = dlperf._run
    monkeypatch.setattr(dlperf, "_run", lambda args: calls.append(args) or real(args))
    dlperf.model(layers=2, hidden=64, heads=2, vocab=100, max_seq=128, gpu="rtx_4090")
    with pytest.raises(dlperf.Error, match=r"--batch '0' must be in \[1, 16777216\]"):
        dlperf.model(preset="gpt2", gpu="rtx_4090", batch=0)
    assert len(calls) == 2
    assert _dlperf.model_json([("preset", "gpt2"), ("gpu", "rtx_4090"), ("batch", "0")]) is None


def test_a_cluster_job_runs_without_a_command_line(monkeypatch, cli):
    expected = cli.json("cluster --gpu h100_sxm,a100_sxm4_80gb --gpus 8 --link nvlink4 "
                        "--preset llama3_8b --batch 1 --seq 4096 --zero 3 --stack pytorch-eager "
                        "--json")
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    got = dlperf.cluster(gpu=["h100_sxm", "a100_sxm4_80gb"], gpus=8, link="nvlink4",
                         preset="llama3_8b", batch=1, seq=4096, zero=3, stack="pytorch-eager")
    assert got == expected


def test_a_refused_cluster_job_takes_the_command_line_for_its_message(monkeypatch):
    calls = []
    real = dlperf._run
    monkeypatch.setattr(dlperf, "_run", lambda args: calls.append(args) or real(args))
    with pytest.raises(dlperf.Error, match="is not a multiple of the 2 GPU ids of --gpu"):
        dlperf.cluster(gpu=["h100_sxm", "a100_sxm4_80gb"], gpus=3, link="nvlink4")
    assert len(calls) == 1
    assert _dlperf.cluster_json([("gpu", "h100_sxm,a100_sxm4_80gb"), ("gpus", "3"),
                                 ("link", "nvlink4")]) is None


def test_the_run_options_typed_dict_lists_every_run_field():
    text = INIT.read_text()
    body = re.search(r"class RunOptions\(TypedDict, total=False\):\n(.*?)\n\n\n", text, re.S)
    assert body, "no RunOptions TypedDict in dlperf/__init__.py"
    typed = set(re.findall(r"^        (\w+): ", body.group(1), re.M))
    layer = set(_dlperf.request_keywords())
    # RunOptions holds the run; model() names the model, the device and the power limit itself.
    assert typed == layer - {"preset", "config", "gpu", "device", "power_limit"}
