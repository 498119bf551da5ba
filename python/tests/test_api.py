"""The stepscope Python API end to end: record with start/stop, Profile and Trace, then read
the written profile with the real `stepscope` CLI; remote capture through stepscope.server,
stepscope.client and `stepscope capture`; bad input raises with the C++ layer's message."""

import os
import subprocess
import threading
import time
import unittest

import stepscope
from stepscope_testing import CLI, LogdirTestCase, info, trace_events, xplane_files

QUIET = stepscope.ProfilerOptions(device_tracer_level=0)  # no "no device tracer" warning


def train(steps, first=0):
    for step in range(first, first + steps):
        with stepscope.Trace("train", step_num=step, _r=1):
            with stepscope.Trace("forward", batch=32, lr=0.5, flag=True, mode="sgd", big=2**70, shape=[2, 3]):
                time.sleep(0.002)


class RecordingTest(LogdirTestCase):

    def test_start_stop_writes_trace_events_with_their_metadata(self):
        logdir = self.logdir()
        stepscope.start(logdir, QUIET)
        self.assertTrue(stepscope.is_profiling())
        train(3)
        paths = stepscope.stop()
        self.assertFalse(stepscope.is_profiling())
        self.assertEqual(paths, xplane_files(logdir))
        self.assertEqual(len(paths), 1)

        events = trace_events(paths[0], self._root)
        steps = [e for e in events if e["name"] == "train"]
        self.assertEqual([e["args"]["step_num"] for e in steps], [0, 1, 2])
        self.assertTrue(all(e["args"]["_r"] == 1 for e in steps))
        forward = [e for e in events if e["name"] == "forward"]
        self.assertEqual(len(forward), 3)
        args = forward[0]["args"]
        self.assertEqual((args["batch"], args["lr"], args["flag"], args["mode"]), (32, 0.5, 1, "sgd"))
        self.assertEqual(str(args["big"]), str(2**70))
        self.assertEqual(args["shape"], "[2, 3]")
        # Nested: each forward lies inside its step, on the same thread.
        for step, fwd in zip(steps, forward):
            self.assertEqual(step["tid"], fwd["tid"])
            self.assertLessEqual(step["ts"], fwd["ts"])
            self.assertGreaterEqual(step["ts"] + step["dur"], fwd["ts"] + fwd["dur"])

        series = info(paths[0])["file"]["step_series"]
        self.assertEqual([(s["kind"], s["name"], s["count"]) for s in series], [("host root", "train", 3)])

    def test_profile_context_manager_and_thread_names(self):
        logdir = self.logdir()
        def worker():
            stepscope.set_thread_name("loader thread")
            with stepscope.Trace("load"):
                time.sleep(0.001)
        with stepscope.Profile(logdir, QUIET) as profile:
            train(2)
            thread = threading.Thread(target=worker)
            thread.start()
            thread.join()
        self.assertEqual(profile.paths, xplane_files(logdir))
        events = trace_events(profile.paths[0], self._root)
        self.assertEqual([e["thread"] for e in events if e["name"] == "load"], ["loader thread"])

    def test_trace_records_nothing_and_costs_little_when_not_profiling(self):
        trace = stepscope.Trace("train", step_num=1, _r=1)
        with trace:
            self.assertFalse(trace.recording)
        n = 20000
        begin = time.perf_counter()
        for step in range(n):
            with stepscope.Trace("train", step_num=step, _r=1):
                pass
        per_scope_us = (time.perf_counter() - begin) / n * 1e6
        print("Trace scope, not profiling: %.2f us" % per_scope_us)
        # A loose bound (a loaded 2-core machine): a few hundred ns is typical.
        self.assertLess(per_scope_us, 20.0)


