"""Records a PyTorch profiler (Kineto) trace of a small CUDA training loop.

Run on a machine with a GPU and PyTorch (tools/device/lead_checks.sh does): the trace is
what PyTorch itself writes, so stepscope's importer can be checked against the newest
generation of the format on real device activity. Usage: torch_trace.py OUT.json
"""
import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset


class Synthetic(Dataset):
    """MNIST-shaped images made on the fly, with some CPU work per item (decode)."""

    def __len__(self):
        return 4096

    def __getitem__(self, index):
        g = torch.Generator().manual_seed(index)
        image = torch.rand(1, 28, 28, generator=g)
        for _ in range(3):
            image = (image * 1.01).clamp_(0, 1)
        return image, index % 10


def main(out_path):
    device = torch.device("cuda")
    model = torch.nn.Sequential(
        torch.nn.Conv2d(1, 32, 3, padding=1), torch.nn.ReLU(),
        torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
        torch.nn.Flatten(), torch.nn.Linear(64 * 14 * 14, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10),
    ).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Synthetic(), batch_size=64, num_workers=0, pin_memory=True)
    schedule = torch.profiler.schedule(wait=2, warmup=2, active=6, repeat=1)
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    step_times = []
    memory = {}
    with torch.profiler.profile(activities=activities, schedule=schedule, record_shapes=True,
                                profile_memory=True) as prof:
        for step, (images, labels) in enumerate(loader):
            start = time.perf_counter()
            images = images.to(device, non_blocking=True)
            labels = labels.to(device, non_blocking=True)
            with torch.autocast("cuda", dtype=torch.float16, enabled=step % 2 == 1):
                loss = torch.nn.functional.cross_entropy(model(images), labels)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            torch.cuda.synchronize()
            step_times.append(time.perf_counter() - start)
            if step == 9:  # the last active step: CUDA's own peak over the recorded window
                memory["peak_allocated"] = torch.cuda.max_memory_allocated()
                memory["peak_reserved"] = torch.cuda.max_memory_reserved()
                memory["allocated_at_end"] = torch.cuda.memory_allocated()
            prof.step()
            if step == 3:  # recording starts with the next step: the peak counts from here
                torch.cuda.synchronize()
                torch.cuda.reset_peak_memory_stats()
                memory["allocated_at_start"] = torch.cuda.memory_allocated()
            if step == 11:
                break
    prof.export_chrome_trace(out_path)
    active = step_times[4:10]
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}: mean step of the active steps "
          f"{1000 * sum(active) / len(active):.3f} ms (host clock, after synchronize)")
    # Ground truth for stepscope's memory_profile of cuda:0 on this trace.
    print("torch.cuda memory over the active steps (bytes): " +
          ", ".join(f"{name} {value}" for name, value in memory.items()))


if __name__ == "__main__":
    main(sys.argv[1])
