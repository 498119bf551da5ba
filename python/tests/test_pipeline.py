"""stepscope.pipeline: a pipeline declared in Python records the events the C++ API
records (tf.data long names, id / parent_id, produce / consume with element ids), on the
threads that ran the calls; malformed pipelines and stage references raise."""

import threading
import unittest

import stepscope
import stepscope.pipeline as sp
from stepscope_testing import LogdirTestCase, trace_events

QUIET = stepscope.ProfilerOptions(device_tracer_level=0)


def declare():
    builder = sp.Builder()
    read = builder.source("TFRecord")
    decode = builder.map(read)
    batch = builder.batch(decode)
    ahead = builder.prefetch(batch, buffer_size=2)
    return builder.build(), read, decode, batch, ahead


class PipelineTest(LogdirTestCase):

    def test_stages_are_named_and_linked_as_tf_data_iterators(self):
        pipeline, read, decode, batch, ahead = declare()
        self.assertEqual(len(pipeline), 4)
        self.assertEqual(pipeline.root_ref, ahead)
        names = [pipeline.stage(ref).long_name for ref in (ahead, batch, decode, read)]
        self.assertEqual(names, ["Iterator::Prefetch", "Iterator::Prefetch::Batch", "Iterator::Prefetch::Batch::Map",
                                 "Iterator::Prefetch::Batch::Map::TFRecord"])
        self.assertIsNone(pipeline.stage(ahead).parent_id)
        self.assertEqual(pipeline.stage(read).parent_id, pipeline.stage(decode).id)
        self.assertEqual(pipeline.stage(ahead).kind, "Prefetch")
        self.assertTrue(pipeline.stage(ahead).asynchronous)
        self.assertEqual(pipeline.stage(ahead).buffer_size, 2)

    def test_calls_produce_and_consume_are_recorded_on_their_threads(self):
        pipeline, read, decode, batch, ahead = declare()
        ready = []

        def background(element):
            with pipeline.produce(ahead, element), pipeline.call(batch):
                for _ in range(2):
                    with pipeline.call(decode), pipeline.call(read):
                        pass
            ready.append(element)

        stepscope.start(self.logdir(), QUIET)
        try:
            for element in range(3):
                worker = threading.Thread(target=background, args=(element,))
                worker.start()
                with pipeline.call(ahead), pipeline.consume(ahead, element):
                    worker.join()
        finally:
            path = stepscope.stop()[0]
        events = trace_events(path, self._root)
        by_name = {}
        for e in events:
            by_name.setdefault(e["name"], []).append(e)
        stage = pipeline.stage
        self.assertEqual(len(by_name["Iterator::Prefetch"]), 3)
        self.assertEqual(len(by_name["Iterator::Prefetch::Batch"]), 3)
        self.assertEqual(len(by_name["Iterator::Prefetch::Batch::Map::TFRecord"]), 6)
        self.assertEqual({e["args"]["id"] for e in by_name["Iterator::Prefetch::Batch::Map"]}, {stage(decode).id})
        self.assertEqual({e["args"]["parent_id"] for e in by_name["Iterator::Prefetch::Batch::Map"]},
                         {stage(batch).id})
        self.assertEqual(sorted(e["args"]["element_id"] for e in by_name["PrefetchConsume"]), [0, 1, 2])
        self.assertEqual(sorted(e["args"]["element_id"] for e in by_name["PrefetchProduce"]), [0, 1, 2])
        consumer = {e["tid"] for e in by_name["PrefetchConsume"]}
        producers = {e["tid"] for e in by_name["PrefetchProduce"]}
        self.assertEqual(len(consumer), 1)
        self.assertFalse(consumer & producers)

    def test_nothing_is_recorded_below_host_level_2_or_when_not_profiling(self):
        pipeline, read, *_ = declare()
        with pipeline.call(read):
            pass
        stepscope.start(self.logdir(), stepscope.ProfilerOptions(host_tracer_level=1, device_tracer_level=0))
        try:
            with stepscope.Trace("marker"):
                with pipeline.call(read):
                    pass
        finally:
            path = stepscope.stop()[0]
        self.assertEqual([e["name"] for e in trace_events(path, self._root)], ["marker"])

    def test_malformed_pipelines_and_stage_references_raise(self):
        with self.assertRaisesRegex(stepscope.InvalidArgumentError, "at least one stage"):
            sp.Builder().build()
        builder = sp.Builder()
        builder.source("bad:name")
        with self.assertRaises(stepscope.InvalidArgumentError):
            builder.build()
        builder = sp.Builder()
        builder.source("A")
        builder.source("B")  # two roots
        with self.assertRaises(stepscope.InvalidArgumentError):
            builder.build()
        pipeline, *_ = declare()
        with self.assertRaisesRegex(IndexError, "no stage 9"):
            pipeline.call(9)


if __name__ == "__main__":
    unittest.main()