class ErrorTest(LogdirTestCase):

    def tearDown(self):
        if stepscope.is_profiling():
            stepscope.stop()
        super().tearDown()

    def test_stop_without_start(self):
        with self.assertRaises(stepscope.FailedPreconditionError) as raised:
            stepscope.stop()
        self.assertEqual(str(raised.exception), "StopProfiling: no session started by StartProfiling is active")
        self.assertIsInstance(raised.exception, stepscope.StepscopeError)

    def test_start_twice(self):
        stepscope.start(self.logdir(), QUIET)
        with self.assertRaises(stepscope.AlreadyExistsError) as raised:
            stepscope.start(self.logdir("other"), QUIET)
        self.assertIn("a profiling session is already active", str(raised.exception))
        self.assertIn(self.logdir(), str(raised.exception))
        stepscope.stop()

    def test_unwritable_logdir(self):
        blocker = self.logdir("a_file")
        with open(blocker, "w") as f:
            f.write("x")
        with self.assertRaises(stepscope.StepscopeError) as raised:
            stepscope.start(os.path.join(blocker, "sub"), QUIET)
        message = str(raised.exception)
        self.assertTrue(message.startswith("StartProfiling: "), message)
        self.assertIn(blocker, message)
        self.assertFalse(stepscope.is_profiling())

    def test_read_only_logdir_fails_at_start(self):
        # An existing logdir that cannot be written: the whole session used to be recorded
        # and lost at stop(), with an InvalidArgumentError. sysfs refuses new files even to
        # root; a directory without write permission does too for anyone else.
        read_only = ["/sys/kernel"] if os.path.isdir("/sys/kernel") else []
        if os.geteuid() != 0:
            locked = self.logdir("locked")
            os.makedirs(locked)
            os.chmod(locked, 0o555)
            self.addCleanup(os.chmod, locked, 0o755)
            read_only.append(locked)
        if not read_only:
            self.skipTest("no directory here is read-only to this user (root without /sys)")
        for logdir in read_only:
            with self.subTest(logdir=logdir):
                with self.assertRaises(stepscope.PermissionDeniedError) as raised:
                    stepscope.start(logdir, QUIET)
                self.assertTrue(str(raised.exception).startswith("StartProfiling: "), str(raised.exception))
                self.assertIn(logdir, str(raised.exception))
                self.assertFalse(stepscope.is_profiling())

    def test_bad_option_values(self):
        cases = [
            (stepscope.ProfilerOptions(host_tracer_level=7), "host_tracer_level must be 0..3, got 7"),
            (stepscope.ProfilerOptions(device_tracer_level=-1), "device_tracer_level must be 0..2, got -1"),
            (stepscope.ProfilerOptions(python_tracer_level=2**40), "python_tracer_level must be 0..1, got %d" % 2**40),
            (stepscope.ProfilerOptions(host_tracer_level="2"), "ProfilerOptions.host_tracer_level must be an int"),
            (stepscope.ProfilerOptions(delay_ms=100), "delay_ms is for client.trace"),
        ]
        for options, expected in cases:
            with self.subTest(expected=expected):
                with self.assertRaises(stepscope.InvalidArgumentError) as raised:
                    stepscope.start(self.logdir(), options)
                self.assertIn(expected, str(raised.exception))
                self.assertIsInstance(raised.exception, ValueError)
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.start(42)  # None is a session in memory (test_load.py); a number is no logdir
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            stepscope.start("")
        self.assertEqual(str(raised.exception), "StartProfiling: the logdir is empty")
        # A NUL would make the OS see a shorter path (and stop() spin on it): refused.
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            stepscope.start(self.logdir("x\x00y"), QUIET)
        self.assertIn("NUL byte", str(raised.exception))
        self.assertFalse(os.path.exists(self.logdir("x")))
        self.assertFalse(stepscope.is_profiling())
        self.assertFalse(stepscope.is_profiling())

    def test_bad_server_and_client_arguments(self):
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            stepscope.server.start(70000)
        self.assertIn("port must be 0..65535, got 70000", str(raised.exception))
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.server.start(0, bind="not an address")
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            stepscope.client.trace("grpc://localhost:6009", self.logdir(), 0)
        self.assertIn("duration_ms must be 1..600000 (ms), got 0", str(raised.exception))
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.client.trace("grpc://localhost:notaport", self.logdir(), 100)
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            stepscope.client.trace("grpc://localhost:6009", self.logdir(), 100, num_tracing_attempts=0)
        self.assertIn("retries must be 0..100, got -1", str(raised.exception))


class RemoteTest(LogdirTestCase):

    def setUp(self):
        super().setUp()
        self.server = stepscope.server.start(0)
        self.stop_training = threading.Event()
        self.trainer = threading.Thread(target=self._train_until_stopped)
        self.trainer.start()

    def tearDown(self):
        self.stop_training.set()
        self.trainer.join()
        self.server.stop()
        super().tearDown()

    def _train_until_stopped(self):
        step = 0
        while not self.stop_training.is_set():
            train(1, first=step)
            step += 1

    def test_client_trace_captures_this_process(self):
        logdir = self.logdir()
        paths = stepscope.client.trace("grpc://" + self.server.address, logdir, 400)
        self.assertEqual(paths, xplane_files(logdir))
        names = {e["name"] for e in trace_events(paths[0], self._root)}
        self.assertTrue({"train", "forward"} <= names, names)

    def test_stepscope_capture_records_a_python_worker(self):
        logdir = self.logdir()
        result = subprocess.run([CLI, "capture", "grpc://" + self.server.address, "--logdir", logdir,
                                 "--duration_ms", "400"], capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        paths = xplane_files(logdir)
        self.assertEqual(len(paths), 1)
        series = info(paths[0])["file"]["step_series"]
        self.assertEqual(series[0]["name"], "train")
        self.assertGreater(series[0]["count"], 10)

    def test_unreachable_worker_raises_unavailable(self):
        with self.assertRaises(stepscope.UnavailableError) as raised:
            stepscope.client.trace("grpc://127.0.0.1:1", self.logdir(), 100, num_tracing_attempts=1)
        self.assertIn("127.0.0.1:1", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
