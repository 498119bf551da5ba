"""stepscope.torch: PyTorch ops recorded by the RecordFunction callback, read back with
`stepscope analyze`, against PyTorch's own profiler on the same steps; schedule + step
markers; the DataLoader's __next__ as input waiting."""

import collections
import json
import os
import time
import unittest

import torch
from torch.profiler import ProfilerActivity, record_function

import stepscope
import stepscope.torch
from stepscope_testing import LogdirTestCase, analyze, info, trace_events, xplane_files

QUIET = stepscope.ProfilerOptions(device_tracer_level=0)


class ScriptedModel:
    """A training step whose op sequence is fixed: mm, relu, sum over a dimension forward in a
    record_function scope, then backward into one leaf. (A full .sum() would call a second
    aten::sum inside the first, which key_averages() folds into its parent or not depending
    on timestamp rounding; merged_children() covers that rule, this model avoids it.)"""

    def __init__(self):
        self.x = torch.ones(8, 4)
        self.w = torch.ones(4, 3, requires_grad=True)
        self.grad_out = torch.ones(8)

    def step(self):
        with record_function("my_block"):
            out = torch.relu(torch.mm(self.x, self.w)).sum(dim=1)
        out.backward(self.grad_out)


def pytorch_counts(prof):
    """Calls per name as PyTorch's own profiler reports them (key_averages())."""
    return collections.Counter({e.key: e.count for e in prof.key_averages()})


def merged_children(events):
    """Events that key_averages() would fold into their parent: the only child of a parent
    with the same name (torch's EventList._remove_dup_nodes, e.g. aten::sum calling the
    aten::sum overload). stepscope records both, as they ran."""
    merged = collections.Counter()
    by_thread = collections.defaultdict(list)
    for e in events:
        by_thread[(e["pid"], e["tid"])].append(e)
    for thread_events in by_thread.values():
        thread_events.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack, children = [], collections.defaultdict(list)
        for e in thread_events:
            while stack and stack[-1]["ts"] + stack[-1]["dur"] + 1e-3 < e["ts"] + e["dur"]:
                stack.pop()
            if stack:
                children[id(stack[-1])].append((stack[-1], e))
            stack.append(e)
        for pairs in children.values():
            if len(pairs) == 1 and pairs[0][0]["name"] == pairs[0][1]["name"]:
                merged[pairs[0][1]["name"]] += 1
    return merged


def stepscope_counts(path):
    return {op["name"]: op["occurrences"] for op in analyze(path, "framework_op_stats")["host_ops"]}


class TorchOpsTest(LogdirTestCase):
    maxDiff = None

    def test_op_counts_match_pytorch_profiler_on_the_same_steps(self):
        model = ScriptedModel()
        steps = 3
        for _ in range(2):  # the first steps allocate .grad; compare steady-state steps
            model.step()
        with torch.profiler.profile(activities=[ProfilerActivity.CPU]) as prof:
            for _ in range(steps):
                model.step()
        theirs = pytorch_counts(prof)

        stepscope.start(self.logdir(), QUIET)
        for _ in range(steps):
            model.step()
        path = stepscope.stop()[0]
        ours = stepscope_counts(path)

        expected = collections.Counter(theirs)
        expected.update(merged_children(trace_events(path, self._root)))
        self.assertEqual(dict(ours), dict(expected))
        # The known sequence, per step: mm forward and for w's gradient, one relu, one scope.
        self.assertEqual(ours["aten::mm"], 2 * steps)
        self.assertEqual(ours["aten::relu"], steps)
        self.assertEqual(ours["my_block"], steps)
        self.assertEqual(ours["autograd::engine::evaluate_function: MmBackward0"], steps)

    def test_forward_backward_linkage_and_shapes(self):
        model = ScriptedModel()
        model.step()
        stepscope.torch.set_record_shapes(True)
        try:
            stepscope.start(self.logdir(), QUIET)
            model.step()
            path = stepscope.stop()[0]
        finally:
            stepscope.torch.set_record_shapes(False)
        events = trace_events(path, self._root)
        mm = [e for e in events if e["name"] == "aten::mm" and "Sequence number" in e["args"]]
        self.assertEqual(len(mm), 1)
        self.assertEqual(mm[0]["args"]["Input Dims"], "[[8,4],[4,3]]")
        self.assertEqual(mm[0]["args"]["Input type"], "[float,float]")
        backward = [e for e in events if e["name"] == "MmBackward0"]
        self.assertEqual(len(backward), 1)
        self.assertEqual(backward[0]["args"]["Sequence number"], mm[0]["args"]["Sequence number"])
        self.assertIn("Fwd thread id", backward[0]["args"])

    def test_callback_installed_only_while_profiling(self):
        self.assertFalse(stepscope.torch._ops.callback_installed())
        stepscope.start(self.logdir(), QUIET)
        self.assertTrue(stepscope.torch._ops.callback_installed())
        stepscope.stop()
        self.assertFalse(stepscope.torch._ops.callback_installed())
        # Host level 1: user scopes only, no ops.
        stepscope.start(self.logdir("level1"), stepscope.ProfilerOptions(host_tracer_level=1, device_tracer_level=0))
        ScriptedModel().step()
        names = set(stepscope_counts(stepscope.stop()[0]))
        self.assertIn("my_block", names)
        self.assertFalse(any(name.startswith("aten::") for name in names), names)


