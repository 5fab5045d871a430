#!/usr/bin/env python3
"""Turns the MPT training benchmark tables of MosaicML's llm-foundry into rows of
training_multi_gpu.csv (docs/evidence.md, "Training on many GPUs").

    python3 import_llm_foundry.py README.md > training_multi_gpu.csv

README.md is scripts/train/benchmarking/README.md of mosaicml/llm-foundry at COMMIT below. Every
figure is copied from the tables as published; the script only maps their names onto dlperf's
(GPU ids, ZeRO stages) and records each table's conditions from its heading. Nothing is computed.
"""
import csv
import sys

COMMIT = "8c8dd48f72168c5d51e2f7b151595892a8fba43d"
URL = ("https://github.com/mosaicml/llm-foundry/blob/" + COMMIT +
       "/scripts/train/benchmarking/README.md")
# Each table: its heading, the commit that added it (its date; the A100 tables came with the
# repository's restructure, 300cc5c58 of 2023-05-03, and ef350d9e6 of 2023-07-05 only renamed
# their headings), the GPU, the network between servers as the heading states it (per GPU:
# 1600 Gbit/s a server over 8 GPUs), and the published interconnect text.
TABLES = {
    "## H100 80GB BF16 (Large Scale, >= 128 GPUs)": ("2024-01-06", "h100_sxm", "", "not published"),
    "## H100 80GB BF16": ("2023-10-19", "h100_sxm", "", "not published"),
    "## H100 80GB FP8": ("2023-10-19", "h100_sxm", "", "not published"),
    "## A100 80GB with 1600 Gbps node-node interconnect (RoCE)":
        ("2023-05-03", "a100_sxm4_80gb", "roce_200g", "1600 Gbps node-node (RoCE)"),
    "## A100 40GB with 1600 Gbps node-node interconnect (RoCE)":
        ("2023-05-03", "a100_sxm4_40gb", "roce_200g", "1600 Gbps node-node (RoCE)"),
}
ZERO = {"FULL_SHARD": "3", "SHARD_GRAD_OP": "2"}
# The attention every table ran: scripts/train/benchmarking/submit_benchmarks.py sets the model's
# attn_impl from --attn_impl, default 'triton', and sweep.sh passes none (at 300cc5c58,
# b2a43a147 and 5e85bd62d alike): FlashAttention's Triton kernel of the FlashAttention-1 era
# (llm-foundry's triton_flash_attn, built on triton-pre-mlir).
ATTENTION = "flash-attention-triton"
COLUMNS = ["id", "source", "publisher", "url", "date", "model", "gpu", "gpu_published", "gpus",
           "gpus_per_node", "network", "network_published", "stack", "precision", "dlperf_dtype",
           "fsdp_mixed_precision", "zero", "sharding_published", "micro_batch",
           "grad_accumulation", "seq", "checkpointing", "metric", "value", "mfu_published",
           "parameters_published", "attention_kernel", "settings"]


def main(path):
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(COLUMNS)
    table = None
    n = 0
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("## "):
            table = TABLES.get(line.strip())
            heading = line.strip()[3:]
            continue
        if table is None or not line.startswith("|  ") or line.startswith("|  Model") or \
                line.startswith("|  ---"):
            continue
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        (model, seq, gpus, gpu, mfu, _hfu, _tflop, micro, accum, _gbs, _sps, _tps, tps_gpu,
         _gbt, precision, mp_mode, sharding, ckpt, offload, params) = c
        if offload != "False":
            continue
        date, gpu_id, network, network_text = table
        n += 1
        dtype = "fp8_e4m3" if precision == "amp_fp8" else "bf16"
        out.writerow([
            f"llmf-{n}", "LLMF-BENCH", "MosaicML llm-foundry", URL, date, f"mpt_{model}", gpu_id,
            gpu, gpus, "8", network, network_text, "pytorch-eager", precision, dtype, mp_mode,
            ZERO[sharding], sharding, micro, accum, seq, "yes" if ckpt == "True" else "no",
            "tokens_per_s_per_gpu", tps_gpu, mfu, params, ATTENTION,
            f"table '{heading}'; Composer FSDP, attn_impl triton (submit_benchmarks.py's default), "
            f"Composer DecoupledAdamW (the yamls), {precision} with FSDP mixed precision {mp_mode}"])


if __name__ == "__main__":
    main(sys.argv[1])
