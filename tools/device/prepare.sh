#!/usr/bin/env bash
# Builds what the GPU check needs and fills .device/ (ignored by git) for a machine that
# has a GPU, its driver and the CUDA 13 runtime but not our build or Debian's libraries:
#   .device/bin/    cuda_mlp and stepscope, stripped
#   .device/lib/    the shared libraries they need that are neither CUDA's nor glibc's
#   .device/glibc/  this machine's glibc (loader included), used only where the GPU
#                   machine's glibc is older than the one we built against
#   .device/release/  when build/release has them (./dev bench): the Release stepscope and
#                   the import and analysis benchmarks with their libraries, and the 15 MB
#                   Kineto trace of ../shared as release/shared/testdata/traces/ (the layout
#                   STEPSCOPE_SHARED_DIR names), for tools/device/lead_checks.sh
# Then run tools/device/gpu_checks.sh there (docs/gpu.md).
#   tools/device/prepare.sh [BUILD_DIR]     default: build
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
DEVICE="$ROOT/.device"

[ -f "$BUILD/CMakeCache.txt" ] || { echo "prepare.sh: no build in $BUILD: run ./dev build first" >&2; exit 2; }
grep -q "^STEPSCOPE_HAVE_CUDA:INTERNAL=ON" "$BUILD/CMakeCache.txt" 2>/dev/null ||
  cmake -S "$ROOT" -B "$BUILD" -DSTEPSCOPE_WITH_CUDA=ON >/dev/null
cmake --build "$BUILD" -j2 --target cuda_mlp stepscope

# CUDA's libraries come from the GPU machine (they must match its driver); glibc's go
# apart; everything else is copied.
is_cuda() { [[ "$1" =~ lib(cuda|cudart|cupti|cublas|cublasLt|nvidia-ml|nvrtc|nvJitLink)\.so ]]; }
is_glibc() { [[ "$1" =~ ^(libc|libm|libdl|libpthread|librt|libutil|ld-linux-x86-64)\.so ]]; }
# Strips `exe` into DIR/bin and copies the libraries it needs into DIR/lib and DIR/glibc.
carry_exe() {
  local exe="$1" dir="$2"
  mkdir -p "$dir/bin" "$dir/lib" "$dir/glibc"
  strip -o "$dir/bin/$(basename "$exe")" "$exe"
  ldd "$exe" | awk '/=> \// {print $1, $3} /ld-linux/ && !/=>/ {print "ld-linux-x86-64.so.2", $1}' |
    while read -r name path; do
      if is_cuda "$name"; then continue; fi
      if is_glibc "$name"; then cp -L "$path" "$dir/glibc/$name"; else cp -L "$path" "$dir/lib/$name"; fi
    done
}

rm -rf "$DEVICE"
for exe in cuda_mlp stepscope; do carry_exe "$BUILD/bin/$exe" "$DEVICE"; done
RELEASE="$ROOT/build/release/bin"
if [ -x "$RELEASE/stepscope" ] && [ -x "$RELEASE/import_benchmark" ] && [ -x "$RELEASE/analysis_benchmark" ] &&
   [ -x "$RELEASE/memory_benchmark" ]; then
  for exe in stepscope import_benchmark analysis_benchmark memory_benchmark; do carry_exe "$RELEASE/$exe" "$DEVICE/release"; done
  mkdir -p "$DEVICE/release/shared/testdata/traces"
  cp "$ROOT/../shared/testdata/traces/hta_ns_resolution_rank-0.pt.trace.json.gz" "$DEVICE/release/shared/testdata/traces/"
else
  echo "prepare.sh: no Release build in build/release (./dev bench): .device/release/ left out" >&2
fi
ldd --version | head -1 | awk '{print $NF}' >"$DEVICE/glibc/VERSION"
echo "prepare.sh: .device/ holds $(du -sh "$DEVICE" | cut -f1):"
find "$DEVICE" -type f -printf '  %P %s\n' | sort
