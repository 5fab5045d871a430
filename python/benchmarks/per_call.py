"""One call of dlperf.model (inference and training, as model_loop.py gives them), of its
serving and of dlperf.gemm, in microseconds: timeit, the best of seven. Each path given is a
folder holding a `dlperf` package (a copy with another build's module, to compare two builds in
one run), timed in a process of its own; none: the installed package.

    python python/benchmarks/per_call.py [FOLDER ...]

Figures go in docs/python.md, never into a test."""

import subprocess
import sys
import timeit


def time_calls():
    import dlperf

    def per_call(fn, calls):
        return min(timeit.repeat(fn, number=calls, repeat=7)) / calls * 1e6

    cases = [
        ("infer", lambda: dlperf.model(preset="llama2_7b", gpu="a100_sxm4_80gb", infer=True,
                                       batch=1, prompt=512, generate=128), 3000),
        ("train", lambda: dlperf.model(preset="llama2_7b", gpu="a100_sxm4_80gb", train=True,
                                       batch=4, seq=2048, gpus=8, zero=3), 1000),
        ("serve", lambda: dlperf.model(preset="llama3_1_8b", gpu="h100_sxm", prompt=1000,
                                       generate=1000, stack="vllm", rate=3, serve=True), 300),
        ("gemm", lambda: dlperf.gemm(gpu="mi300x", m=256, n=1280, k=8192,
                                     dtype="fp8_e4m3_fnuz"), 3000),
    ]
    print(f"{dlperf.__file__}: " +
          " ".join(f"{label} {per_call(fn, calls):.1f} us" for label, fn, calls in cases))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--here":
        sys.path.insert(0, sys.argv[2])
        time_calls()
        return
    if len(sys.argv) == 1:
        time_calls()
        return
    for folder in sys.argv[1:]:
        subprocess.run([sys.executable, __file__, "--here", folder], check=True)


if __name__ == "__main__":
    main()
