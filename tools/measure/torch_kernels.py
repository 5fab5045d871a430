#!/usr/bin/env python3
"""Times, on one CUDA GPU through PyTorch, the kernels and runs dlperf models, and writes them as
JSON rows that tools/measure/compare.py sets beside dlperf's estimates.

What it measures (docs/calibration.md, "Measured on a lent H100"):

- memory: a device-to-device copy and an element-wise add over 1 GiB (the DRAM bandwidth a
  PyTorch kernel reaches);
- cache: a sum over 4 MiB to 1 GiB (read bandwidth from L2, then from DRAM);
- gemv: batch-1 to 64 matrix products with the weight shapes of Llama-2-7B and Llama-2-70B, over
  enough copies of the weight that none of them stays in L2 (the DRAM share decode reaches);
- gemm: square and LLM-prefill shapes in FP32, TF32, FP16, BF16 and FP8 E4M3 (torch._scaled_mm);
- streaming: element-wise and normalisation kernels over 256 MiB (the streaming DRAM share);
- decode: HuggingFace transformers' eager generate() of Llama-2-7B-shaped random weights in BF16
  at batch 1, 8 and 32 (time per decode step);
- train: one eager BF16 training step (AdamW) of GPT-2 (124 M) and of a Llama-3.2-1B shape.

Kernels are timed as CUDA graphs (device time of back-to-back kernels, no launch cost) and as
eager loops (what an eager framework pays per call), each the median of several samples after
warm-up runs; each row records the spread (max - min) / median. Random data: zeros would let the
tensor cores idle and run faster than real weights do.

Usage: python3 tools/measure/torch_kernels.py --out rows.json [--sections gemm,gemv,...]
"""

import argparse
import json
import math
import platform
import statistics
import subprocess
import sys
import time

import torch
import torch.nn.functional as F

L2_BYTES = 0  # set from the device in main()
DEADLINE = math.inf


def seconds_left():
    return DEADLINE - time.monotonic()


def summarise(samples):
    med = statistics.median(samples)
    return med, (max(samples) - min(samples)) / med


def event_samples(run, samples, per):
    """Median and spread of the seconds @p run takes, over @p samples runs, divided by @p per."""
    times = []
    for _ in range(samples):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        run()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3 / per)
    return summarise(times)


