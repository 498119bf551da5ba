#!/usr/bin/python3
"""A CPU PyTorch training loop profiled by stepscope: a small CNN on synthetic MNIST-shaped
data (generated in memory, no download), fed by a torch DataLoader.

    PYTHONPATH=build/python /usr/bin/python3 examples/pytorch_mnist/train.py \\
        --steps 60 --logdir /tmp/logdir --profile_steps 20,39 --num_workers 0 --decode_ms 2
    build/bin/stepscope analyze /tmp/logdir

It prints its own mean step time and mean time waiting on the DataLoader over the profiled
steps (all steps after the first --warmup when not profiling), measured between the same
boundaries as the profile's step markers (one prof.step() to the next), so the analysis of
the profile can be checked against it. The last line is a JSON object with those figures.

--profiler torch records the same steps with PyTorch's own torch.profiler (CPU activity)
instead and prints its key_averages() table; --profiler none records nothing;
--profiler noop_callback (for ./dev bench python) records nothing either, with a global
RecordFunction callback that does nothing registered as stepscope registers its own:
PyTorch's own cost of being observed, the floor under any such profiler.
--profile_memory also records the CPU allocator's allocations and frees with the op that
allocated (both profilers; `stepscope analyze LOGDIR --tool memory_profile`).
Use Debian's interpreter (/usr/bin/python3): it imports Debian's python3-torch, the torch
stepscope's extension is built against.
"""

import argparse
import json
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

IMAGE_SIZE = 28
NUM_CLASSES = 10


class SyntheticMnist(torch.utils.data.Dataset):
    """MNIST-shaped examples: a fixed 28x28 stroke template per class, shifted by a few pixels
    and noised, stored as uint8 like the real files. __getitem__ "decodes" (uint8 -> float,
    standardised), sleeping decode_ms first to stand for a slow decoder or augmentation."""

    def __init__(self, size, seed, decode_ms):
        generator = torch.Generator().manual_seed(seed)
        templates = (torch.rand(NUM_CLASSES, IMAGE_SIZE, IMAGE_SIZE, generator=generator) > 0.75).float()
        self.labels = torch.randint(0, NUM_CLASSES, (size,), generator=generator)
        shifts = torch.randint(-2, 3, (size, 2), generator=generator)
        noise = torch.rand(size, IMAGE_SIZE, IMAGE_SIZE, generator=generator) * 0.3
        images = torch.empty(size, IMAGE_SIZE, IMAGE_SIZE)
        for i in range(size):
            images[i] = torch.roll(templates[self.labels[i]], shifts=(int(shifts[i, 0]), int(shifts[i, 1])), dims=(0, 1))
        self.images = ((images * 0.7 + noise).clamp(0, 1) * 255).to(torch.uint8)
        self.decode_s = decode_ms / 1000.0

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        if self.decode_s > 0:
            time.sleep(self.decode_s)
        image = (self.images[index].float() / 255.0 - 0.1307) / 0.3081
        return image.unsqueeze(0), int(self.labels[index])


class SmallCnn(nn.Module):
    """width multiplies the channels (width 4: about 10x the compute per step)."""

    def __init__(self, width=1):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8 * width, 3)
        self.conv2 = nn.Conv2d(8 * width, 16 * width, 3)
        self.fc = nn.Linear(16 * width * 5 * 5, NUM_CLASSES)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(torch.flatten(x, 1))


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=60, help="training steps to run")
    parser.add_argument("--batch_size", type=int, default=64)
    parser.add_argument("--num_workers", type=int, default=0, help="DataLoader worker processes")
    parser.add_argument("--decode_ms", type=float, default=0.0, help="sleep per example in __getitem__ (slow decoding)")
    parser.add_argument("--dataset_size", type=int, default=4096)
    parser.add_argument("--width", type=int, default=1, help="multiplies the model's channels (more compute per step)")
    parser.add_argument("--prefetch_factor", type=int, default=2, help="batches each DataLoader worker loads ahead")
    parser.add_argument("--sharing_strategy", choices=["file_descriptor", "file_system"], default="",
                        help="torch.multiprocessing sharing strategy for worker batches (default: torch's)")
    parser.add_argument("--logdir", default="", help="profile into this TensorBoard logdir (none: no profile)")
    parser.add_argument("--profile_steps", default="", help="FIRST,LAST steps to profile (default: all after --warmup)")
    parser.add_argument("--warmup", type=int, default=5, help="steps left out of the printed means when not profiling")
    parser.add_argument("--profiler", choices=["stepscope", "torch", "none", "noop_callback"], default="stepscope")
    parser.add_argument("--python_tracer", action="store_true", help="stepscope: python_tracer_level=1")
    parser.add_argument("--profile_memory", action="store_true",
                        help="record the CPU allocator's allocations and frees (profile_memory=True)")
    parser.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: leave as is)")
    parser.add_argument("--torch_ops_json", default="",
                        help="--profiler torch: write key_averages() as {name: {calls, self_cpu_us}} to this file")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be >= 1")
    if args.profile_steps:
        try:
            first, last = (int(v) for v in args.profile_steps.split(","))
        except ValueError:
            parser.error("--profile_steps must be FIRST,LAST, got %r" % args.profile_steps)
    else:
        first, last = min(args.warmup, args.steps - 1), args.steps - 1
    if not 0 <= first <= last < args.steps:
        parser.error("--profile_steps must satisfy 0 <= FIRST <= LAST < --steps")
    args.first, args.last = first, last
    if args.profiler != "none" and not args.logdir and args.profiler == "stepscope":
        args.profiler = "none"
    return args


