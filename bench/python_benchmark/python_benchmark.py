#!/usr/bin/python3
"""`./dev bench python`: what profiling a PyTorch training loop costs, with stepscope and
with PyTorch's own profiler. Writes $STEPSCOPE_BENCH_OUT/python.json (one flat object).

Method. examples/pytorch_mnist/train.py (compute bound: no decode delay, num_workers=0, one
intra-op thread) runs in a fresh process per measurement, pinned to one CPU
(STEPSCOPE_BENCH_CPU, default the last CPU this process may use), in rounds: each round
runs every configuration once, in an order rotated from round to round, so drift in the
machine's load hits all of them alike. A configuration's overhead in a round is its step
time over the same round's unprofiled step time; the headline is the median of those
per-round ratios (STEPSCOPE_BENCH_ROUNDS rounds, default 11), and `*_spread_pct` is half
their interquartile range, the noise to read it against. CPU time per step (the process's
own, which other processes do not inflate) is the headline; wall clock is kept beside it.

Configurations: off (no profiler), stepscope (stepscope.torch, host level 2), stepscope
with python_tracer_level=1, torch.profiler.profile(activities=[CPU]), noop_callback (a
global RecordFunction callback that does nothing, registered from C++ exactly as
stepscope's is: PyTorch's own cost of being observed in the real step, the floor under
any RecordFunction-based profiler); with
STEPSCOPE_BENCH_BASELINE_PYTHONPATH set, also stepscope_baseline: the same as stepscope
with the stepscope module found there (another build, e.g. before a change).

  step_ms_<c>, cpu_step_ms_<c>          median wall-clock / CPU ms per step
  overhead_pct_<c>                      median per-round CPU-time overhead, % of off
  overhead_pct_<c>_spread_pct           half the interquartile range of those
  overhead_pct_wall_<c>                 the same from wall-clock step times
  overhead_pct_stepscope_over_noop_callback
                                        median per-round CPU step time of stepscope over
                                        noop_callback's: what stepscope adds above the floor
  off_cpu_spread_pct                    half the IQR of off's CPU step time, % of its median
  ops_per_step                          ATen ops and scopes stepscope recorded per step
  record_function_callback_ns           extra CPU ns per ATen op (a tiny torch.add in a
                                        loop) while stepscope records, against no callback
  record_function_noop_callback_ns      the same with a callback that does nothing: what
                                        PyTorch's dispatcher spends per op once any callback
                                        observes ops (RecordFunction), stepscope's floor
  record_function_stepscope_ns          the difference: what stepscope's callback adds
  record_function_level1_ns             stepscope at host level 1 (scopes only)
  torch_profiler_callback_ns            the same for torch.profiler

Run with Debian's /usr/bin/python3 and PYTHONPATH naming the module's directory (./dev
sets both).
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
from bench_figures import write_figures  # noqa: E402
EXAMPLE = os.path.join(ROOT, "examples", "pytorch_mnist", "train.py")
CLI = os.environ.get("STEPSCOPE_CLI", os.path.join(ROOT, "build", "bin", "stepscope"))
STEPS, FIRST = 220, 20

MICRO = r"""
import sys, time, torch
import stepscope, stepscope.torch
from torch.profiler import ProfilerActivity, profile
torch.set_num_threads(1)
a, b, c = torch.ones(4), torch.ones(4), torch.empty(4)
n = 50000
def loop():  # CPU time of this single-threaded loop: other processes do not inflate it
    begin = time.process_time_ns()
    for _ in range(n):
        torch.add(a, b, out=c)
    return time.process_time_ns() - begin
def stepscope_loop(level):
    stepscope.start(sys.argv[1], stepscope.ProfilerOptions(host_tracer_level=level, device_tracer_level=0))
    try:
        return loop()
    finally:
        stepscope.stop()
def noop_loop():
    stepscope.torch._ops._set_noop_callback_for_benchmark(True)
    try:
        return loop()
    finally:
        stepscope.torch._ops._set_noop_callback_for_benchmark(False)
def torch_loop():
    with profile(activities=[ProfilerActivity.CPU]):
        return loop()
loop()
# Alternating, the fastest of each: other processes on the machine only add time.
runs = {"off": loop, "on": lambda: stepscope_loop(2), "noop": noop_loop, "level1": lambda: stepscope_loop(1),
        "torch": torch_loop}
best = {k: [] for k in runs}
for _ in range(int(sys.argv[2])):
    for k, f in runs.items():
        best[k].append(f())
