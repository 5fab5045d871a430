"""One call of each command that the application layer takes by keyword (gemm, roofline, power,
debias, tco, rank), through it and through the tool's command line, in one run. Prints one line
per command; both paths must give the same JSON.

    python python/benchmarks/typed_calls.py

Figures go in docs/python.md, never into a test."""

import timeit

import dlperf

# (command, keywords, calls per timing): the calls keep each timing near a tenth of a second.
CASES = [
    ("gemm", dict(gpu="mi300x", m=256, n=1280, k=8192, dtype="fp8_e4m3_fnuz"), 2000),
    ("roofline", dict(gpu="h100_sxm", flops=2e12, bytes=4e9), 2000),
    ("power", dict(gpu="h100_sxm", count=8, limit=500, preset="llama3_8b", mode="infer"), 300),
    ("debias", dict(ratio=3, gpus_to=8, gpu_to="h100_sxm", link_to="nvlink4"), 300),
    ("tco", dict(gpu="rtx_4090", count=2, utilization=0.3, kwh_price=0.15), 2000),
    ("rank", dict(task="infer16"), 5),
]


def per_call(fn, calls):
    """Microseconds a call, the best of five timings."""
    return min(timeit.repeat(fn, number=calls, repeat=5)) / calls * 1e6


def main():
    for command, keywords, calls in CASES:
        def typed():
            return getattr(dlperf, command)(**keywords)

        def command_line():
            return dlperf._call(command, dict(keywords))

        assert typed() == command_line(), command
        print(f"{command}: through the layer {per_call(typed, calls):.1f} us, "
              f"command line {per_call(command_line, calls):.1f} us")


if __name__ == "__main__":
    main()
