#!/usr/bin/env bash
# The GPU check (docs/gpu.md), run on a machine with a GPU, its driver and the CUDA 13
# runtime, from a checkout that carries .device/ (filled by tools/device/prepare.sh):
#   1. nvidia-smi: the GPU, driver and clocks;
#   2. cuda_mlp unprofiled (fp32), then profiled with the CUPTI tracer (fp32 and --fp16),
#      each for a few seconds; the tracer's overhead is the step-time difference;
#   3. stepscope info / analyze (overview_page, kernel_stats) on each profile;
#   4. everything (profiles, outputs, this log) copied to $OUT (default: build/device_out).
# Exit status: 0 when every step worked, 1 otherwise; without a GPU it stops after saying so.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DEVICE="$ROOT/.device"
OUT="${OUT:-$ROOT/build/device_out}"
STEPS="${GPU_CHECK_STEPS:-200}"
mkdir -p "$OUT"
exec > >(tee "$OUT/gpu_checks.log") 2>&1
failed=0
section() { printf '\n===== %s =====\n' "$*"; }
step() {  # step NAME CMD...: runs, reports the exit status, remembers failures
  local name="$1"; shift
  section "$name"
  echo "+ $*"
  "$@"
  local rc=$?
  echo "[$name] exit $rc"
  [ "$rc" -eq 0 ] || failed=1
  return "$rc"
}

[ -x "$DEVICE/bin/cuda_mlp" ] || { echo "gpu_checks: no .device/bin/cuda_mlp: run tools/device/prepare.sh where the build is"; exit 2; }

section "machine"
uname -a; date -u
command -v nvidia-smi >/dev/null && nvidia-smi || echo "no nvidia-smi"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,pcie.link.gen.max,pcie.link.width.max,power.limit --format=csv
command -v nvcc >/dev/null && nvcc --version | tail -2

# CUDA's libraries from this machine: CUPTI, cuBLAS and the runtime, wherever they are.
cuda_dirs=""
for lib in libcupti.so.13 libcublas.so.13 libcudart.so.13; do
  found=$(find /usr/local/cuda/lib64/ /usr/local/cuda/extras/CUPTI/lib64/ /usr/local/cuda/targets/*/lib/ \
               /usr/local/cuda*/lib64/ /usr/lib/x86_64-linux-gnu/ \
               $(python3 -c 'import nvidia,os;print(" ".join(os.path.join(p) for p in nvidia.__path__))' 2>/dev/null) \
               -maxdepth 3 -name "$lib" 2>/dev/null | head -1)
  if [ -z "$found" ]; then echo "gpu_checks: $lib not found on this machine"; failed=1; continue; fi
  echo "using $found"
  dir=$(dirname "$found")
  [[ ":$cuda_dirs:" == *":$dir:"* ]] || cuda_dirs="${cuda_dirs:+$cuda_dirs:}$dir"
done
libpath="$DEVICE/lib:$cuda_dirs"

# Our binaries were linked against the build machine's glibc; use it through its own
# loader only where this machine's is older.
built_glibc=$(cat "$DEVICE/glibc/VERSION" 2>/dev/null || echo 0)
here_glibc=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
if [ -z "${GPU_CHECK_FORCE_LOADER:-}" ] && [ "$(printf '%s\n%s\n' "$built_glibc" "$here_glibc" | sort -V | head -1)" = "$built_glibc" ]; then
  echo "glibc $here_glibc here >= $built_glibc built: running directly"
  run() { local exe="$1"; shift; LD_LIBRARY_PATH="$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$DEVICE/bin/$exe" "$@"; }
else
  echo "glibc $here_glibc here < $built_glibc built: running through the carried loader"
  run() { local exe="$1"; shift; "$DEVICE/glibc/ld-linux-x86-64.so.2" --library-path "$DEVICE/glibc:$libpath:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" "$DEVICE/bin/$exe" "$@"; }
fi

section "cuda_mlp without a GPU check"
run cuda_mlp --steps 1 --log_every 0 --device_tracer_level 0
rc=$?
if [ "$rc" -eq 4 ]; then echo "gpu_checks: no GPU usable here (see the line above); stopping"; exit 1; fi

LOGS="$OUT/logdirs"
rm -rf "$LOGS"
step "fp32 unprofiled" run cuda_mlp --steps "$STEPS" --log_every 50
step "fp32 profiled (CUPTI)" run cuda_mlp --steps "$STEPS" --log_every 50 --logdir "$LOGS/fp32" --device_tracer_level 1
step "fp16 unprofiled" run cuda_mlp --steps "$STEPS" --log_every 50 --fp16
step "fp16 profiled (CUPTI)" run cuda_mlp --steps "$STEPS" --log_every 50 --fp16 --logdir "$LOGS/fp16" --device_tracer_level 1
step "fp32 profiled, device tracer off" run cuda_mlp --steps "$STEPS" --log_every 50 --logdir "$LOGS/fp32_host_only" --device_tracer_level 0

for run_name in fp32 fp16; do
  step "info $run_name" run stepscope info "$LOGS/$run_name"
  for tool in overview_page kernel_stats; do
    step "analyze $run_name $tool" run stepscope analyze "$LOGS/$run_name" --tool "$tool"
    run stepscope analyze "$LOGS/$run_name" --tool "$tool" --format json >"$OUT/${run_name}_${tool}.json" 2>/dev/null
  done
done
if [ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ]; then  # multi_gpu needs two devices
  step "analyze fp32 multi_gpu" run stepscope analyze "$LOGS/fp32" --tool multi_gpu
fi
section "files"
find "$OUT" -type f -printf '%P %s\n' | sort
echo "gpu_checks: $([ "$failed" -eq 0 ] && echo "all steps passed" || echo "some steps FAILED")"
exit "$failed"
