#!/usr/bin/env python3
"""Times fused attention through PyTorch's scaled_dot_product_attention on one CUDA GPU, with
the FlashAttention-2 backend and the cuDNN one, at the settings of the FlashAttention papers'
figures (16k tokens per batch, hidden 2048, head dimension 128, BF16), and prints JSON rows
with TFLOP/s counted as those papers count them: forward 4 b h s^2 d (half of it when causal),
forward and backward 3.5 times the forward (docs/calibration.md, "Measured on a lent H100").

Usage: python3 tools/measure/attention.py > rows.json
"""

import json

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch_kernels import event_samples  # tools/measure/, beside this script


def timed(fn, reps=10, warmup=3):
    """Median seconds and spread of @p fn over @p reps runs after @p warmup."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    return event_samples(fn, reps, 1)


def main():
    rows = []
    d, heads = 128, 16
    backends = {"flash-attention-2": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
    for name, backend in backends.items():
        for seq in (2048, 4096, 8192, 16384):
            batch = 16384 // seq
            q, k, v = (torch.randn(batch, heads, seq, d, device="cuda", dtype=torch.bfloat16,
                                   requires_grad=True) for _ in range(3))
            grad = torch.randn(batch, heads, seq, d, device="cuda", dtype=torch.bfloat16)
            for causal in (False, True):
                fwd_flop = 4.0 * batch * heads * seq * seq * d / (2 if causal else 1)

                def forward():
                    with sdpa_kernel(backend):
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

                def both():
                    forward().backward(grad)

                try:
                    f, fs = timed(forward)
                    fb, fbs = timed(both)
                except RuntimeError as e:  # a backend this build or GPU lacks
                    rows.append({"backend": name, "seq": seq, "causal": causal, "error": str(e)[:200]})
                    continue
                rows.append({"backend": name, "batch": batch, "heads": heads, "head_dim": d,
                             "seq": seq, "causal": causal, "forward_s": f, "forward_spread": fs,
                             "forward_tflops": fwd_flop / f / 1e12, "forward_backward_s": fb,
                             "forward_backward_spread": fbs,
                             "forward_backward_tflops": 3.5 * fwd_flop / fb / 1e12})
            del q, k, v, grad
    print(json.dumps({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                      "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
