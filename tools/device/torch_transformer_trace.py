"""Records a PyTorch profiler (Kineto) trace of a small transformer training loop on CUDA
(bf16 autocast, AdamW, fused attention kernels), with PyTorch's own allocator counters over
the recorded steps, for checking memory_profile and kernel_stats on a second kind of real
workload (torch_trace.py is the first). Usage: torch_transformer_trace.py OUT.json
"""
import sys

import torch


def main(out_path):
    device = torch.device("cuda")
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=512, nhead=8, dim_feedforward=2048, batch_first=True)
    model = torch.nn.Sequential(torch.nn.TransformerEncoder(layer, num_layers=4), torch.nn.Linear(512, 1000)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    schedule = torch.profiler.schedule(wait=1, warmup=2, active=4, repeat=1)
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    memory = {}
    with torch.profiler.profile(activities=activities, schedule=schedule, profile_memory=True) as prof:
        for step in range(7):
            tokens = torch.randn(32, 256, 512, device=device)
            labels = torch.randint(0, 1000, (32, 256), device=device)
            with torch.autocast("cuda", dtype=torch.bfloat16):
                logits = model(tokens)
                loss = torch.nn.functional.cross_entropy(logits.float().reshape(-1, 1000), labels.reshape(-1))
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            torch.cuda.synchronize()
            if step == 6:  # the last recorded step
                memory["peak_allocated"] = torch.cuda.max_memory_allocated()
                memory["peak_reserved"] = torch.cuda.max_memory_reserved()
            prof.step()
            if step == 2:  # recording starts with the next step
                torch.cuda.synchronize()
                torch.cuda.reset_peak_memory_stats()
    prof.export_chrome_trace(out_path)
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}; torch.cuda memory over the recorded steps "
          "(bytes): " + ", ".join(f"{name} {value}" for name, value in memory.items()))


if __name__ == "__main__":
    main(sys.argv[1])