class NoProfiler:
    """The same step boundaries without recording."""

    def step(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class NoopCallback(NoProfiler):
    """stepscope's RecordFunction registration with a callback that does nothing."""

    def __enter__(self):
        import stepscope.torch
        stepscope.torch._ops._set_noop_callback_for_benchmark(True)
        return self

    def __exit__(self, *exc):
        import stepscope.torch
        stepscope.torch._ops._set_noop_callback_for_benchmark(False)
        return False


def make_profiler(args):
    wait, active = args.first, args.last - args.first + 1
    if args.profiler == "stepscope":
        import stepscope
        import stepscope.torch
        options = stepscope.ProfilerOptions(device_tracer_level=0, python_tracer_level=1 if args.python_tracer else 0)
        return stepscope.torch.profile(args.logdir, options=options, profile_memory=args.profile_memory,
                                       schedule=stepscope.torch.schedule(wait=wait, warmup=0, active=active, repeat=1))
    if args.profiler == "torch":
        from torch.profiler import ProfilerActivity, profile, schedule
        return profile(activities=[ProfilerActivity.CPU], profile_memory=args.profile_memory,
                       schedule=schedule(wait=wait, warmup=0, active=active, repeat=1))
    if args.profiler == "noop_callback":
        return NoopCallback()
    return NoProfiler()


def train(args):
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    if args.sharing_strategy:
        # file_system: the main process maps a worker's batch by name, without asking the
        # worker's fd-passing thread first (a round trip that a loaded machine delays).
        torch.multiprocessing.set_sharing_strategy(args.sharing_strategy)
    torch.manual_seed(args.seed)
    dataset = SyntheticMnist(args.dataset_size, args.seed, args.decode_ms)
    loader = torch.utils.data.DataLoader(dataset, batch_size=args.batch_size, shuffle=True, num_workers=args.num_workers,
                                         drop_last=True, persistent_workers=args.num_workers > 0,
                                         prefetch_factor=args.prefetch_factor if args.num_workers > 0 else 2)
    model = SmallCnn(args.width)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    step_s, wait_s, cpu_s = [], [], []
    batches = iter(loader)
    with make_profiler(args) as prof:
        step_begin = time.perf_counter()
        cpu_begin = time.process_time()
        for step in range(args.steps):
            fetch_begin = time.perf_counter()
            try:
                images, labels = next(batches)
            except StopIteration:  # next epoch
                batches = iter(loader)
                images, labels = next(batches)
            fetched = time.perf_counter()
            optimizer.zero_grad()
            loss = F.cross_entropy(model(images), labels)
            loss.backward()
            optimizer.step()
            # Read before prof.step(), which ends this step's marker (and, after the last
            # profiled step, writes the profile: time the marker does not cover either).
            step_end = time.perf_counter()
            cpu_end = time.process_time()
            prof.step()
            if args.first <= step <= args.last:
                step_s.append(step_end - step_begin)
                wait_s.append(fetched - fetch_begin)
                cpu_s.append(cpu_end - cpu_begin)
            step_begin, cpu_begin = step_end, cpu_end
    if args.profiler == "torch":
        averages = prof.key_averages()
        print(averages.table(sort_by="self_cpu_time_total", row_limit=25))
        if args.torch_ops_json:
            with open(args.torch_ops_json, "w") as f:
                json.dump({e.key: {"calls": e.count, "self_cpu_us": e.self_cpu_time_total} for e in averages}, f,
                          indent=1)
    return step_s, wait_s, cpu_s, float(loss)


def main(argv):
    args = parse_args(argv)
    step_s, wait_s, cpu_s, loss = train(args)
    mean_step_ms = 1000.0 * sum(step_s) / len(step_s)
    mean_wait_ms = 1000.0 * sum(wait_s) / len(wait_s)
    where = "profiled steps" if args.profiler != "none" else "steps"
    print("final loss %.4f" % loss)
    print("mean step time: %.3f ms over %s %d..%d" % (mean_step_ms, where, args.first, args.last))
    print("mean DataLoader wait: %.3f ms (%.1f%% of the step)" % (mean_wait_ms, 100.0 * mean_wait_ms / mean_step_ms))
    # cpu_step_ms: this process's CPU time per step (all its threads), which other
    # processes on a shared machine do not inflate as they do the wall-clock step time.
    print(json.dumps({"step_ms": mean_step_ms, "cpu_step_ms": 1000.0 * sum(cpu_s) / len(cpu_s),
                      "input_wait_ms": mean_wait_ms,
                      "input_percent": 100.0 * mean_wait_ms / mean_step_ms, "steps": len(step_s),
                      "profiler": args.profiler, "num_workers": args.num_workers}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
