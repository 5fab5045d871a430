#!/usr/bin/env python3
"""Sets the rows tools/measure/torch_kernels.py measured beside dlperf's estimates of the same
work, and prints Markdown tables of the errors (docs/calibration.md, "Measured on a lent H100").

Usage: python3 tools/measure/compare.py ROWS.json --dlperf build/bin/dlperf --gpu h100_sxm
           [--device CALIBRATED.json]

Each estimate runs the dlperf tool (`gemm --json`, `model --json`); the error is
estimate / measurement - 1 on time, so a negative error is an estimate faster than the GPU.
"""

import argparse
import json
import statistics
import subprocess
import sys


def dlperf_json(tool, args):
    out = subprocess.run([tool, *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{tool} {' '.join(args)}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def errors_line(errs):
    if not errs:
        return "no rows"
    worst = max(errs, key=abs)
    return (f"{len(errs)} rows, median |error| {statistics.median(abs(e) for e in errs):.1%}, "
            f"worst {worst:+.1%}")


def targets(args):
    yield "catalog", ["--gpu", args.gpu]
    if args.device:
        yield "calibrated", ["--device", args.device]


def gemm_table(rows, args, section):
    label = {"gemm": "GEMM", "gemv": "GEMV (decode shapes)"}[section]
    print(f"\n### {label}\n")
    names = [n for n, _ in targets(args)]
    head = "| dtype | m | n | k | measured | " + " | ".join(
        f"{n} estimate | error" for n in names) + " |"
    print(head)
    print("|" + "---|" * (4 + 1 + 2 * len(names)))
    errs = {n: [] for n in names}
    for r in rows:
        if r["section"] != section:
            continue
        cells = [r["dtype"], str(r["m"]), str(r["n"]), str(r["k"])]
        measured = r["graph_s"]
        cells.append(f"{measured * 1e6:.3g} µs" if section == "gemv"
                     else f"{r['tflops_graph']:.0f} TFLOP/s")
        for name, where in targets(args):
            est = dlperf_json(args.dlperf, ["gemm", *where, "--m", str(r["m"]), "--n", str(r["n"]),
                                            "--k", str(r["k"]), "--dtype", r["dtype"]])
            err = est["time_s"] / measured - 1
            errs[name].append(err)
            cells.append(f"{est['time_s'] * 1e6:.3g} µs" if section == "gemv"
                         else f"{est['tflops']:.0f} TFLOP/s")
            cells.append(f"{err:+.1%}")
        print("| " + " | ".join(cells) + " |")
    print()
    for n in names:
        print(f"- {n}: {errors_line(errs[n])}")
        if section == "gemm":
            for dtype in sorted({r["dtype"] for r in rows if r["section"] == section}):
                sub = [e for e, r in zip(errs[n], [r for r in rows if r["section"] == section])
                       if r["dtype"] == dtype]
                print(f"  - {dtype}: {errors_line(sub)}")


def model_table(rows, args, stack):
    print(f"\n### Whole models under `{stack}`\n")
    names = [n for n, _ in targets(args)]
    print("| run | measured | " + " | ".join(f"{n} estimate | error" for n in names) + " |")
    print("|" + "---|" * (2 + 2 * len(names)))
    errs = {n: [] for n in names}
    for r in rows:
        if r["section"] == "decode":
            run = ["--infer", "--batch", str(r["batch"]), "--prompt", str(r["prompt"]),
                   "--generate", str(r["generated"])]
            label = f"{r['model']} decode, batch {r['batch']}, prompt {r['prompt']}"
            measured = r["step_s"]
            pick = "decode_s_per_token"
        elif r["section"] == "train":
            run = ["--train", "--batch", str(r["batch"]), "--seq", str(r["seq"])]
            label = f"{r['model']} training step, batch {r['batch']} x {r['seq']}"
            measured = r["step_s"]
            pick = "step_time_s"
        else:
            continue
        cells = [label, f"{measured * 1e3:.3g} ms"]
        for name, where in targets(args):
            est = dlperf_json(args.dlperf, ["model", "--preset", r["model"], *where, *run,
                                            "--dtype", "bf16", "--stack", stack])
            err = est[pick] / measured - 1
            errs[name].append(err)
            cells += [f"{est[pick] * 1e3:.3g} ms", f"{err:+.1%}"]
        print("| " + " | ".join(cells) + " |")
    print()
    for n in names:
        print(f"- {n}: {errors_line(errs[n])}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows")
    parser.add_argument("--dlperf", default="build/bin/dlperf")
    parser.add_argument("--gpu", default="h100_sxm")
    parser.add_argument("--device", help="the calibrated device file of the same GPU")
    parser.add_argument("--stack", default="pytorch-eager")
    parser.add_argument("--sections", default="gemm,gemv,model")
    args = parser.parse_args()
    with open(args.rows) as f:
        data = json.load(f)
    print(f"Measured on {data['environment']['device']} (torch {data['environment']['torch']})")
    rows = data["rows"]
    for s in args.sections.split(","):
        if s in ("gemm", "gemv"):
            gemm_table(rows, args, s)
        elif s == "model":
            model_table(rows, args, args.stack)
    return 0


if __name__ == "__main__":
    sys.exit(main())
