"""An asynchronous PyTorch training loop that measures itself, for checking stepscope's steps.

Runs a small model under torch.profiler (Kineto) and writes, beside the trace, what the
program's own clock said: each iteration's time (from one `prof.step()` to the next, the
host's cadence), its DataLoader wait and, on a GPU, when each iteration's device work
completed (CUDA events recorded at each step end, the device's cadence). stepscope must
report the slower cadence as the step time and the DataLoader wait the device did not
hide as input (docs/model.md "Steps").

Variants:
  data_loader_bound  each batch costs host time in the Dataset (num_workers=0) while the
                     device has little to do;
  device_bound       large matmuls; the host enqueues them and runs ahead of the device.

Usage: async_loop.py VARIANT OUT_DIR [--steps N] [--device cuda|cpu]
Writes OUT_DIR/trace.json (Kineto) and OUT_DIR/clock.json:
  {"variant", "device", "steps": [{"iteration", "iteration_ms", "data_wait_ms",
   "device_done_ms" (GPU only: device completion, from the first profiled step's end)}]}
for the profiled iterations in order (the i-th is the trace's i-th ProfilerStep; PyTorch
versions number those differently). The last one's iteration_ms includes the profiler's
own stop and export, which the last ProfilerStep does not.
Runs on CPU too (python/tests/test_program_clock.py does, with Debian's torch): there the
device work is synchronous and the host's cadence is the step time.
"""
import argparse
import json
import os
import time

import torch
from torch.utils.data import DataLoader, Dataset


class SlowItems(Dataset):
    """Items that cost `cost_s` of host time each, as a decode or augmentation would."""

    def __init__(self, size, cost_s):
        self.size = size
        self.cost_s = cost_s

    def __len__(self):
        return 1 << 20

    def __getitem__(self, index):
        end = time.perf_counter() + self.cost_s
        while time.perf_counter() < end:  # busy, as real decoding is (sleep would free the core)
            pass
        return torch.full((self.size,), float(index % 7))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("variant", choices=["data_loader_bound", "device_bound"])
    parser.add_argument("out_dir")
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = parser.parse_args()
    device = torch.device(args.device)
    on_gpu = device.type == "cuda"

    if args.variant == "data_loader_bound":
        width, item_cost_s, matmuls = 256, 0.002, 2
    else:
        width, item_cost_s, matmuls = (4096 if on_gpu else 512), 0.0, (24 if on_gpu else 8)
    loader = DataLoader(SlowItems(width, item_cost_s), batch_size=8, num_workers=0)
    weight = torch.randn(width, width, device=device) / width ** 0.5
    batches = iter(loader)

    wait, warmup = 1, 1
    activities = [torch.profiler.ProfilerActivity.CPU]
    if on_gpu:
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    trace_path = os.path.join(args.out_dir, "trace.json")
    os.makedirs(args.out_dir, exist_ok=True)
    schedule = torch.profiler.schedule(wait=wait, warmup=warmup, active=args.steps, repeat=1)
    records = []  # per iteration: step number, start, data wait, device-done event
    with torch.profiler.profile(activities=activities, schedule=schedule,
                                on_trace_ready=lambda p: p.export_chrome_trace(trace_path)) as prof:
        for _ in range(wait + warmup + args.steps):
            iteration = prof.step_num
            start = time.perf_counter()
            batch = next(batches)
            data_wait = time.perf_counter() - start
            x = batch.to(device, non_blocking=True)
            for _ in range(matmuls):
                x = torch.tanh(x @ weight)
            done = None
            if on_gpu:
                done = torch.cuda.Event(enable_timing=True)
                done.record()
            records.append({"iteration": iteration, "start": start, "data_wait": data_wait, "done": done})
            prof.step()  # ends this iteration's ProfilerStep: the program's iteration boundary
        end = time.perf_counter()
    if on_gpu:
        torch.cuda.synchronize()

    profiled = [r for r in records if r["iteration"] >= wait + warmup]
    starts = [r["start"] for r in records] + [end]
    first_event = profiled[0]["done"]
    steps = []
    for r in profiled:
        i = records.index(r)
        entry = {"iteration": r["iteration"], "iteration_ms": (starts[i + 1] - starts[i]) * 1e3,
                 "data_wait_ms": r["data_wait"] * 1e3}
        if on_gpu:
            entry["device_done_ms"] = first_event.elapsed_time(r["done"])
        steps.append(entry)
    with open(os.path.join(args.out_dir, "clock.json"), "w") as f:
        json.dump({"variant": args.variant, "device": device.type, "steps": steps}, f, indent=1)
    for s in steps:
        print("iteration %d: %.3f ms, DataLoader %.3f ms%s" % (s["iteration"], s["iteration_ms"], s["data_wait_ms"],
              ", device done at %.3f ms" % s["device_done_ms"] if "device_done_ms" in s else ""))


if __name__ == "__main__":
    main()
