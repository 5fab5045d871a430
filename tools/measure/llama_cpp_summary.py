#!/usr/bin/env python3
"""Gather what llama_cpp.sh and llama_cpp_versions.sh wrote into one JSON file of measured rows
(tests/data/measured/): llama-bench's runs, test-backend-ops' matrix-vector rates and Nsight
Compute's kernels (the decode GEMVs, and every kernel of a prompt's layers).

    python3 llama_cpp_summary.py OUT_DIR [--versions VERSIONS_DIR] --gpu h100_sxm \\
        --date 2026-11-27 > rows.json

OUT_DIR is llama_cpp.sh's output; VERSIONS_DIR is llama_cpp_versions.sh's.
"""

import argparse
import csv
import json
import re
from pathlib import Path

WEIGHTS = {"q4_0": "q4_0", "q4_k_m": "q4_k_m", "f16": "fp16"}

# Bytes per weight of ggml's block formats (ggml-common.h: block size and bytes per block).
BYTES_PER_WEIGHT = {"f16": 2.0, "bf16": 2.0, "q4_0": 18 / 32, "q4_K": 144 / 256,
                    "q5_K": 176 / 256, "q6_K": 210 / 256, "q8_0": 34 / 32}


def weights_of(path):
    return WEIGHTS[Path(path).stem]


def bench_rows(path, graphs):
    rows = []
    for r in json.loads(Path(path).read_text()):
        test = f"pp{r['n_prompt']}" if r["n_prompt"] else f"tg{r['n_gen']}"
        rows.append({
            "model": r["model_type"],
            "weights": weights_of(r["model_filename"]),
            "test": test,
            "flash_attn": r["flash_attn"] in (True, 1, "1", "on", "enabled"),
            "cuda_graphs": graphs,
            "tokens_per_s": r["avg_ts"],
            "stddev_tokens_per_s": r["stddev_ts"],
            "samples_tokens_per_s": r.get("samples_ts", []),
            "build": r["build_commit"],
            "gpu_info": r["gpu_info"],
        })
    return rows


PERF = re.compile(r"MUL_MAT\(type_a=(\w+),type_b=f32,m=(\d+),n=(\d+),k=(\d+).*?"
                  r"([\d.]+) us/run")


def mul_mat_rows(path):
    """test-backend-ops perf lines: time per run; the weights' bytes from the type's block size."""
    rows = []
    for line in Path(path).read_text().splitlines():
        m = PERF.search(line)
        if m:
            t, rows_, n, k, us = m.groups()
            weight_bytes = int(rows_) * int(k) * BYTES_PER_WEIGHT[t]
            rows.append({"type": t, "m": int(rows_), "n": int(n), "k": int(k),
                         "time_s": float(us) * 1e-6, "weight_bytes": weight_bytes})
    return rows


def ncu_rows(path):
    text = Path(path).read_text().splitlines()
    start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
    if start is None:
        return []
    table = list(csv.reader(text[start:]))
    head, units, body = table[0], table[1], table[2:]
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "nsecond": 1e-9, "ns": 1e-9,
             "us": 1e-6, "ms": 1e-3,
             "usecond": 1e-6, "msecond": 1e-3, "second": 1, "hz": 1, "%": 1, "": 1,
             "register/thread": 1}
    rows = []
    for r in body:
        d = dict(zip(head, r))
        u = dict(zip(head, units))

        def num(name):
            v = d.get(name, "").replace(",", "")
            return float(v) * scale.get(u.get(name, ""), 1) if v else None

        row = {
            "kernel": d["Kernel Name"][:100],
            "grid": num("launch__grid_size"),
            "block": num("launch__block_size"),
            "time_s": num("gpu__time_duration.sum"),
            "dram_read_bytes": num("dram__bytes_read.sum"),
            "dram_write_bytes": num("dram__bytes_write.sum"),
            "achieved_occupancy_pct": num("sm__warps_active.avg.pct_of_peak_sustained_active"),
            "sm_throughput_pct": num("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
            "sm_clock_hz": num("sm__cycles_elapsed.avg.per_second"),
        }
        rows.append({k: v for k, v in row.items() if v is not None})
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out_dir")
    p.add_argument("--versions")
    p.add_argument("--gpu", required=True)
    p.add_argument("--date", required=True)
    a = p.parse_args()
    d = Path(a.out_dir)
    result = {
        "gpu": a.gpu,
        "date": a.date,
        "description": "llama.cpp timed on a lent GPU by tools/measure/llama_cpp.sh (and "
                       "llama_cpp_versions.sh), built by build_llama_cpp.sh from the sources "
                       "of llama-cpp-python's sdists (vendor/llama.cpp), CUDA 13.0, sm_90; "
                       "GGUFs of Llama shapes with random weights (llama_gguf.py), all layers "
                       "on the GPU. Nsight Compute ran with --clock-control none and its "
                       "default cache flush: each kernel starts with cold caches. "
                       "docs/calibration.md, 'llama.cpp on the lent H100'.",
        "nvidia_smi": (d / "gpu.csv").read_text().strip().splitlines()[-1],
        "build": "0c1e570 (llama-cpp-python 0.3.36, llama.cpp of 2026-10)",
        "model": "llama2_7b",
        "llama_bench": bench_rows(d / "llama_bench.json", True)
        + bench_rows(d / "llama_bench_no_graphs.json", False)
        + (bench_rows(d / "pp_r10.json", True) if (d / "pp_r10.json").exists() else []),
        "mul_mat": mul_mat_rows(d / "mul_mat_perf.txt"),
        "gemv_kernels": {w: ncu_rows(d / f"ncu_gemv_{w}.csv") for w in WEIGHTS
                         if (d / f"ncu_gemv_{w}.csv").exists()},
        "prompt_kernels": {w: ncu_rows(d / f"ncu_pp_{w}.csv") for w in WEIGHTS
                           if (d / f"ncu_pp_{w}.csv").exists()},
    }
    if a.versions:
        v = Path(a.versions)
        result["versions"] = {
            "description": "Two builds on the same GGUFs of Llama-3-8B's shapes (Q4_K_M "
                           "quantised by the older build's quantize): 0df0aa8 (llama-cpp-python "
                           "0.2.76, llama.cpp of 2024-05, the month of XDAI-LLAMA3's rows) and "
                           "0c1e570 (0.3.36, 2026-10); llama-bench pp512 and tg512, flash "
                           "attention off, 3 repetitions; Nsight Compute on the older build's "
                           "decode GEMVs and on every kernel of two prompt layers of both.",
            "model": "llama3_8b",
            "llama_bench": bench_rows(v / "bench24.json", True)
            + bench_rows(v / "bench26.json", True),
            "gemv_kernels_0df0aa8": {w: ncu_rows(v / f"ncu24_{w}.csv") for w in WEIGHTS
                                     if (v / f"ncu24_{w}.csv").exists()},
            "prompt_kernels_0df0aa8": {w: ncu_rows(v / f"pp24_{w}.csv") for w in WEIGHTS
                                       if (v / f"pp24_{w}.csv").exists()},
            "prompt_kernels_0c1e570": {w: ncu_rows(v / f"pp26_{w}.csv") for w in WEIGHTS
                                       if (v / f"pp26_{w}.csv").exists()},
        }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
