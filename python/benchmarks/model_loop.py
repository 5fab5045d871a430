"""Whole-model estimates per second from a Python loop: dlperf.model against llm-analysis
(pip install llm-analysis) on the same model, GPU and run. Prints one line per library.

    python python/benchmarks/model_loop.py [--seconds 3]

Figures go in docs/python.md, never into a test. Last run (2026-11-24 23:49 UTC, the shared 2-core
build machine at load 3.5, Release wheel): dlperf.model 226 us a training call, 198 us an
inference call; llm-analysis 0.2.2 390 us and 407 us. Where a call's time goes:
python/benchmarks/call_profile.py."""

import argparse
import time

import dlperf


def per_call(fn, seconds):
    fn()  # warm up
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn()
        calls += 1
    return (time.perf_counter() - start) / calls


def llm_analysis_cases():
    """llm-analysis's training and inference calls for main's two cases (8-GPU ZeRO 3 training,
    batch-1 inference of Llama 2 7B on A100 80GB), or None when it is not installed."""
    try:
        from llm_analysis.analysis import infer, train
    except ImportError:
        return None
    import logging

    logging.disable(logging.CRITICAL)  # it logs a summary on every call

    def la_train():
        return train(model_name="NousResearch_Llama-2-7b-hf", gpu_name="a100-sxm-80gb",
                     dtype_name="w16a16e16", batch_size_per_gpu=4, seq_len=2048,
                     ds_zero=3, dp_size=8, total_num_gpus=8, total_num_tokens=8 * 4 * 2048,
                     log_level="CRITICAL")

    def la_infer():
        return infer(model_name="NousResearch_Llama-2-7b-hf", gpu_name="a100-sxm-80gb",
                     dtype_name="w16a16e16", batch_size_per_gpu=1, seq_len=512,
                     num_tokens_to_generate=128, log_level="CRITICAL")

    return la_train, la_infer


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    seconds = ap.parse_args().seconds
    layers = 32  # Llama 2 7B; training: 8 GPUs, ZeRO 3 (7B with Adam does not fit one A100)

    def dl_train():
        return dlperf.model(preset="llama2_7b", gpu="a100_sxm4_80gb", train=True, batch=4, seq=2048,
                            gpus=8, zero=3)

    def dl_infer():
        return dlperf.model(preset="llama2_7b", gpu="a100_sxm4_80gb", infer=True, batch=1,
                            prompt=512, generate=128)

    for label, fn in [("dlperf.model train", dl_train), ("dlperf.model infer", dl_infer)]:
        t = per_call(fn, seconds)
        print(f"{label:<28} {t * 1e6:9.1f} us/call {1 / t:9.0f} calls/s "
              f"{t * 1e6 / layers:7.2f} us/layer ({layers} layers)")

    cases = llm_analysis_cases()
    if cases is None:
        print("llm-analysis not installed: pip install llm-analysis")
        return
    la_train, la_infer = cases
    for label, fn in [("llm-analysis train", la_train), ("llm-analysis infer", la_infer)]:
        t = per_call(fn, seconds)
        print(f"{label:<28} {t * 1e6:9.1f} us/call {1 / t:9.0f} calls/s "
              f"{t * 1e6 / layers:7.2f} us/layer ({layers} layers)")


if __name__ == "__main__":
    main()
