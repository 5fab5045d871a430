"""Every function of the dlperf package against the tool's --json for the same input: exactly
equal (the same C++ code computes both; this checks the argument mapping and the conversion of
the JSON to Python objects, floats to the last bit)."""

import json

import pytest

import dlperf
from conftest import call_from_line

# Command lines of the tool; the Python call is derived from each (conftest.call_from_line) and
# must return exactly what the line prints.
LINES = [
    "gpus --json",
    "models --json",
    "roofline --gpu a100_sxm4_40gb --flops 1e12 --bytes 1e10 --dtype fp16 --json",
    "roofline --gpu h100_sxm --flops 2P --bytes 1Gi --dtype fp8_e4m3 --json",
    "roofline --gpu rtx_4090 --flops 1e12 --bytes 0 --sparse --dtype fp16 --json",
    "gemm --gpu h100_sxm --m 8192 --n 8192 --k 8192 --dtype fp8_e4m3 --json",
    "gemm --gpu a100_sxm4_40gb --m 4Ki --n 4Ki --k 4Ki --batch 2 --dtype bf16 --json",
    "cycles --json",
    "cycles --latencies hopper_gh100 --json",
    "model --preset gpt2 --gpu rtx_4090 --train --batch 8 --seq 1024 --json",
    "model --preset llama2_7b --gpu h100_sxm --train --batch 4 --seq 2048 --checkpointing --json",
    "model --preset llama2_7b --gpu rtx_4090 --infer --prompt 512 --generate 128 --weights int4 --json",
    "model --preset llama2_70b --gpu h100_sxm --train --gpus 8 --zero 3 --tp 2 --json",
    "model --preset se_resnext101_32x4d --gpu a100_sxm4_80gb --train --batch 64 --json",
    "model --preset mixtral_8x7b --gpu mi300x --infer --batch 16 --seq 4096 --json",
    "model --layers 12 --hidden 768 --heads 12 --vocab 50257 --max-seq 1024 --gpu t4 --dtype fp16 --json",
    # The benchmark's cases (python/benchmarks/model_loop.py) and more of model's flags: LoRA,
    # an 8-bit KV cache with nothing generated (null fields), a stack with unfused attention.
    "model --preset llama2_7b --gpu a100_sxm4_80gb --infer --batch 1 --prompt 512 --generate 128 --json",
    "model --preset llama2_7b --gpu a100_sxm4_80gb --train --batch 4 --seq 2048 --gpus 8 --zero 3 --json",
    "model --preset llama2_7b --gpu h100_sxm --train --batch 1 --lora 16 --lora-targets all --qlora --json",
    "model --preset llama3_8b --gpu rtx_4090 --infer --prompt 1024 --generate 0 --kv-dtype fp8 --json",
    "model --preset gpt2 --gpu a100_sxm4_80gb --infer --batch 32 --seq 512 --stack pytorch-eager --no-flash --json",
    "model --preset llama3_8b --gpu rtx_4090 --train --seq 2048 --lora 16 --doc-tokens 400 --packing --json",
    # One model over several GPUs (docs/parallel.md): llama.cpp's layer split by default, and
    # vLLM's tensor split with its own all-reduce.
    "model --preset llama3_70b --gpu rtx_3090 --infer --weights q4_k_m --dtype fp16 --no-flash --prompt 512 --generate 128 --gpus 2 --stack llama.cpp --json",
    "model --preset llama3_70b --gpu h100_sxm --infer --prompt 512 --generate 128 --gpus 8 --tp 8 --stack vllm --json",
    "model --preset llama3_8b --gpu rtx_4090 --infer --gpus 2 --split layer --json",
    "model --preset llama2_7b --gpu rtx_4090 --infer --weights exl2_4.0bpw --prompt 512 --generate 128 --json",
    "model --preset llama3_3_70b --gpu m3_max_40c_64gb --infer --dtype fp16 --weights mlx_4bit --prompt 1171 --generate 744 --stack mlx --json",
    "speedup --from v100_sxm2 --to a100_sxm4_40gb --json",
    "speedup --from a100_sxm4_40gb --to h100_sxm --preset gpt2 --batch 16 --json",
    "rank --task infer16 --json",
    "rank --task train16 --gpus 4 --min-memory 24 --json",
    "rank --task llama2_7b --infer --batch 1 --json",
    "rank --task infer16 --stack pytorch-eager --json",
    "speedup --from rtx_3090 --to rtx_4090 --preset llama2_7b --infer --prompt 512 --generate 128 --stack llama.cpp --json",
    "model --preset llama3_1_8b --gpu h100_sxm --dtype fp8_e4m3 --weights fp8 --prompt 128 --generate 2048 --serve --stack tensorrt-llm --rate 5 --json",
    "advise --use-case kaggle --json",
    "advise --preset llama2_7b --infer --budget 5000 --json",
    "advise --rent --preset llama3_8b --infer --prompt 512 --generate 128 --json",
    # Ranked by time at launch prices, a task's cost over two busy years at $0.30/kWh.
    "advise --preset llama3_8b --infer --prompt 512 --generate 128 --by time --prices-at launch --years 2 --utilization 0.5 --kwh-price 0.3 --json",
    "advise --rent --preset llama3_8b --train --batch 1 --seq 2048 --lora 16 --dataset-tokens 1e8 --epochs 2 --json",
    "tco --gpu rtx_4090 --utilization 0.5 --kwh-price 0.3 --json",
    "power --gpu rtx_3090 --count 2 --limit 300 --json",
    "cluster --gpu rtx_3090 --gpus 4 --link pcie4_x16 --json",
    "cluster --gpu h100_sxm,a100_sxm4_80gb --gpus 2 --link nvlink3 --json",
    # A power limit and the run's own attention kernel (docs/buying.md "Power", docs/stacks.md).
    "model --preset llama3_1_8b --gpu h100_sxm --train --batch 1 --seq 8192 --gpus 8 --zero 3 --power-limit 500 --stack pytorch-eager --attention flash-attention-3 --json",
    "cluster --gpu h100_sxm --gpus 16 --link nvlink4 --preset llama3_8b --batch 1 --seq 4096 --zero 3 --power-limit 500 --json",
    "model --preset llama3_8b --gpu h100_sxm --train --batch 1 --seq 4096 --selective-checkpointing ops --json",
    "tco --gpu-watts 450 --other-watts 150 --utilization 0.5 --kwh-price 0.3 --system-price 3000 --cloud-hourly 1.1 --json",
    "debias --ratio 2 --batch-from 32 --batch-to 64 --json",
    "export --gpu h100_pcie",
]


