"""Prints memory_profile's peak per memory id from `stepscope analyze --tool memory_profile
--format json` on stdin, to set beside torch.cuda's own peak that torch_trace.py prints."""
import json
import sys

result = json.load(sys.stdin)
for name in result["memoryIds"]:
    profile = result["memoryProfilePerAllocator"][name]
    summary = profile["profileSummary"]
    print(f"memory id {name}: peak heap {summary['peakStats']['heapAllocatedBytes']} B, "
          f"capacity {summary['memoryCapacity']} B, {summary['numAllocations']} allocations, "
          f"{summary['numDeallocations']} deallocations, diagnostics {profile['diagnostics']}")
