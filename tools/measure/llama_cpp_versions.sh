#!/usr/bin/env bash
# Times two llama.cpp builds on the same GGUFs on this machine's GPU (docs/calibration.md,
# "llama.cpp on the lent H100"): the 2024-05 build (bin24/ of build_llama_cpp.sh ... 0.2.76) and
# the 2026-10 one (bin/ of build_llama_cpp.sh), on Llama-3-8B shapes (llama_gguf.py) in F16 and
# Q4_K_M (quantised by the older build's quantize, as its users did):
#   - llama-bench pp512 and tg512, flash attention off, 3 repetitions, each build;
#   - Nsight Compute on the older build's decode GEMVs (as llama_cpp.sh's);
#   - Nsight Compute on every kernel of two layers of a 512-token prompt, each build.
# usage: llama_cpp_versions.sh BIN24_DIR BIN_DIR GGUF_PY_DIR OUT_DIR
#   (llama_cpp_summary.py OUT_OF_LLAMA_CPP_SH --versions OUT_DIR gathers the rows)
set -u
old=$(realpath "$1")
new=$(realpath "$2")
gguf_py=$(realpath "$3")
out=$4
here=$(dirname "$(realpath "$0")")
models=${TMPDIR:-/tmp}/dlperf-llama3-models
mkdir -p "$models" "$out"
step() { echo "== $(date +%T) $*"; }
with() { local b=$1; shift; LD_LIBRARY_PATH=$b:${LD_LIBRARY_PATH:-} "$@"; }

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > "$out/gpu.csv"
step gguf
PYTHONPATH=$gguf_py python3 "$here/llama_gguf.py" --preset llama3_8b "$models/f16.gguf" || exit 1
step quantize
with "$old" "$old/quantize" "$models/f16.gguf" "$models/q4_k_m.gguf" Q4_K_M 16 \
  > "$out/quant.log" 2>&1 || exit 1
both=$models/q4_k_m.gguf,$models/f16.gguf
step llama-bench 2024-05
with "$old" timeout 150 "$old/llama-bench" -m "$both" -ngl 99 -p 512 -n 512 -r 3 -fa 0 -o json \
  > "$out/bench24.json" 2> "$out/bench24.err"
step llama-bench 2026-10
with "$new" timeout 120 "$new/llama-bench" -m "$both" -ngl 99 -p 512 -n 512 -r 3 -fa 0 -o json \
  > "$out/bench26.json" 2> "$out/bench26.err"

ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size
metrics+=,launch__block_size,launch__registers_per_thread
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed
for f in q4_k_m f16; do
  step "ncu decode GEMVs, 2024-05, $f"
  with "$old" timeout 60 "$ncu" --clock-control none --csv --page raw \
    -k "regex:mul_mat_vec|dequantize_mul_mat" --launch-skip 40 --launch-count 16 \
    --metrics "$metrics" "$old/llama-bench" -m "$models/$f.gguf" -ngl 99 -p 0 -n 4 -r 1 \
    > "$out/ncu24_$f.csv" 2>> "$out/ncu.err"
done
# Every kernel of two prompt layers: the warm-up pass's third layer on (150 kernels in).
for build in 24 26; do
  [ $build = 24 ] && b=$old || b=$new
  for f in f16 q4_k_m; do
    step "ncu prompt kernels, build $build, $f"
    with "$b" timeout 75 "$ncu" --clock-control none --csv --page raw --launch-skip 150 \
      --launch-count 90 --metrics "$metrics" \
      "$b/llama-bench" -m "$models/$f.gguf" -ngl 99 -p 512 -n 0 -r 1 -fa 0 \
      > "$out/pp${build}_$f.csv" 2>> "$out/ncu.err"
  done
done
step done
