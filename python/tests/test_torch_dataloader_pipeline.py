"""stepscope.torch records DataLoader iterators as pipeline stages: with num_workers=0 the
fetch+collate of each batch (Batch) around one call per element (the dataset's class
name), so a slow collate_fn and a slow __getitem__ put the self time in different stages;
with workers, the main process's wait for each batch (ParallelMap + consume)."""

import collections
import time
import unittest

import torch

import stepscope
import stepscope.torch
from stepscope_testing import LogdirTestCase, analyze, trace_events

BATCH = 4


class SlowItems(torch.utils.data.Dataset):
    def __init__(self, item_s):
        self.item_s = item_s

    def __len__(self):
        return 64

    def __getitem__(self, index):
        if self.item_s > 0:  # sleep(0) still yields the CPU, for a millisecond on a loaded machine
            time.sleep(self.item_s)
        return torch.full((4,), float(index))


def slow_collate(delay_s):
    def collate(items):
        if delay_s > 0:
            time.sleep(delay_s)
        return torch.stack(items)
    return collate


def stage_self_times(events):
    """Per stage name: total duration minus the pipeline calls nested in it on its thread
    (how tf.data's analysis counts a stage's own time), in ms."""
    calls = [e for e in events if e["name"].startswith("Iterator::")]
    self_ms = collections.Counter()
    for e in calls:
        children = [c for c in calls if c is not e and c["tid"] == e["tid"] and c["ts"] >= e["ts"]
                    and c["ts"] + c["dur"] <= e["ts"] + e["dur"] and c["name"].startswith(e["name"] + "::")
                    and c["name"].count("::") == e["name"].count("::") + 1]
        self_ms[e["name"]] += (e["dur"] - sum(c["dur"] for c in children)) / 1000.0
    return self_ms


class DataLoaderPipelineTest(LogdirTestCase):

    def record(self, loader, batches):
        stepscope.start(self.logdir("run%d" % len(self._runs)), stepscope.ProfilerOptions(device_tracer_level=0))
        try:
            for i, _ in enumerate(loader):
                if i + 1 == batches:
                    break
        finally:
            path = stepscope.stop()[0]
        self._runs.append(path)
        return trace_events(path, self._root)

    def setUp(self):
        super().setUp()
        self._runs = []

    def test_slow_collate_and_slow_getitem_land_in_their_own_stages(self):
        slow_getitem = torch.utils.data.DataLoader(SlowItems(0.004), batch_size=BATCH,
                                                   collate_fn=slow_collate(0.0))
        slow_collate_loader = torch.utils.data.DataLoader(SlowItems(0.0), batch_size=BATCH,
                                                          collate_fn=slow_collate(0.016))
        batch, source = "Iterator::Batch", "Iterator::Batch::SlowItems"
        for loader, slow, fast in ((slow_getitem, source, batch), (slow_collate_loader, batch, source)):
            events = self.record(loader, 6)
            counts = collections.Counter(e["name"] for e in events)
            self.assertEqual(counts[batch], 6)
            self.assertEqual(counts[source], 6 * BATCH)
            ids = {e["name"]: (e["args"]["id"], e["args"].get("parent_id")) for e in events if e["name"] in (batch, source)}
            self.assertEqual(ids[source][1], ids[batch][0])
            self_ms = stage_self_times(events)
            summary = dict(self_ms)
            # 6 batches x 16 ms of the slow part against well under 1 ms per batch of the other.
            self.assertGreater(self_ms[slow], 80.0, summary)
            self.assertGreater(self_ms[slow], 5 * self_ms[fast], summary)
            # The tool of issue 16 names the same stage.
            verdict = analyze(self._runs[-1], "tf_data_bottleneck_analysis")
            self.assertTrue(verdict["iterator_bound"], verdict["statement"])
            self.assertEqual(verdict["bottleneck"]["stage"], slow, verdict["statement"])

    def test_workers_record_the_wait_for_each_batch(self):
        loader = torch.utils.data.DataLoader(SlowItems(0.002), batch_size=BATCH, num_workers=2)
        events = self.record(loader, 5)
        waits = [e for e in events if e["name"] == "Iterator::ParallelMap"]
        consumes = [e for e in events if e["name"] == "ParallelMapConsume"]
        self.assertEqual(len(waits), 5)
        self.assertEqual(waits[0]["args"].get("parallelism"), 2)
        self.assertEqual(sorted(e["args"]["element_id"] for e in consumes), [0, 1, 2, 3, 4])
        # Fetch and collate ran in the (forked, silent) workers.
        self.assertFalse(any(e["name"].startswith("Iterator::ParallelMap::") for e in events))
        # What the main process can name: the workers' stage, with their count.
        verdict = analyze(self._runs[-1], "tf_data_bottleneck_analysis")
        self.assertEqual(verdict["bottleneck"]["stage"], "Iterator::ParallelMap", verdict["statement"])
        self.assertEqual(verdict["bottleneck"]["kind"], "parallel_map", verdict["statement"])

    def test_instrumentation_can_be_turned_off(self):
        stepscope.torch.instrument_dataloader(False)
        try:
            loader = torch.utils.data.DataLoader(SlowItems(0.0), batch_size=BATCH)
            events = self.record(loader, 2)
        finally:
            stepscope.torch.instrument_dataloader(True)
        self.assertFalse(any(e["name"].startswith("Iterator::") for e in events))


if __name__ == "__main__":
    unittest.main()
