"""One call of each command that the application layer takes by keyword (gemm, roofline, power,
debias, tco, rank, serving, advise, renting), through it and through the tool's command line, in
one run. Prints one line
per command; both paths must give the same JSON.

    python python/benchmarks/typed_calls.py

Figures go in docs/python.md, never into a test."""

import timeit

import dlperf

# (label, package function and tool command, keywords, calls per timing): the calls keep each
# timing near a tenth of a second.
CASES = [
    ("gemm", "gemm", dict(gpu="mi300x", m=256, n=1280, k=8192, dtype="fp8_e4m3_fnuz"), 2000),
    ("roofline", "roofline", dict(gpu="h100_sxm", flops=2e12, bytes=4e9), 2000),
    ("power", "power", dict(gpu="h100_sxm", count=8, limit=500, preset="llama3_8b", mode="infer"),
     300),
    ("debias", "debias", dict(ratio=3, gpus_to=8, gpu_to="h100_sxm", link_to="nvlink4"), 300),
    ("tco", "tco", dict(gpu="rtx_4090", count=2, utilization=0.3, kwh_price=0.15), 2000),
    ("rank", "rank", dict(task="infer16"), 5),
    ("model --serve", "model", dict(preset="llama3_1_8b", gpu="h100_sxm", prompt=1000,
                                    generate=1000, stack="vllm", rate=3, serve=True), 50),
    ("advise", "advise", dict(use_case="kaggle", budget=3000), 5),
    ("advise --rent", "advise", dict(preset="llama3_8b", mode="infer", generate=128, rent=True),
     5),
]


def per_call(fn, calls):
    """Microseconds a call, the best of five timings."""
    return min(timeit.repeat(fn, number=calls, repeat=5)) / calls * 1e6


def main():
    for label, command, keywords, calls in CASES:
        def typed():
            return getattr(dlperf, command)(**keywords)

        def command_line():
            return dlperf._call(command, dict(keywords))

        assert typed() == command_line(), label
        print(f"{label}: through the layer {per_call(typed, calls):.1f} us, "
              f"command line {per_call(command_line, calls):.1f} us")


if __name__ == "__main__":
    main()
