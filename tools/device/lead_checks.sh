#!/usr/bin/env bash
# The lead's checks on a lent GPU machine (no Debian packages there): run from the repo root
# with .device/ carried (tools/device/prepare.sh fills .device/release from build/release). Writes to $OUT.
#   1. kineto_15mb_analyze_ms with 1, 2, 4, 8 and 16 CPUs (taskset), median of 15 spawns;
#   2. a real PyTorch (CUDA) Kineto trace, imported and analysed by stepscope;
#   2b. memory_profile's peak per allocator beside torch.cuda's own peak of the same steps;
#   2c. tools/device/async_loop.py (DataLoader-bound and device-bound): each iteration's time and
#       DataLoader wait by the program's clock (host and device) beside stepscope's steps;
#   3. ./dev bench's import, analysis and memory benchmarks with 16 cores (figures to $OUT/*.json).
set -uo pipefail
OUT="${OUT:-/tmp/out}"; mkdir -p "$OUT"
export LD_LIBRARY_PATH="$PWD/.device/release/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
S="$PWD/.device/release/bin/stepscope"
T="$PWD/.device/release/shared/testdata/traces/hta_ns_resolution_rank-0.pt.trace.json.gz"
{
  echo "== machine"; nproc; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  "$S" help >/dev/null || { echo "stepscope does not start here"; ldd "$S"; }
  echo "== kineto_15mb_analyze_ms by CPUs (median of 15 spawns; startup = stepscope help)"
  for cpus in 1 2 4 8 16; do
    python3 - "$S" "$T" "$cpus" <<'PY'
import statistics, subprocess, sys, time
s, t, cpus = sys.argv[1], sys.argv[2], int(sys.argv[3])
pin = ["taskset", "-c", f"0-{cpus - 1}"]
def ms(args):
    start = time.perf_counter(); subprocess.run(pin + args, stdout=subprocess.DEVNULL, check=True)
    return 1000 * (time.perf_counter() - start)
for _ in range(3): ms([s, "analyze", t, "--tool", "overview_page"])
a = [ms([s, "analyze", t, "--tool", "overview_page"]) for _ in range(15)]
h = [ms([s, "help"]) for _ in range(15)]
z = [ms(["true"]) for _ in range(15)]  # what spawning from Python costs by itself
print(f"cpus {cpus}: analyze median {statistics.median(a):.1f} ms (min {min(a):.1f}), startup median "
      f"{statistics.median(h):.2f} ms, spawn of /bin/true {statistics.median(z):.2f} ms")
PY
  done
  echo "== a real PyTorch CUDA trace"
  # PyTorch loads the machine's own C++ runtime, not the carried (older) one.
  env -u LD_LIBRARY_PATH python3 tools/device/torch_trace.py "$OUT/torch_cuda_trace.json" && gzip -f "$OUT/torch_cuda_trace.json"
  "$S" import "$OUT/torch_cuda_trace.json.gz" --logdir /tmp/ld --run torch 2>&1 | tail -15
  for tool in overview_page kernel_stats input_pipeline_analyzer framework_op_stats memory_profile; do
    echo "-- $tool"; "$S" analyze /tmp/ld --tool "$tool" 2>&1 | head -60
  done
  # memory_profile's peak per allocator, to set beside torch.cuda's own peak printed above.
  "$S" analyze /tmp/ld --tool memory_profile --format json | python3 tools/device/memory_peaks.py
  "$S" info /tmp/ld 2>&1 | head -40
  echo "== asynchronous loops: the program's own clock against stepscope's steps (issue 32)"
  for variant in data_loader_bound device_bound; do
    env -u LD_LIBRARY_PATH python3 tools/device/async_loop.py "$variant" "$OUT/async_$variant" --steps 10 || continue
    "$S" analyze "$OUT/async_$variant/trace.json" --tool overview_page --format json > "$OUT/async_$variant/overview.json"
    python3 - "$OUT/async_$variant" <<'PY'
import json, sys
d = sys.argv[1]
clock = json.load(open(d + "/clock.json"))["steps"]
o = json.load(open(d + "/overview.json"))
rows = o["step_time_graph"]
dev = [c.get("device_done_ms") for c in clock]
print(f"{d}: {len(rows)} steps (program: {len(clock)}), {o['step_time_source']}, cadence {o['step_cadence']}")
for i, (r, c) in enumerate(zip(rows, clock)):
    device_interval = dev[i] - dev[i - 1] if i > 0 and dev[i] is not None else None
    print(f"  step {i}: stepscope {r['step_time_ms']:.3f} ms (input {r['input_bound_ms']:.3f}, lag {r.get('device_lag_ms')}),"
          f" program host {c['iteration_ms']:.3f} ms, device {device_interval}, DataLoader {c['data_wait_ms']:.3f} ms")
PY
  done
  echo "== benchmarks"
  for bench in import_benchmark analysis_benchmark memory_benchmark; do
    STEPSCOPE_BENCH_OUT="$OUT" STEPSCOPE_SHARED_DIR="$PWD/.device/release/shared" timeout 150 "$PWD/.device/release/bin/$bench" 2>&1 | tail -25
  done
} 2>&1 | tee "$OUT/lead_checks.txt"