@pytest.mark.parametrize("line", LINES)
def test_equals_cli_json(cli, line):
    function, kwargs = call_from_line(line)
    result, printed = function(**kwargs), cli.json(line)
    assert result == printed
    # And as text: the keys in the JSON's order at every level, and each number of the JSON's
    # kind (1.0 stays a float; == alone takes 1 == 1.0).
    assert json.dumps(result) == json.dumps(printed)


def test_mode_as_the_json_says_it(cli):
    # The issue's own example: mode= takes the JSON's "mode" values for --infer and --train.
    infer = dlperf.model(preset="llama3_8b", gpu="rtx_4090", mode="infer")
    assert infer == cli.json("model --preset llama3_8b --gpu rtx_4090 --infer --json")
    assert infer["mode"] == "infer"
    assert dlperf.rank(task="llama2_7b", mode="train", lora=16) == cli.json(
        "rank --task llama2_7b --train --lora 16 --json"
    )


def test_numbers_as_python_numbers(cli):
    # Numbers given as Python ints and floats mean what their text means on the command line.
    assert dlperf.model(preset="gpt2", gpu="rtx_4090", train=True, batch=8, seq=1024) == cli.json(
        "model --preset gpt2 --gpu rtx_4090 --train --batch 8 --seq 1024 --json"
    )
    assert dlperf.roofline(gpu="t4", flops=1.5e12, bytes=3 * 2**30) == cli.json(
        "roofline --gpu t4 --flops 1.5e12 --bytes 3Gi --json"
    )
    assert dlperf.cluster(gpu=["h100_sxm", "a100_sxm4_80gb"], gpus=2, link="nvlink3") == cli.json(
        "cluster --gpu h100_sxm,a100_sxm4_80gb --gpus 2 --link nvlink3 --json"
    )


def test_device_and_price_files(cli, tmp_path):
    # A device file exported, then used: the same as the tool with the same file.
    import json

    device = tmp_path / "h100.json"
    device.write_text(json.dumps(dlperf.export_device(gpu="h100_sxm")))
    line = f"roofline --device {device} --flops 1e15 --bytes 1e10 --dtype bf16 --json"
    assert dlperf.roofline(device=str(device), flops=1e15, bytes=1e10, dtype="bf16") == cli.json(line)
    line = f"model --preset gpt2 --device {device} --train --batch 8 --json"
    assert dlperf.model(preset="gpt2", device=str(device), train=True, batch=8) == cli.json(line)
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({"gpus": {"rtx_4090": 1599, "rtx_3090": 700}}))
    line = f"rank --task infer16 --prices {prices} --json"
    assert dlperf.rank(task="infer16", prices=str(prices)) == cli.json(line)


def test_types():
    r = dlperf.model(preset="gpt2", gpu="h100_sxm", train=True, batch=8)
    assert isinstance(r, dict) and isinstance(r["memory"], dict) and isinstance(r["ops"], list)
    assert isinstance(r["fits"], bool) and isinstance(r["batch"], int)
    assert isinstance(r["step_time_s"], float) and r["image"] is None
    assert isinstance(dlperf.version, str) and dlperf.version.count(".") == 2


def test_threads_give_the_same_numbers():
    # The GIL is released while the model runs: threads calling at once must not disturb each
    # other (thread-local JSON capture).
    from concurrent.futures import ThreadPoolExecutor

    def estimate(batch):
        return dlperf.model(preset="llama2_7b", gpu="h100_sxm", train=True, batch=batch)

    batches = [1, 2, 4, 8] * 8
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(estimate, batches))
    assert parallel == [estimate(b) for b in batches]


def test_a_call_does_not_depend_on_the_calls_before_it(cli):
    # Each thread parses every command line of a command with one parser, built once (the
    # per-call cost, docs/python.md): a flag one call gave must not leak into the next. The lines
    # run forward, then backward, so each follows other flags of its command; a rejected line
    # (whose parse stopped halfway) and a line setting many run flags come between.
    calls = [call_from_line(line) for line in LINES]
    forward = [function(**kwargs) for function, kwargs in calls]
    with pytest.raises(dlperf.Error):
        dlperf.model(preset="gpt2", gpu="h100_sxm", train=True, batch=8, seq="-1")
    dlperf.model(preset="llama2_7b", gpu="a100_sxm4_80gb", train=True, batch=4, seq=2048, gpus=8,
                 zero=3, tp=2, checkpointing=True, no_flash=True, dtype="fp16", stack="megatron")
    backward = [function(**kwargs) for function, kwargs in reversed(calls)]
    assert backward[::-1] == forward
    line = "model --preset gpt2 --gpu rtx_4090 --infer --json"  # every run flag at its default
    assert call_from_line(line)[0](**call_from_line(line)[1]) == cli.json(line)
