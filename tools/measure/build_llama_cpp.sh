#!/usr/bin/env bash
# Builds what llama_cpp.sh runs, on a machine with the CUDA toolkit and network but no GPU, and
# packs it to carry to a lent GPU machine (which has neither network nor llama.cpp):
#   - llama.cpp's sources from the llama-cpp-python sdist on PyPI (vendor/llama.cpp; the sdist of
#     0.3.36 holds llama.cpp of 2026-10 (0c1e570), 0.2.76 llama.cpp of 2024-05 (0df0aa8), whose
#     CMake options are LLAMA_* and whose targets are llama-bench and quantize);
#   - test-backend-ops with matrix-vector cases of m=32768 x k=8192 added to its perf cases (its
#     own cases of 4096 x 14336 fit an H100's L2 once quantised, and repeated runs then time L2);
#   - llama-bench, llama-quantize and test-backend-ops for one architecture, shared libraries;
#     executables linked with --allow-shlib-undefined, as libcuda.so.1 comes with the driver.
# usage: build_llama_cpp.sh WORK_DIR OUT_DIR [CUDA_ARCH, default 90] [VERSION, default 0.3.36]
#   OUT_DIR gets lcpp.tar.xz (build/bin), gguf-py/ and libcudart.so.13; llama_cpp.sh takes the
#   unpacked bin/ and gguf-py/. A 0.2.x VERSION gets lcpp24.tar.xz (bin24/: llama-bench,
#   quantize, libllama.so) for llama_cpp_versions.sh instead. The build takes about 25 minutes
#   on 2 cores (0.2.76: 3).
set -eu
work=$1
out=$2
arch=${3:-90}
version=${4:-0.3.36}
mkdir -p "$work" "$out"
cd "$work"
pip download "llama-cpp-python==$version" --no-deps --no-binary :all: -d . > /dev/null
tar xzf "llama_cpp_python-$version.tar.gz"
src=$work/llama_cpp_python-$version/vendor/llama.cpp
export PATH=$PATH:/usr/local/cuda/bin
if [[ $version == 0.2.* ]]; then
  # llama.cpp of 2024: LLAMA_CUDA, the tools under examples/, quantize not yet llama-quantize.
  cmake -S "$src" -B "$work/build" -DLLAMA_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
    -DLLAMA_CURL=OFF -DLLAMA_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=ON \
    -DLLAMA_BUILD_SERVER=OFF -DBUILD_SHARED_LIBS=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_EXE_LINKER_FLAGS="-Wl,--allow-shlib-undefined" > /dev/null
  cmake --build "$work/build" -j"$(nproc)" --target llama-bench quantize
  rm -rf "$work/bin24" && mkdir "$work/bin24"
  cp "$work/build/bin/llama-bench" "$work/build/bin/quantize" "$work/build/libllama.so" \
    "$work/bin24/"
  tar cf - -C "$work" bin24 | xz -T0 -6 > "$out/lcpp24.tar.xz"
  ls -la "$out"
  exit 0
fi
python3 - "$src/tests/test-backend-ops.cpp" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
anchor = "    for (int bs : {1, 2, 3, 4, 5, 8, 512}) {\n        for (ggml_type type_a : all_types) {"
if "m=32768 x k=8192" not in s:
    assert s.count(anchor) == 1, "test-backend-ops.cpp: the perf cases moved"
    add = ("    // m=32768 x k=8192: matrix-vector products far larger than any L2\n"
           "    for (int bs : {1, 2, 4, 8}) {\n"
           "        for (ggml_type type_a : {GGML_TYPE_F16, GGML_TYPE_BF16, GGML_TYPE_Q4_0, "
           "GGML_TYPE_Q4_K, GGML_TYPE_Q5_K, GGML_TYPE_Q6_K, GGML_TYPE_Q8_0}) {\n"
           "            test_cases.emplace_back(new test_mul_mat(type_a, GGML_TYPE_F32, 32768, bs, "
           "8192, {1,  1}, {1, 1}));\n        }\n    }\n")
    open(p, "w").write(s.replace(anchor, add + anchor))
EOF
cmake -S "$src" -B "$work/build" -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" \
  -DLLAMA_CURL=OFF -DGGML_NATIVE=OFF -DGGML_CUDA_NCCL=OFF -DLLAMA_BUILD_TESTS=ON \
  -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DBUILD_SHARED_LIBS=ON \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXE_LINKER_FLAGS="-Wl,--allow-shlib-undefined" > /dev/null
cmake --build "$work/build" -j"$(nproc)" --target llama-bench llama-quantize test-backend-ops
tar cf - -C "$work/build" bin | xz -T0 -6 > "$out/lcpp.tar.xz"
rm -rf "$out/gguf-py" && cp -r "$src/gguf-py" "$out/gguf-py" && rm -rf "$out/gguf-py/tests"
cp "$(readlink -f "$(ldconfig -p | awk '/libcudart.so.13 /{print $NF; exit}')")" \
  "$out/libcudart.so.13"
ls -la "$out"
