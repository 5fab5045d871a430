"""dlperf.model (by preset, model file or shape; serving too), cluster, gemm, roofline, power,
debias, tco, rank, speedup and advise (renting too) through the application layer: a request by
keywords runs without a command line and gives the tool's JSON exactly (test_against_cli.py
checks the numbers); a refusal goes through the tool's command line, for its message. The
package's keyword list is the application layer's."""

import inspect

import pytest

import dlperf
from dlperf import _dlperf


def _no_command_line(*args, **kwargs):
    raise AssertionError("ran a command line")


def _record_command_lines(monkeypatch):
    """The command lines the package runs from now on, each still run."""
    calls = []
    real = dlperf._run
    monkeypatch.setattr(dlperf, "_run", lambda args: calls.append(args) or real(args))
    return calls


def test_a_request_by_keywords_runs_without_a_command_line(monkeypatch, cli):
    expected = cli.json("model --preset llama3_8b --gpu h100_sxm --infer --prompt 512 "
                        "--generate 128 --stack vllm --power-limit 500 --json")
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    got = dlperf.model(preset="llama3_8b", gpu="h100_sxm", infer=True, prompt=512, generate=128,
                       stack="vllm", power_limit=500)
    assert got == expected


def test_refusals_take_the_command_line(monkeypatch):
    calls = _record_command_lines(monkeypatch)
    with pytest.raises(dlperf.Error, match=r"--batch '0' must be in \[1, 16777216\]"):
        dlperf.model(preset="gpt2", gpu="rtx_4090", batch=0)
    assert len(calls) == 1
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
    calls = _record_command_lines(monkeypatch)
    with pytest.raises(dlperf.Error, match="is not a multiple of the 2 GPU ids of --gpu"):
        dlperf.cluster(gpu=["h100_sxm", "a100_sxm4_80gb"], gpus=3, link="nvlink4")
    assert len(calls) == 1
    assert _dlperf.cluster_json([("gpu", "h100_sxm,a100_sxm4_80gb"), ("gpus", "3"),
                                 ("link", "nvlink4")]) is None