def graph_time(calls, reps, samples=7):
    """Median seconds per call of @p calls (cycled) run back to back inside one CUDA graph."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for c in calls[:3]:
            c()
        for c in calls[:3]:
            c()
    torch.cuda.current_stream().wait_stream(stream)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for r in range(reps):
            calls[r % len(calls)]()
    graph.replay()
    torch.cuda.synchronize()
    result = event_samples(graph.replay, samples, reps)
    del graph
    return result


def eager_time(calls, reps, samples=5):
    """Median seconds per call of @p calls run eagerly in a loop (launch cost included)."""
    for c in calls[:3]:
        c()
    torch.cuda.synchronize()

    def loop():
        for r in range(reps):
            calls[r % len(calls)]()

    return event_samples(loop, samples, reps)


def reps_for(seconds_per_call, target=0.02, cap=2000):
    return max(1, min(cap, int(target / max(seconds_per_call, 1e-7))))


def copies_beyond_l2(nbytes, cap_bytes=4 << 30):
    """How many copies of an operand of @p nbytes cycle through 4 x L2 (so none stays cached)."""
    return max(2, min(64, math.ceil(4 * L2_BYTES / nbytes), max(1, cap_bytes // nbytes)))


def timed(calls, estimate_s):
    reps = reps_for(estimate_s)
    g, gs = graph_time(calls, reps)
    reps = reps_for(g)
    g, gs = graph_time(calls, reps)
    e, es = eager_time(calls, reps_for(max(g, 5e-6)))
    return {"graph_s": g, "graph_spread": gs, "eager_s": e, "eager_spread": es}


def section_memory(rows):
    n = 1 << 29  # 1 GiB of bf16
    a = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty_like(a)
    for name, fn, nbytes in (
        ("copy", lambda: c.copy_(a), 2 * a.nbytes),
        ("add", lambda: torch.add(a, b, out=c), 3 * a.nbytes),
    ):
        t = timed([fn], nbytes / 2e12)
        rows.append({"section": "memory", "kernel": name, "bytes": nbytes, **t,
                     "gbps_graph": nbytes / t["graph_s"] / 1e9})
    del a, b, c


def section_cache(rows):
    """Read bandwidth of a reduction over footprints from 4 MiB to 1 GiB: L2's, then DRAM's."""
    for mib in (4, 8, 12, 16, 24, 32, 48, 64, 128, 256, 1024):
        x = torch.randn((mib << 20) // 2, device="cuda", dtype=torch.bfloat16)
        out = torch.empty((), device="cuda", dtype=torch.bfloat16)
        t = timed([lambda: torch.sum(x, dim=0, out=out)], x.nbytes / 3e12)
        rows.append({"section": "cache", "kernel": "sum", "bytes": x.nbytes, **t,
                     "gbps_graph": x.nbytes / t["graph_s"] / 1e9})
        del x, out


LLM_WEIGHTS = {  # (N, K) of y = x W^T: Llama-2-7B and Llama-2-70B's projections and LM head
    "7b_q": (4096, 4096), "7b_qkv": (12288, 4096), "7b_gate_up": (22016, 4096),
    "7b_up": (11008, 4096), "7b_down": (4096, 11008), "7b_lm_head": (32000, 4096),
    "70b_q": (8192, 8192), "70b_kv": (1024, 8192), "70b_up": (28672, 8192),
    "70b_down": (8192, 28672), "small_1k": (1024, 1024), "small_2k": (2048, 2048),
}


def section_gemv(rows):
    for batch in (1, 2, 4, 8, 16, 32, 64):
        for name, (n, k) in LLM_WEIGHTS.items():
            if seconds_left() < 60:
                return
            wbytes = n * k * 2
            copies = copies_beyond_l2(wbytes)
            ws = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in range(copies)]
            x = torch.randn(batch, k, device="cuda", dtype=torch.bfloat16)
            y = torch.empty(batch, n, device="cuda", dtype=torch.bfloat16)
            calls = [lambda w=w: torch.matmul(x, w.t(), out=y) for w in ws]
            nbytes = wbytes + 2 * batch * (n + k)
            t = timed(calls, nbytes / 2.5e12)
            rows.append({"section": "gemv", "shape": name, "m": batch, "n": n, "k": k,
                         "dtype": "bf16", "copies": copies, "bytes": nbytes, **t,
                         "gbps_graph": nbytes / t["graph_s"] / 1e9})
            del ws, x, y


def gemm_operands(dtype, m, n, k):
    torch_dtype = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16,
                   "bf16": torch.bfloat16, "fp8_e4m3": torch.bfloat16}[dtype]
    nbytes = (m * k + n * k) * (1 if dtype == "fp8_e4m3" else torch_dtype.itemsize)
    copies = copies_beyond_l2(nbytes, cap_bytes=2 << 30)
    calls = []
    keep = []
    for _ in range(copies):
        x = torch.randn(m, k, device="cuda", dtype=torch_dtype)
        w = torch.randn(n, k, device="cuda", dtype=torch_dtype)
        if dtype == "fp8_e4m3":
            x = x.to(torch.float8_e4m3fn)
            w = w.to(torch.float8_e4m3fn)
            one = torch.ones((), device="cuda", dtype=torch.float32)
            calls.append(lambda x=x, w=w, one=one: torch._scaled_mm(
                x, w.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
        else:
            y = torch.empty(m, n, device="cuda", dtype=torch_dtype)
            calls.append(lambda x=x, w=w, y=y: torch.matmul(x, w.t(), out=y))
        keep.append((x, w))
    return calls, keep, copies


def section_gemm(rows):
    shapes = [(s, s, s) for s in (256, 512, 1024, 2048, 4096, 8192)]
    shapes += [(m, n, k) for m in (16, 128, 512, 2048, 8192)
               for (n, k) in ((4096, 4096), (11008, 4096), (4096, 11008), (28672, 8192),
                              (8192, 28672))]
    for dtype in ("bf16", "fp8_e4m3", "fp16", "tf32", "fp32"):
        torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
        for (m, n, k) in shapes:
            if dtype in ("fp16", "tf32", "fp32") and m != n:
                continue  # the LLM shapes in bf16 and fp8 only
            if seconds_left() < 90:
                return
            calls, keep, copies = gemm_operands(dtype, m, n, k)
            flops = 2.0 * m * n * k
            peak = {"fp32": 60e12, "tf32": 400e12}.get(dtype, 800e12)
            t = timed(calls, flops / peak)
            rows.append({"section": "gemm", "m": m, "n": n, "k": k, "dtype": dtype,
                         "copies": copies, "flops": flops, **t,
                         "tflops_graph": flops / t["graph_s"] / 1e12})
            del calls, keep
    torch.backends.cuda.matmul.allow_tf32 = False


def section_streaming(rows):
    n = 1 << 27  # 128 Mi elements, 256 MiB in bf16
    x = torch.randn(n // 4096, 4096, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4096, device="cuda", dtype=torch.bfloat16)
    kernels = {
        "gelu": (lambda: F.gelu(x), 2),
        "silu": (lambda: F.silu(x), 2),
        "softmax": (lambda: torch.softmax(x, dim=-1), 2),
        "layer_norm": (lambda: F.layer_norm(x, (4096,), w, w), 2),
        "rms_norm": (lambda: F.rms_norm(x, (4096,), w), 2),
        "mul": (lambda: x * x, 2),
    }
    for name, (fn, passes) in kernels.items():
        nbytes = passes * x.nbytes
        t = timed([fn], nbytes / 2e12)
        rows.append({"section": "streaming", "kernel": name, "bytes": nbytes, **t,
                     "gbps_graph": nbytes / t["graph_s"] / 1e9})
    del x, w


def llama_config(**shape):
    from transformers import LlamaConfig
    return LlamaConfig(**shape)


LLAMA2_7B = dict(hidden_size=4096, intermediate_size=11008, num_hidden_layers=32,
                 num_attention_heads=32, num_key_value_heads=32, vocab_size=32000,
                 max_position_embeddings=4096, tie_word_embeddings=False)
LLAMA3_2_1B = dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                   num_attention_heads=32, num_key_value_heads=8, vocab_size=128256,
                   max_position_embeddings=131072, tie_word_embeddings=True, head_dim=64)


def build(config, dtype=torch.bfloat16):
    """A model of @p config's shape with random weights, built on the GPU in @p dtype."""
    from transformers import AutoModelForCausalLM
    torch.manual_seed(0)
    default = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with torch.device("cuda"):
            model = AutoModelForCausalLM.from_config(config)
    finally:
        torch.set_default_dtype(default)
    return model.to(dtype)