class ScheduleTest(LogdirTestCase):

    def test_schedule_records_the_active_steps_of_each_cycle_with_step_markers(self):
        model = ScriptedModel()
        sched = stepscope.torch.schedule(wait=1, warmup=1, active=2, repeat=2)
        with stepscope.torch.profile(self.logdir(), schedule=sched) as prof:
            for _ in range(10):
                model.step()
                prof.step()
        self.assertEqual(len(prof.paths), 2)
        self.assertEqual(sorted(prof.paths), xplane_files(self.logdir()))
        step_numbers = []
        for path in sorted(prof.paths):
            markers = [e for e in trace_events(path, self._root) if e["name"] == "ProfilerStep"]
            step_numbers.append([e["args"]["step_num"] for e in markers])
            self.assertEqual(stepscope_counts(path)["aten::relu"], 2)
        self.assertEqual(sorted(step_numbers), [[2, 3], [6, 7]])

    def test_schedule_arguments_are_checked(self):
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.torch.schedule(wait=0, warmup=0, active=0)
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.torch.schedule(wait=-1, warmup=0, active=1)


class SlowDataset(torch.utils.data.Dataset):
    def __init__(self, size, decode_s):
        self.size = size
        self.decode_s = decode_s

    def __len__(self):
        return self.size

    def __getitem__(self, index):
        time.sleep(self.decode_s)
        return torch.full((4,), float(index)), index % 3


class DataLoaderTest(LogdirTestCase):

    def test_dataloader_next_is_input_waiting(self):
        loader = torch.utils.data.DataLoader(SlowDataset(64, 0.004), batch_size=4, num_workers=0)
        model = torch.nn.Linear(4, 3)
        steps = 0
        with stepscope.torch.profile(self.logdir()) as prof:
            for features, labels in loader:
                torch.nn.functional.cross_entropy(model(features), labels).backward()
                prof.step()
                steps += 1
                if steps == 8:
                    break
        path = prof.paths[0]
        names = collections.Counter(e["name"] for e in trace_events(path, self._root))
        self.assertEqual(names["enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"], steps)
        result = analyze(path, "input_pipeline_analyzer")
        self.assertEqual(result["framework"], "pytorch")
        summary = {k: result[k] for k in ("steps", "input_bound_percent", "input_bound_verdict")}
        self.assertGreaterEqual(result["steps"], steps - 1, summary)
        self.assertGreater(result["input_bound_percent"], 50.0, summary)
        self.assertEqual(result["input_bound_verdict"], "highly", summary)


if __name__ == "__main__":
    unittest.main()
