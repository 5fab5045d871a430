#!/usr/bin/env bash
# Times llama.cpp on this machine's GPU, for a lent GPU machine where no model can be downloaded
# (docs/evidence.md, "Workstation and data-centre boards under llama.cpp": what it is to measure):
#   - llama-bench (pp512, tg128, 3 repetitions) on Llama-2-7B-shaped GGUFs with random weights
#     (llama_gguf.py) in F16, Q4_0 and Q4_K_M, flash attention on and off, and decode without
#     CUDA graphs;
#   - test-backend-ops' MUL_MAT perf cases of m=32768 x k=8192 (weights far larger than L2), the
#     steady rate of llama.cpp's matrix-vector kernels;
#   - Nsight Compute on the decode GEMV kernels (cold caches, clocks left alone): time, DRAM
#     bytes, grid and occupancy of each; and on the GEMM, attention and activation-quantising
#     kernels of a 512-token prompt;
#   - pp512 and pp2048 with 10 repetitions (the first of a run is often slow).
# Built by build_llama_cpp.sh; on the device, unpack lcpp.tar.xz and put libcudart.so.13 in bin/.
# usage: llama_cpp.sh BIN_DIR GGUF_PY_DIR OUT_DIR
#   BIN_DIR: llama.cpp's build/bin (llama-bench, llama-quantize, test-backend-ops and its .so)
set -u
bin=$(realpath "$1")
gguf_py=$(realpath "$2")
out=$3
here=$(dirname "$(realpath "$0")")
models=${TMPDIR:-/tmp}/dlperf-llama-models
mkdir -p "$models" "$out"
export LD_LIBRARY_PATH=$bin:${LD_LIBRARY_PATH:-}
step() { echo "== $(date +%T) $*"; }

step gpu
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,power.limit,memory.total \
  --format=csv | tee "$out/gpu.csv"

step gguf
PYTHONPATH=$gguf_py python3 "$here/llama_gguf.py" --preset llama2_7b "$models/f16.gguf" || exit 1
step quantize
"$bin/llama-quantize" "$models/f16.gguf" "$models/q4_0.gguf" Q4_0 16 > "$out/quantize.log" 2>&1
"$bin/llama-quantize" "$models/f16.gguf" "$models/q4_k_m.gguf" Q4_K_M 16 >> "$out/quantize.log" 2>&1
all=$models/q4_0.gguf,$models/q4_k_m.gguf,$models/f16.gguf

step llama-bench
"$bin/llama-bench" -m "$all" -ngl 99 -p 512 -n 128 -r 3 -fa 1,0 -o json \
  > "$out/llama_bench.json" 2> "$out/llama_bench.err"
step llama-bench without CUDA graphs
GGML_CUDA_DISABLE_GRAPHS=1 "$bin/llama-bench" -m "$all" -ngl 99 -p 0 -n 128 -r 3 -o json \
  > "$out/llama_bench_no_graphs.json" 2> "$out/llama_bench_no_graphs.err"

step test-backend-ops
timeout 120 "$bin/test-backend-ops" perf -o MUL_MAT -b CUDA0 -p "m=32768,n=(1|8)," > "$out/mul_mat_perf.txt" 2>&1

ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size
metrics+=,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,sm__maximum_warps_per_active_cycle_pct,sm__cycles_elapsed.avg.per_second
for f in q4_0 q4_k_m f16; do
  step "ncu $f"
  timeout 100 "$ncu" --clock-control none --csv --page raw -k regex:mul_mat_vec --launch-skip 40 \
    --launch-count 24 --metrics "$metrics" \
    "$bin/llama-bench" -m "$models/$f.gguf" -ngl 99 -p 0 -n 4 -r 1 \
    > "$out/ncu_gemv_$f.csv" 2> "$out/ncu_gemv_$f.err"
done
for f in q4_0 f16; do
  step "ncu prompt $f"
  timeout 90 "$ncu" --clock-control none --csv --page raw \
    -k "regex:mul_mat|gemm|nvjet|cutlass|xmma|flash_attn|soft_max|quantize" --launch-count 60 \
    --metrics "$metrics,sm__throughput.avg.pct_of_peak_sustained_elapsed" \
    "$bin/llama-bench" -m "$models/$f.gguf" -ngl 99 -p 512 -n 0 -r 1 \
    > "$out/ncu_pp_$f.csv" 2> "$out/ncu_pp_$f.err"
done
step pp with 10 repetitions
"$bin/llama-bench" -m "$models/q4_0.gguf,$models/f16.gguf" -ngl 99 -p 512,2048 -n 0 -r 10 -fa 1 \
  -o json > "$out/pp_r10.json" 2> "$out/pp_r10.err"
step done