def section_decode(rows):
    model = build(llama_config(**LLAMA2_7B)).eval()
    prompt = 128
    for batch in (1, 8, 32):
        if seconds_left() < 60:
            break
        ids = torch.randint(0, 32000, (batch, prompt), device="cuda")
        results = {}
        for new in (1, 65):
            kwargs = dict(max_new_tokens=new, min_new_tokens=new, do_sample=False,
                          pad_token_id=0)
            with torch.inference_mode():
                model.generate(ids, **kwargs)  # warm-up
                samples = []
                for _ in range(3):
                    torch.cuda.synchronize()
                    t0 = time.perf_counter()
                    model.generate(ids, **kwargs)
                    torch.cuda.synchronize()
                    samples.append(time.perf_counter() - t0)
            results[new] = summarise(samples)
        step = (results[65][0] - results[1][0]) / 64
        rows.append({"section": "decode", "model": "llama2_7b", "stack": "hf-transformers-eager",
                     "batch": batch, "prompt": prompt, "generated": 64,
                     "prefill_s": results[1][0], "generate_65_s": results[65][0],
                     "step_s": step, "tokens_per_s": batch / step,
                     "spread": max(results[1][1], results[65][1])})
    del model
    torch.cuda.empty_cache()


def section_train(rows):
    from transformers import GPT2Config
    cases = [("gpt2", GPT2Config(n_positions=1024), 8, 1024, 50257),
             ("llama3_2_1b", llama_config(**LLAMA3_2_1B), 4, 2048, 128256)]
    for name, cfg, batch, seq, vocab in cases:
        if seconds_left() < 60:
            break
        model = build(cfg).train()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
        ids = torch.randint(0, vocab, (batch, seq), device="cuda")

        def step():
            loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)

        for _ in range(3):
            step()
        torch.cuda.synchronize()
        samples = []
        for _ in range(5):
            t0 = time.perf_counter()
            step()
            torch.cuda.synchronize()
            samples.append(time.perf_counter() - t0)
        med, spread = summarise(samples)
        rows.append({"section": "train", "model": name, "stack": "hf-transformers-eager",
                     "batch": batch, "seq": seq, "dtype": "bf16", "optimizer": "adamw-fused",
                     "step_s": med, "spread": spread, "tokens_per_s": batch * seq / med,
                     "peak_memory_bytes": torch.cuda.max_memory_allocated()})
        del model, opt
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()


SECTIONS = {"memory": section_memory, "cache": section_cache, "gemv": section_gemv, "gemm": section_gemm,
            "streaming": section_streaming, "decode": section_decode, "train": section_train}


def smi(query):
    try:
        return subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        return f"unavailable: {e}"


def main():
    global L2_BYTES, DEADLINE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--sections", default=",".join(SECTIONS))
    parser.add_argument("--budget-s", type=float, default=240.0,
                        help="stop starting new measurements after this many seconds")
    args = parser.parse_args()
    DEADLINE = time.monotonic() + args.budget_s
    props = torch.cuda.get_device_properties(0)
    L2_BYTES = props.L2_cache_size
    smi_query = "name,driver_version,power.limit,clocks.max.sm,clocks.max.mem,memory.total"
    env = {"device": props.name, "sms": props.multi_processor_count, "l2_bytes": L2_BYTES,
           "memory_bytes": props.total_memory, "torch": torch.__version__,
           "cuda": torch.version.cuda, "python": platform.python_version(),
           "nvidia_smi": smi(smi_query)}
    try:
        import transformers
        env["transformers"] = transformers.__version__
    except ImportError:
        pass
    rows, failures = [], {}
    for name in args.sections.split(","):
        t0 = time.monotonic()
        try:
            SECTIONS[name](rows)
        except Exception as e:  # one section's failure must not lose the others' rows
            failures[name] = f"{type(e).__name__}: {e}"
        torch.cuda.empty_cache()
        print(f"{name}: {time.monotonic() - t0:.1f} s, {len(rows)} rows so far"
              + (f", FAILED {failures[name]}" if name in failures else ""), flush=True)
        with open(args.out, "w") as f:  # after every section, so a timeout keeps what ran
            json.dump({"environment": env, "failures": failures, "rows": rows}, f, indent=1)
    env["nvidia_smi_after"] = smi("clocks.sm,clocks.mem,power.draw,temperature.gpu")
    with open(args.out, "w") as f:
        json.dump({"environment": env, "failures": failures, "rows": rows}, f, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
