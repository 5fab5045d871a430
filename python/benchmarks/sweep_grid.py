"""A grid of 100,000 whole-model estimates through dlperf.sweep, against the same grid in C++
(tests/benchmarks/app_benchmark.cpp's app_sweep, run by this script when given --cpp) and
against llm-analysis's per-call cost (pip install llm-analysis), all in one run. Prints one line
per figure.

    python python/benchmarks/sweep_grid.py [--cpp build/tests/benchmarks/dlperf_app_benchmarks]

Figures go in docs/python.md, never into a test."""

import argparse
import json
import subprocess
import time

import dlperf
from model_loop import llm_analysis_cases, per_call

# The grid of app_benchmark.cpp: 10 x 5 x 50 x 10 x 2 x 2 = 100,000 points.
GRID = dict(
    gpu=["rtx_3090", "rtx_4090", "a100_sxm4_80gb", "h100_sxm", "l40s", "mi300x", "t4", "a10g",
         "rtx_a6000", "v100_sxm2"],
    preset=["gpt2", "llama2_7b", "llama3_8b", "mistral_7b", "qwen2_5_14b"],
    batch=list(range(1, 51)),
    seq=list(range(100, 1001, 100)),
    mode=["train", "infer"],
    stack=["ceiling", "pytorch-eager"],
)


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def cpp_sweep(binary):
    """Seconds per point of app_sweep on 1 thread and on every core, from Google Benchmark."""
    out = subprocess.run([binary, "--benchmark_filter=app_sweep", "--benchmark_format=json"],
                         capture_output=True, text=True, check=True).stdout
    runs = {b["name"]: b for b in json.loads(out)["benchmarks"]}
    return {threads: 1 / runs[f"app_sweep/{threads}/real_time"]["items_per_second"]
            for threads in (1, 0)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpp", help="the dlperf_app_benchmarks binary, for the C++ time")
    cpp = ap.parse_args().cpp
    points = 1
    for values in GRID.values():
        points *= len(values)
    print(f"grid: {points} points")
    per_point = {}
    for threads in (1, 0):
        for frame in (False, True):
            try:
                t, rows = timed(lambda: dlperf.sweep(threads=threads, frame=frame, **GRID))
            except ImportError:
                continue  # no pandas
            assert len(rows) == points
            label = f"dlperf.sweep threads={threads or 'all'} {'DataFrame' if frame else 'dicts'}"
            per_point[(threads, frame)] = t / points
            print(f"{label:<44} {t:7.3f} s {t / points * 1e6:7.2f} us/point")
    if cpp:
        for threads, t in cpp_sweep(cpp).items():
            label = f"C++ app::sweep threads={threads or 'all'}"
            ratio = per_point[(threads, False)] / t
            print(f"{label:<44} {t * points:7.3f} s {t * 1e6:7.2f} us/point "
                  f"(dlperf.sweep dicts {ratio:.2f}x)")
    cases = llm_analysis_cases()
    if cases is None:
        print("llm-analysis not installed: pip install llm-analysis")
        return
    t = per_call(cases[0], 3.0)  # model_loop.py's training call
    ratio = t / per_point[(1, False)]
    print(f"{'llm-analysis train, one call':<44} {t * 1e6:7.1f} us/call "
          f"({ratio:.0f}x dlperf.sweep's point on one thread)")


if __name__ == "__main__":
    main()