# Requests of the commands whose every keyword the application layer reads: the tool's line, and
# the package's call that stands for it.
TYPED_REQUESTS = [
    ("gemm --gpu mi300x --m 256 --n 1280 --k 8192 --dtype fp8_e4m3_fnuz",
     dict(gpu="mi300x", m=256, n=1280, k=8192, dtype="fp8_e4m3_fnuz")),
    ("gemm --gpu a100_sxm4_80gb --m 2Ki --n 2Ki --k 2Ki --batch 3 --sparse",
     dict(gpu="a100_sxm4_80gb", m="2Ki", n="2Ki", k="2Ki", batch=3, sparse=True)),
    ("gemm --gpu rtx_4090 --m 512 --n 512 --k 512 --dtype int8 --accumulator int32",
     dict(gpu="rtx_4090", m=512, n=512, k=512, dtype="int8", accumulator="int32")),
    ("roofline --gpu h100_sxm --flops 2T --bytes 4Gi --dtype fp8_e4m3",
     dict(gpu="h100_sxm", flops="2T", bytes="4Gi", dtype="fp8_e4m3")),
    ("roofline --gpu rtx_4090 --flops 1e12 --bytes 0 --sparse",
     dict(gpu="rtx_4090", flops=1e12, bytes=0, sparse=True)),
    ("power --gpu rtx_4090 --count 4 --limit 300", dict(gpu="rtx_4090", count=4, limit=300)),
    ("power --gpu h100_sxm --count 8 --limit 500 --preset llama3_8b --stack pytorch-eager "
     "--batch 8 --seq 2048",
     dict(gpu="h100_sxm", count=8, limit=500, preset="llama3_8b", stack="pytorch-eager", batch=8,
          seq=2048)),
    ("power --gpu h100_sxm --limit 500 --preset llama3_8b --infer",
     dict(gpu="h100_sxm", limit=500, preset="llama3_8b", mode="infer")),
    ("debias --ratio 2.5 --batch-from 8 --batch-to 32", dict(ratio=2.5, batch_from=8, batch_to=32)),
    ("debias --ratio 3 --gpus-from 4 --gpu-from a100_sxm4_80gb --link-from nvlink3 --gpus-to 8 "
     "--gpu-to h100_sxm --link-to nvlink4 --preset gpt2 --kind transformer",
     dict(ratio=3, gpus_from=4, gpu_from="a100_sxm4_80gb", link_from="nvlink3", gpus_to=8,
          gpu_to="h100_sxm", link_to="nvlink4", preset="gpt2", kind="transformer")),
    ("debias --ratio 3 --gpus-to 8 --efficiency-to 0.9 --kind cnn",
     dict(ratio=3, gpus_to=8, efficiency_to=0.9, kind="cnn")),
    ("tco --gpu rtx_4090 --count 2 --utilization 0.3 --kwh-price 0.15 --days 730",
     dict(gpu="rtx_4090", count=2, utilization=0.3, kwh_price=0.15, days=730)),
    ("tco --gpu h100_sxm --count 8 --preset-utilization company --kwh-price 0.1 "
     "--billing pro_rata",
     dict(gpu="h100_sxm", count=8, preset_utilization="company", kwh_price=0.1,
          billing="pro_rata")),
    ("tco --gpu-watts 450 --other-watts 250 --utilization 0.3 --kwh-price 0.15 "
     "--system-price 3000 --cloud-hourly 0.7 --grid-kg-per-kwh 0.05",
     dict(gpu_watts=450, other_watts=250, utilization=0.3, kwh_price=0.15, system_price=3000,
          cloud_hourly=0.7, grid_kg_per_kwh=0.05)),
    ("rank --task infer8 --gpus 8 --stack tensorrt-llm",
     dict(task="infer8", gpus=8, stack="tensorrt-llm")),
    ("rank --task llama3_8b --infer --stack vllm --gpus 2 --min-memory 40 --prices-at market",
     dict(task="llama3_8b", mode="infer", stack="vllm", gpus=2, min_memory=40,
          prices_at="market")),
    ("model --preset llama3_1_8b --gpu h100_sxm --prompt 1000 --generate 1000 --serve "
     "--stack vllm --rate 3 --max-seqs 64",
     dict(preset="llama3_1_8b", gpu="h100_sxm", prompt=1000, generate=1000, serve=True,
          stack="vllm", rate=3, max_seqs=64)),
    ("model --preset llama3_3_70b --gpu h100_sxm --gpus 2 --tp 2 --dtype fp8_e4m3 --weights fp8 "
     "--prompt 5000 --generate 500 --serve --stack tensorrt-llm --concurrency 50",
     dict(preset="llama3_3_70b", gpu="h100_sxm", gpus=2, tp=2, dtype="fp8_e4m3", weights="fp8",
          prompt=5000, generate=500, serve=True, stack="tensorrt-llm", concurrency=50)),
    ("model --preset llama3_3_70b --gpu h200_sxm --gpus 4 --tp 4 --prompt 1024 --generate 1024 "
     "--serve --stack sglang --concurrency 3000 --prompt-min 1 --generate-min 1",
     dict(preset="llama3_3_70b", gpu="h200_sxm", gpus=4, tp=4, prompt=1024, generate=1024,
          serve=True, stack="sglang", concurrency=3000, prompt_min=1, generate_min=1)),
    ("model --preset llama3_3_70b --gpu h100_sxm --gpus 8 --tp 8 --prompt 1000 --generate 1000 "
     "--serve --stack tensorrt-llm --power-limit 500 --kv-fraction 0.8 --step-tokens 4096",
     dict(preset="llama3_3_70b", gpu="h100_sxm", gpus=8, tp=8, prompt=1000, generate=1000,
          serve=True, stack="tensorrt-llm", power_limit=500, kv_fraction=0.8, step_tokens=4096)),
    ("advise --use-case kaggle --budget 3000", dict(use_case="kaggle", budget=3000)),
    ("advise --preset llama3_8b --infer --generate 128 --stack vllm --by time --prices-at launch "
     "--years 5 --utilization 0.5 --kwh-price 0.3 --top 3",
     dict(preset="llama3_8b", mode="infer", generate=128, stack="vllm", by="time",
          prices_at="launch", years=5, utilization=0.5, kwh_price=0.3, top=3)),
    ("advise --preset llama3_8b --train --batch 1 --seq 2048 --lora 16 --dataset-tokens 1e8 "
     "--epochs 2 --gpus 2 --host-cost 0",
     dict(preset="llama3_8b", train=True, batch=1, seq=2048, lora=16, dataset_tokens=1e8,
          epochs=2, gpus=2, host_cost=0)),
    ("advise --rent --preset llama3_8b --infer --generate 128 --dtype fp8_e4m3",
     dict(rent=True, preset="llama3_8b", mode="infer", generate=128, dtype="fp8_e4m3")),
    ("speedup --from a100_sxm4_80gb --to h100_sxm", dict(from_="a100_sxm4_80gb", to="h100_sxm")),
    ("speedup --from rtx_4090 --to mi300x --preset llama3_8b --infer --stack llama.cpp "
     "--weights q4_k_m",
     dict(from_="rtx_4090", to="mi300x", preset="llama3_8b", mode="infer", stack="llama.cpp",
          weights="q4_k_m")),
]