print(" ".join(str(min(best[k])) for k in runs), n)
"""


def pin_to_cpu():
    cpu = os.environ.get("STEPSCOPE_BENCH_CPU")
    allowed = sorted(os.sched_getaffinity(0))
    return {int(cpu)} if cpu else {allowed[-1]}


def run(args, env=None, timeout=600):
    cpus = pin_to_cpu()
    result = subprocess.run([sys.executable] + args, capture_output=True, text=True, timeout=timeout, env=env,
                            preexec_fn=lambda: os.sched_setaffinity(0, cpus))
    if result.returncode != 0:
        sys.exit("python_benchmark: %s failed:\n%s" % (" ".join(args), result.stderr[-3000:]))
    return result.stdout


def step_ms(config, logdir):
    args = [EXAMPLE, "--steps", str(STEPS), "--profile_steps", "%d,%d" % (FIRST, STEPS - 1), "--num_workers", "0",
            "--threads", "1", "--decode_ms", "0"]
    env = None
    if config == "off":
        args += ["--profiler", "none"]
    elif config == "torch_profiler":
        args += ["--profiler", "torch"]
    elif config == "noop_callback":
        args += ["--profiler", "noop_callback"]
    else:
        shutil.rmtree(logdir, ignore_errors=True)
        args += ["--profiler", "stepscope", "--logdir", logdir]
        if config == "stepscope_python":
            args += ["--python_tracer"]
        if config == "stepscope_baseline":
            env = dict(os.environ, PYTHONPATH=os.environ["STEPSCOPE_BENCH_BASELINE_PYTHONPATH"])
    figures = json.loads(run(args, env).strip().splitlines()[-1])
    return figures["step_ms"], figures["cpu_step_ms"]


def ops_per_step(logdir):
    out = subprocess.run([CLI, "analyze", logdir, "--tool", "framework_op_stats", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return sum(op["occurrences"] for op in json.loads(out)["host_ops"]) / (STEPS - FIRST)


def half_iqr(values):
    if len(values) < 4:
        return (max(values) - min(values)) / 2
    q = statistics.quantiles(values, n=4)
    return (q[2] - q[0]) / 2


def overhead_figures(samples, key, configs, base="off", suffix=""):
    """Per-round overheads against the same round's `base` run: median and half IQR."""
    figures = {}
    for c in configs:
        if c == base:
            continue
        per_round = [(x / b - 1) * 100 for x, b in zip(samples[c], samples[base])]
        figures[key + c + suffix] = statistics.median(per_round)
        if key == "overhead_pct_":
            figures[key + c + suffix + "_spread_pct"] = half_iqr(per_round)
    return figures


def main():
    rounds = int(os.environ.get("STEPSCOPE_BENCH_ROUNDS", "11"))
    configs = ["off", "stepscope", "stepscope_python", "torch_profiler", "noop_callback"]
    if os.environ.get("STEPSCOPE_BENCH_BASELINE_PYTHONPATH"):
        configs.append("stepscope_baseline")
    work = tempfile.mkdtemp(prefix="stepscope_python_bench_")
    try:
        wall = {c: [] for c in configs}
        cpu = {c: [] for c in configs}
        for r in range(rounds):
            order = configs[r % len(configs):] + configs[:r % len(configs)]  # rotate: no config always first
            for config in order:
                w, t = step_ms(config, os.path.join(work, config))
                wall[config].append(w)
                cpu[config].append(t)
                print("round %d %-19s %.3f ms (cpu %.3f ms)" % (r, config, w, t), flush=True)
        figures = {"step_ms_" + c: statistics.median(v) for c, v in wall.items()}
        figures.update({"cpu_step_ms_" + c: statistics.median(v) for c, v in cpu.items()})
        figures.update(overhead_figures(cpu, "overhead_pct_", configs))
        figures.update(overhead_figures(wall, "overhead_pct_wall_", configs))
        figures.update(overhead_figures(cpu, "overhead_pct_", ["stepscope"], "noop_callback", "_over_noop_callback"))
        figures["off_cpu_spread_pct"] = half_iqr(cpu["off"]) / statistics.median(cpu["off"]) * 100
        figures["ops_per_step"] = ops_per_step(os.path.join(work, "stepscope"))
        micro = run(["-c", MICRO, os.path.join(work, "micro"), "9"]).split()
        off, on, noop, level1, torch_on, n = (int(v) for v in micro)
        figures["record_function_callback_ns"] = (on - off) / n
        figures["record_function_noop_callback_ns"] = (noop - off) / n
        figures["record_function_stepscope_ns"] = (on - noop) / n
        figures["record_function_level1_ns"] = (level1 - off) / n
        figures["torch_profiler_callback_ns"] = (torch_on - off) / n
        figures["rounds"] = rounds
        figures["pinned_cpu"] = min(pin_to_cpu())
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("wrote " + write_figures("python", figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
