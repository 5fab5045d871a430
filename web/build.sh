#!/usr/bin/env bash
# Builds web/dlperf.js and web/dlperf.wasm: the tool's command sources compiled by Debian's
# emscripten (em++). Boost, CLI11, nlohmann_json and fmt are header-only here; their Debian
# headers come from a folder of links to just those four (all of /usr/include would put glibc's
# headers in front of emscripten's libc). Usage: web/build.sh [-j N]
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=2
if [ "${1:-}" = "-j" ]; then jobs="$2"; fi
out=web/build
mkdir -p "$out/include" "$out/obj"
for h in boost CLI nlohmann fmt; do ln -sfn "/usr/include/$h" "$out/include/$h"; done
flags=(-std=c++20 -O2 -fexceptions -DFMT_HEADER_ONLY=1 -Iinclude -Iexamples/dlperf
       -isystem "$out/include" -Wall -Wextra -Werror -Wno-unused-command-line-argument)
sources=(web/dlperf_wasm.cpp)
for f in examples/dlperf/*.cpp; do
  case "$f" in */main.cpp | */calibrate_hip_backend.cpp) ;; *) sources+=("$f") ;; esac
done
objects=()
for f in "${sources[@]}"; do objects+=("$out/obj/$(basename "${f%.cpp}").o"); done
# Compile in parallel (always all: a changed header must not leave a stale object).
printf '%s\n' "${sources[@]}" | xargs -P "$jobs" -I{} sh -c '
  obj="'"$out"'/obj/$(basename "{}" .cpp).o"
  em++ '"${flags[*]}"' -c "{}" -o "$obj"'
em++ "${objects[@]}" -O2 -fexceptions -o web/dlperf.js -sMODULARIZE=1 -sEXPORT_NAME=createDlperf \
  -sALLOW_MEMORY_GROWTH=1 -sFORCE_FILESYSTEM=1 -sEXPORTED_FUNCTIONS=_dlperf_run \
  -sEXPORTED_RUNTIME_METHODS=ccall,FS
echo "wrote web/dlperf.js and web/dlperf.wasm"
