#!/usr/bin/env bash
# Builds what the GPU check needs and fills .device/ (ignored by git) for a machine that
# has a GPU, its driver and the CUDA 13 runtime but not our build or Debian's libraries:
#   .device/bin/    cuda_mlp and stepscope, stripped
#   .device/lib/    the shared libraries they need that are neither CUDA's nor glibc's
#   .device/glibc/  this machine's glibc (loader included), used only where the GPU
#                   machine's glibc is older than the one we built against
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

rm -rf "$DEVICE"
mkdir -p "$DEVICE/bin" "$DEVICE/lib" "$DEVICE/glibc"
for exe in cuda_mlp stepscope; do
  strip -o "$DEVICE/bin/$exe" "$BUILD/bin/$exe"
done

# CUDA's libraries come from the GPU machine (they must match its driver); glibc's go
# apart; everything else is copied.
is_cuda() { [[ "$1" =~ lib(cuda|cudart|cupti|cublas|cublasLt|nvidia-ml|nvrtc|nvJitLink)\.so ]]; }
is_glibc() { [[ "$1" =~ ^(libc|libm|libdl|libpthread|librt|libutil|ld-linux-x86-64)\.so ]]; }
for exe in "$DEVICE"/bin/*; do
  ldd "$exe" | awk '/=> \// {print $1, $3} /ld-linux/ && !/=>/ {print "ld-linux-x86-64.so.2", $1}' |
    while read -r name path; do
      if is_cuda "$name"; then continue; fi
      if is_glibc "$name"; then cp -L "$path" "$DEVICE/glibc/$name"; else cp -L "$path" "$DEVICE/lib/$name"; fi
    done
done
ldd --version | head -1 | awk '{print $NF}' >"$DEVICE/glibc/VERSION"
echo "prepare.sh: .device/ holds $(du -sh "$DEVICE" | cut -f1):"
find "$DEVICE" -type f -printf '  %P %s\n' | sort
