"""Where one dlperf.model call's time goes, from `perf record` of a Python loop (docs/python.md,
"Where a call's time goes"). Each sample is charged to the innermost piece of the call on its
stack (the estimate, reading the request, writing the report as Python objects, ...); samples
inside nlohmann::json are marked, so that a report still built as JSON shows apart.

    perf record -F 2000 --call-graph dwarf,16384 -o call.perf \\
        python python/benchmarks/call_profile.py --loop 3000
    perf script -i call.perf -F ip,sym > call.stacks
    python python/benchmarks/call_profile.py --stacks call.stacks

The module must keep its symbols: pip strips them, so link the objects of build-python/ again
without -s (or use a build with NOSTRIP) and put that _dlperf*.so first on sys.path."""

import argparse
import collections

# (a frame's symbol contains, piece): the first piece found from the leaf up gets the sample.
PIECES = [
    ("dlperf::app::estimate", "app::estimate (the estimate)"),
    ("request_from_keywords", "reading the request from keywords"),
    ("python_writer", "python_writer (the report as Python objects)"),
    ("dlperf::app::write", "app::write (the report's members)"),
    ("dict_dealloc", "freeing the Python result"),
    ("list_dealloc", "freeing the Python result"),
    ("CLI::", "CLI11 parse (a request the layer refused)"),
    ("nb_func_vectorcall", "the module's function"),
    ("_PyEval_EvalFrameDefault", "Python (dlperf.model's arguments)"),
]


def loop(calls):
    import dlperf

    for _ in range(calls):
        dlperf.model(preset="llama2_7b", gpu="a100_sxm4_80gb", infer=True, batch=1, prompt=512,
                     generate=128)


def shares(path):
    counts, total = collections.Counter(), 0
    for block in open(path).read().split("\n\n"):
        frames = [line.strip() for line in block.strip().splitlines()]
        if not frames:
            continue
        total += 1
        piece, in_json = "other", False
        for frame in frames:
            in_json = in_json or "nlohmann" in frame
            hit = next((name for key, name in PIECES if key in frame), None)
            if hit:
                piece = hit
                break
        counts[piece + (" [nlohmann::json]" if in_json else "")] += 1
    for piece, n in counts.most_common():
        print(f"{100 * n / total:5.1f} %  {piece}")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--loop", type=int, help="call dlperf.model this many times")
    ap.add_argument("--stacks", help="perf script output to break down")
    a = ap.parse_args()
    if a.loop:
        loop(a.loop)
    if a.stacks:
        shares(a.stacks)
