#!/usr/bin/env python3
"""Where the model's error on MosaicML's 8-GPU training rows sits: inside the fused attention
kernels or outside them (docs/evidence.md, "Where the dense rows' error sits").

    python3 split_attention.py build/bin/dlperf

For every 8-GPU BF16 row of training_multi_gpu.csv on A100 40 GB, A100 80 GB and H100 SXM, the
tool estimates the row with its settings (as tests/evidence/evidence_training_test.cpp does)
and gives the step T and the share a of its kernel time in fused attention. The measured step t
(the row's tokens/s against the tool's) is fitted per GPU and recompute setting by least squares
as t = x (1 - a) T + y a T, and x, y and the fit's residuals printed. An analysis of the
evidence: nothing in the model reads it. Standard library only.
"""
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPUS = ("a100_sxm4_40gb", "a100_sxm4_80gb", "h100_sxm")


def estimate(tool, r):
    cmd = [tool, "model", "--preset", r["model"], "--gpu", r["gpu"], "--gpus", r["gpus"],
           "--zero", r["zero"], "--batch", r["micro_batch"], "--seq", r["seq"],
           "--max-seq", str(max(2048, int(r["seq"]))), "--grad-accum", r["grad_accumulation"],
           "--stack", r["stack"], "--attention", r["attention_kernel"], "--network",
           r["network"], "--json"]
    if r["checkpointing"] == "yes":
        cmd.append("--checkpointing")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def fit(points):
    """Least squares of y ~ x0 u0 + x1 u1 over (u0, u1, y) points."""
    a11 = sum(u0 * u0 for u0, _, _ in points)
    a12 = sum(u0 * u1 for u0, u1, _ in points)
    a22 = sum(u1 * u1 for _, u1, _ in points)
    b1 = sum(u0 * y for u0, _, y in points)
    b2 = sum(u1 * y for _, u1, y in points)
    det = a11 * a22 - a12 * a12
    return (b1 * a22 - b2 * a12) / det, (a11 * b2 - a12 * b1) / det


def main():
    tool = sys.argv[1]
    with open(os.path.join(HERE, "training_multi_gpu.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f)
                if r["gpus"] == "8" and r["gpu"] in GPUS and r["dlperf_dtype"] == "bf16"]
    groups = {}
    for r in rows:
        d = estimate(tool, r)
        kernels = sum(o["time_s"] for o in d["ops"])
        attention = sum(o["time_s"] for o in d["ops"]
                        if "attention" in o["name"] and "fused" in o["name"])
        share = attention / kernels
        # measured step / predicted step = predicted tokens/s / measured tokens/s (per GPU)
        ratio = d["tokens_per_s"] / (8 * float(r["value"]))
        groups.setdefault((r["gpu"], r["checkpointing"]), []).append((1 - share, share, ratio))
    print("| rows (8 GPUs, MosaicML, BF16) | n | outside attention, x | attention, y "
          "| residual median, worst |")
    print("|---|---:|---:|---:|---|")
    for (gpu, recompute), points in sorted(groups.items()):
        x, y = fit(points)
        residuals = sorted(abs((x * u0 + y * u1) / v - 1) for u0, u1, v in points)
        print(f"| {gpu}, {'recompute' if recompute == 'yes' else 'no recompute'} "
              f"| {len(points)} | {x:.3f} | {y:.3f} "
              f"| {100 * residuals[len(residuals) // 2]:.1f} %, {100 * residuals[-1]:.1f} % |")


if __name__ == "__main__":
    main()
