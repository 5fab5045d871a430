#!/usr/bin/env python3
"""Gather what llama_cpp.sh wrote into one JSON file of measured rows (tests/data/measured/):
llama-bench's runs, test-backend-ops' matrix-vector rates and Nsight Compute's GEMV kernels.

    python3 llama_cpp_summary.py OUT_DIR --gpu h100_sxm --date 2026-11-27 > rows.json
"""

import argparse
import csv
import json
import re
from pathlib import Path

WEIGHTS = {"q4_0": "q4_0", "q4_k_m": "q4_k_m", "f16": "fp16"}


def weights_of(path):
    return WEIGHTS[Path(path).stem]


def bench_rows(path, graphs):
    rows = []
    for r in json.loads(Path(path).read_text()):
        test = f"pp{r['n_prompt']}" if r["n_prompt"] else f"tg{r['n_gen']}"
        rows.append({
            "weights": weights_of(r["model_filename"]),
            "test": test,
            "flash_attn": r["flash_attn"] in (True, 1, "1", "on", "enabled"),
            "cuda_graphs": graphs,
            "tokens_per_s": r["avg_ts"],
            "stddev_tokens_per_s": r["stddev_ts"],
            "build": f"{r['build_commit']} ({r['build_number']})",
            "gpu_info": r["gpu_info"],
            "cpu_info": r["cpu_info"],
        })
    return rows


PERF = re.compile(r"MUL_MAT\(type_a=(\w+),type_b=f32,m=(\d+),n=(\d+),k=(\d+).*?"
                  r"([\d.]+) us/run - +([\d.]+) kB/run - +([\d.]+) GB/s")


def mul_mat_rows(path):
    rows = []
    for line in Path(path).read_text().splitlines():
        m = PERF.search(line)
        if m:
            t, rows_, n, k, us, kb, gbs = m.groups()
            rows.append({"type": t, "m": int(rows_), "n": int(n), "k": int(k),
                         "time_s": float(us) * 1e-6, "bytes": float(kb) * 1e3,
                         "bytes_per_s": float(gbs) * 1e9})
    return rows


def ncu_rows(path):
    text = Path(path).read_text().splitlines()
    start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
    if start is None:
        return []
    table = list(csv.reader(text[start:]))
    head, units, body = table[0], table[1], table[2:]
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "nsecond": 1e-9,
             "usecond": 1e-6, "msecond": 1e-3, "second": 1, "cycle/second": 1,
             "cycle/nsecond": 1e9, "cycle/usecond": 1e6, "%": 1, "": 1,
             "register/thread": 1, "block": 1, "thread": 1}
    rows = []
    for r in body:
        d = dict(zip(head, r))
        u = dict(zip(head, units))

        def num(name):
            v = d.get(name, "").replace(",", "")
            return float(v) * scale.get(u.get(name, ""), 1) if v else None

        rows.append({
            "kernel": d["Kernel Name"][:120],
            "grid": num("launch__grid_size"),
            "block": num("launch__block_size"),
            "registers_per_thread": num("launch__registers_per_thread"),
            "time_s": num("gpu__time_duration.sum"),
            "dram_read_bytes": num("dram__bytes_read.sum"),
            "dram_write_bytes": num("dram__bytes_write.sum"),
            "dram_pct_of_peak": num("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
            "achieved_occupancy_pct": num("sm__warps_active.avg.pct_of_peak_sustained_active"),
            "theoretical_occupancy_pct": num("sm__maximum_warps_per_active_cycle_pct"),
            "sm_clock_hz": num("sm__cycles_elapsed.avg.per_second"),
        })
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out_dir")
    p.add_argument("--gpu", required=True)
    p.add_argument("--date", required=True)
    a = p.parse_args()
    d = Path(a.out_dir)
    result = {
        "gpu": a.gpu,
        "date": a.date,
        "how": "tools/measure/llama_cpp.sh: llama.cpp built from the sources of the "
               "llama-cpp-python 0.3.36 sdist (vendor/llama.cpp), CUDA 13.0, sm_90; "
               "Llama-2-7B-shaped GGUFs with random weights (llama_gguf.py), all layers on the GPU",
        "gpu_csv": (d / "gpu.csv").read_text().strip().splitlines()[-1],
        "llama_bench": bench_rows(d / "llama_bench.json", True)
        + bench_rows(d / "llama_bench_no_graphs.json", False),
        "mul_mat": mul_mat_rows(d / "mul_mat_perf.txt"),
        "gemv_kernels": {w: ncu_rows(d / f"ncu_gemv_{w}.csv") for w in WEIGHTS
                         if (d / f"ncu_gemv_{w}.csv").exists()},
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
