#!/usr/bin/env python3
"""The GEMMs whose L2 and DRAM traffic Nsight Compute reads on a GPU, for the tile model's
traffic (docs/calibration.md, "Measured on a lent H100"): run it under ncu, e.g.

    ncu --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,\\
lts__t_bytes.sum,lts__t_sectors_srcunit_tex_op_read.sum --csv python3 tools/measure/gemm_traffic.py

Each shape is y = x W^T in BF16 on random operands (PyTorch, cuBLAS), run once after a warm-up.
"""

import torch

SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (2048, 11008, 4096), (1, 11008, 4096)]


def main():
    for m, n, k in SHAPES:
        x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        torch.matmul(x, w.t())  # warm-up: cuBLAS's heuristics and workspace
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_push(f"gemm {m}x{n}x{k}")
        torch.matmul(x, w.t())
        torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        print(f"gemm {m} {n} {k}", flush=True)


if __name__ == "__main__":
    main()
