"""python_tracer_level=1: Python function calls on every thread (those running before the
session starts and those started during it), nested with the ATen ops they call; the
cost per traced call."""

import collections
import threading
import time
import unittest

import stepscope
from stepscope_testing import LogdirTestCase, info, trace_events

TRACED = stepscope.ProfilerOptions(python_tracer_level=1, device_tracer_level=0)

try:
    import torch
except ImportError:  # the nesting with ATen ops needs stepscope.torch
    torch = None
else:
    import stepscope.torch  # noqa: F401


def inner():
    if torch is not None:
        return torch.mm(torch.ones(8, 4), torch.ones(4, 3))
    return sum(range(10))


def outer():
    return inner()


def contains(parent, child):
    return (parent["tid"] == child["tid"] and parent["ts"] <= child["ts"] + 1e-3 and
            child["ts"] + child["dur"] <= parent["ts"] + parent["dur"] + 1e-3)


class PythonTracerTest(LogdirTestCase):

    def test_calls_on_every_thread_nest_with_ops(self):
        ready, go = threading.Event(), threading.Event()

        def early():
            ready.set()
            go.wait()
            outer()
        early_thread = threading.Thread(target=early, name="early")
        early_thread.start()
        ready.wait()
        stepscope.start(self.logdir(), TRACED)
        outer()
        go.set()
        early_thread.join()
        late_thread = threading.Thread(target=outer, name="late")
        late_thread.start()
        late_thread.join()
        path = stepscope.stop()[0]

        self.assertEqual(info(path)["file"]["warnings"], [], "a Python tracer exists: no 'no Python tracer' warning")
        events = trace_events(path, self._root)
        outers = [e for e in events if e["name"].endswith("): outer") and "test_python_tracer.py" in e["name"]]
        self.assertEqual(sorted(e["thread"] for e in outers), ["MainThread", "early", "late"])
        for call in outers:
            inners = [e for e in events if e["name"].endswith("): inner") and contains(call, e)]
            self.assertEqual(len(inners), 1, call)
            if torch is not None:
                mms = [e for e in events if e["name"] == "aten::mm" and contains(inners[0], e)]
                self.assertEqual(len(mms), 1, inners[0])
        builtins = collections.Counter(e["name"] for e in events if e["name"].startswith("<built-in method "))
        self.assertIn("<built-in method ones>" if torch is not None else "<built-in method sum>", builtins)

    def test_cost_per_traced_call(self):
        n = 100000

        def f():
            pass

        def loop():
            begin = time.perf_counter_ns()
            for _ in range(n):
                f()
            return time.perf_counter_ns() - begin
        off = min(loop() for _ in range(3))
        stepscope.start(self.logdir(), TRACED)
        on = loop()
        path = stepscope.stop()[0]
        calls = sum(1 for e in trace_events(path, self._root) if e["name"].endswith("): f"))
        self.assertEqual(calls, n)
        print("python tracer: %.0f ns per traced call" % ((on - off) / n))

    def test_remote_capture_traces_python_calls(self):
        # The session starts on a gRPC thread, which takes the GIL to install the hooks
        # while this thread waits in client.trace (GIL released) and the trainer runs.
        server = stepscope.server.start(0)
        stop = threading.Event()

        def train():
            while not stop.is_set():
                outer()
                time.sleep(0.001)
        trainer = threading.Thread(target=train, name="trainer")
        trainer.start()
        try:
            paths = stepscope.client.trace("grpc://" + server.address, self.logdir(), 300, options=TRACED)
        finally:
            stop.set()
            trainer.join()
            server.stop()
        events = trace_events(paths[0], self._root)
        traced = [e for e in events if e["name"].endswith("): outer") and e["thread"] == "trainer"]
        self.assertGreater(len(traced), 5)

    def test_needs_the_host_tracer(self):
        stepscope.start(self.logdir(), stepscope.ProfilerOptions(host_tracer_level=0, python_tracer_level=1,
                                                                 device_tracer_level=0))
        outer()
        path = stepscope.stop()[0]
        warnings = info(path)["file"]["warnings"]
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn("python_tracer_level needs host_tracer_level >= 1", warnings[0])


if __name__ == "__main__":
    unittest.main()