# Requests the application layer refuses: the package's call, the tool's message, and the layer's
# keyword pairs (for which it returns None).
REFUSED_REQUESTS = [
    ("roofline", dict(gpu="h100_sxm", flops=0, bytes=0), "--flops and --bytes are both 0",
     [("gpu", "h100_sxm"), ("flops", "0"), ("bytes", "0")]),
    ("gemm", dict(gpu="h100_sxm", m=0, n=8, k=8), "--m '0' must be",
     [("gpu", "h100_sxm"), ("m", "0"), ("n", "8"), ("k", "8")]),
    ("power", dict(gpu="h100_sxm", batch=8), "the run flags describe --preset's run",
     [("gpu", "h100_sxm"), ("batch", "8")]),
    ("debias", dict(ratio=3, gpus_to=4, gpu_to="rtx_4090"),
     r"--gpu-to \(or --device-to\) and --link-to go",
     [("ratio", "3"), ("gpus_to", "4"), ("gpu_to", "rtx_4090")]),
    ("tco", dict(gpu="rtx_4090", count=3, utilization=0.3, kwh_price=0.15),
     "hosts are priced for 1, 2, 4 or 8 GPUs",
     [("gpu", "rtx_4090"), ("count", "3"), ("utilization", "0.3"), ("kwh_price", "0.15")]),
    ("rank", dict(task="train16", batch=4), "the guide's task train16 fixes its own",
     [("task", "train16"), ("batch", "4")]),
    # The tool's rank has no --tp (the buying layer lays out each job): nor has the layer's.
    ("rank", dict(task="llama3_8b", mode="infer", tp=2), "not expected: 2 --tp",
     [("task", "llama3_8b"), ("mode", "infer"), ("tp", "2")]),
    ("advise", dict(use_case="kaggle", gpus=3), "hosts are priced for 1, 2, 4 or 8 GPUs",
     [("use_case", "kaggle"), ("gpus", "3")]),
    ("rent", dict(rent=True, use_case="kaggle"), "--rent needs --preset NAME",
     [("use_case", "kaggle")]),
    ("speedup", dict(from_="gtx_1080_ti", to="rtx_3090"), "--from/--to: ",
     [("from", "gtx_1080_ti"), ("to", "rtx_3090")]),
]


@pytest.mark.parametrize("line, call", TYPED_REQUESTS)
def test_a_typed_request_runs_without_a_command_line(monkeypatch, cli, line, call):
    expected = cli.json(line + " --json")
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    assert getattr(dlperf, line.split()[0])(**call) == expected


@pytest.mark.parametrize("command, call, message, fields", REFUSED_REQUESTS)
def test_a_refused_typed_request_takes_the_command_line_for_its_message(
        monkeypatch, command, call, message, fields):
    calls = _record_command_lines(monkeypatch)
    with pytest.raises(dlperf.Error, match=message):
        # Renting is dlperf.advise(rent=True), whose layer binding is its own (rent_json).
        getattr(dlperf, "advise" if command == "rent" else command)(**call)
    assert len(calls) == 1
    assert getattr(_dlperf, command + "_json")(fields) is None


def test_a_refused_serving_request_takes_the_command_line_for_its_message(monkeypatch):
    calls = _record_command_lines(monkeypatch)
    with pytest.raises(dlperf.Error, match="--batch: under --serve the KV memory sets the batch"):
        dlperf.model(preset="llama3_1_8b", gpu="h100_sxm", generate=8, batch=4, serve=True)
    assert len(calls) == 1
    assert _dlperf.serve_json([("preset", "llama3_1_8b"), ("gpu", "h100_sxm"),
                               ("generate", "8"), ("batch", "4")]) is None


def test_the_run_options_typed_dict_lists_every_run_field():
    typed = set(dlperf.RunOptions.__annotations__)
    layer = set(_dlperf.request_keywords())
    # RunOptions holds the run; model() names the model (or its shape), the device and the power
    # limit itself.
    named = set(inspect.signature(dlperf.model).parameters) - {"run"}
    assert typed == layer - named


def test_run_fields_are_the_tools_run_flags_with_their_help_and_names(cli):
    fields = dlperf.run_fields()
    by_keyword = {f["keyword"]: f for f in fields}
    # Every run keyword of RunOptions is a field but the mode and the link (model()'s, beside
    # the run), and each field's flag is one the tool's `model --help` lists with its help line.
    assert set(by_keyword) == set(dlperf.RunOptions.__annotations__) - {"mode", "link"}
    help_text = " ".join(cli.run("model --help").stdout.split())
    for f in fields:
        assert f["flag"] == "--" + f["keyword"].replace("_", "-")
        assert f["kind"] in ("text", "choice", "toggle")
        assert f["flag"] in help_text
        assert " ".join(f["help"].split()) in help_text
    assert by_keyword["dtype"]["kind"] == "choice" and "fp8_e4m3" in by_keyword["dtype"]["names"]
    assert by_keyword["dtype"]["default"] == "bf16"
    assert by_keyword["packing"]["kind"] == "toggle" and by_keyword["packing"]["default"] == "false"
    assert by_keyword["network"]["job_layout"] and "ib_ndr" in by_keyword["network"]["names"]
    assert not by_keyword["batch"]["job_layout"] and by_keyword["batch"]["default"] == "1"


def test_model_takes_every_shape_keyword_of_the_layer():
    named = set(inspect.signature(dlperf.model).parameters)
    layer = set(_dlperf.request_keywords())
    run_fields = set(dlperf.RunOptions.__annotations__)
    # Every keyword of the layer is model()'s own or a run field, and model() has no other
    # keyword of a model request than the layer's (serving's are serve_keywords).
    assert layer - run_fields <= named
    assert {"layers", "hidden", "kv_lora_rank", "untied_embeddings", "norm"} <= layer


def test_a_model_by_its_shape_runs_without_a_command_line(monkeypatch, cli):
    expected = cli.json("model --layers 8 --hidden 1024 --heads 16 --kv-heads 4 --vocab 32000 "
                        "--max-seq 4096 --ffn 2816 --ffn-kind swiglu --norm rmsnorm --no-biases "
                        "--untied-embeddings --gpu rtx_4090 --infer --prompt 512 --generate 64 "
                        "--json")
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    got = dlperf.model(layers=8, hidden=1024, heads=16, kv_heads=4, vocab=32000, max_seq=4096,
                       ffn=2816, ffn_kind="swiglu", norm="rmsnorm", no_biases=True,
                       untied_embeddings=True, gpu="rtx_4090", infer=True, prompt=512,
                       generate=64)
    assert got == expected


def test_a_shape_beside_a_preset_is_refused_by_name():
    with pytest.raises(dlperf.Error, match="--hidden describes a model by its shape"):
        dlperf.model(preset="gpt2", hidden=1024, gpu="rtx_4090")


def test_a_context_split_over_gpus_with_an_extended_context_is_the_tools(cli, monkeypatch):
    # torchtitan's 256K run of Llama 3.1 8B (released at 128K), cp 8 on 8 GPUs.
    expected = cli.json("model --preset llama3_1_8b --max-seq 262144 --seq 262144 --gpu h100_sxm "
                        "--train --gpus 8 --cp 8 --zero 3 --checkpointing --json")
    # A refusal's message is the tool's.
    with pytest.raises(dlperf.Error, match="--cp splits a training sequence"):
        dlperf.model(preset="llama3_1_8b", gpu="h100_sxm", infer=True, gpus=2, cp=2)
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    got = dlperf.model(preset="llama3_1_8b", max_seq=262144, seq=262144, gpu="h100_sxm",
                       train=True, gpus=8, cp=8, zero=3, checkpointing=True)
    assert got == expected
    assert got["cp"] == 8 and got["seq"] == 262144


def test_experts_spread_over_gpus_are_the_tools(cli, monkeypatch):
    # Qwen3-30B-A3B's 128 experts over 8 GPUs, 16 each, as Megatron-Bridge trains it.
    expected = cli.json("model --preset qwen3_30b_a3b --gpu h100_sxm --train --gpus 8 --ep 8 "
                        "--zero 1 --seq 4096 --stack megatron --json")
    with pytest.raises(dlperf.Error, match="--ep spreads a training job's experts"):
        dlperf.model(preset="qwen3_30b_a3b", gpu="h100_sxm", infer=True, gpus=8, ep=8)
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    got = dlperf.model(preset="qwen3_30b_a3b", gpu="h100_sxm", train=True, gpus=8, ep=8, zero=1,
                       seq=4096, stack="megatron")
    assert got == expected
    assert got["ep"] == 8 and got["cluster"]["job"]["ep"] == 8


def test_async_tensor_split_is_the_tools(cli, monkeypatch):
    # Llama 3.1 8B, tp 8 under torchtitan's async TP: the tool's numbers, and its rejections.
    job = dict(preset="llama3_1_8b", gpu="h100_sxm", train=True, gpus=16, tp=8, zero=3,
               seq=8192, batch=4, stack="torch-compile")
    expected = cli.json("model --preset llama3_1_8b --gpu h100_sxm --train --gpus 16 --tp 8 "
                        "--zero 3 --seq 8192 --batch 4 --stack torch-compile --async-tp --json")
    with pytest.raises(dlperf.Error, match="give --train and --tp 2 or more"):
        dlperf.model(**dict(job, tp=1), async_tp=True)
    with pytest.raises(dlperf.Error, match="runs its tensor split's collectives whole"):
        dlperf.model(**dict(job, stack="pytorch-eager"), async_tp=True)
    monkeypatch.setattr(dlperf, "_run", _no_command_line)
    got = dlperf.model(**job, async_tp=True)
    assert got == expected
    assert got["async_tp"] is True and got["cluster"]["job"]["async_tp"] is True
    assert got["step_time_s"] < dlperf.model(**job)["step_time_s"]
