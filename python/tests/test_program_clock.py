"""A real PyTorch training loop's own clock against stepscope's steps (issue 32).

tools/device/async_loop.py runs a loop under torch.profiler with Debian's torch and writes
what the program measured: each iteration from one prof.step() to the next, and its
DataLoader wait. The steps stepscope reads from the trace must be those iterations, and
the input share the DataLoader's wait (on the CPU no device work hides it).
"""

import json
import os
import subprocess
import sys
import unittest

from stepscope_testing import LogdirTestCase, run_cli

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "device", "async_loop.py")
STEPS = 6


def tolerance_ms(ms):
    # perf_counter stamps around prof.step() against the profiler's own record boundaries.
    return max(0.5, 0.05 * ms)


class ProgramClockTest(LogdirTestCase):
    def run_loop(self, variant):
        out = self.logdir(variant)
        subprocess.run([sys.executable, SCRIPT, variant, out, "--steps", str(STEPS), "--device", "cpu"],
                       check=True, capture_output=True, text=True, timeout=300)
        with open(os.path.join(out, "clock.json")) as f:
            clock = json.load(f)["steps"]
        analysis = json.loads(run_cli("analyze", os.path.join(out, "trace.json"), "--tool", "overview_page",
                                      "--format", "json").stdout)
        return clock, analysis

    def assert_steps_are_the_iterations(self, clock, analysis):
        steps = analysis["step_time_graph"]
        self.assertEqual(len(steps), len(clock), "one step per profiled iteration")
        self.assertEqual(analysis["step_time_source"], "step_starts")
        for i, (step, own) in enumerate(zip(steps, clock)):
            if i + 1 < len(clock):
                self.assertAlmostEqual(step["step_time_ms"], own["iteration_ms"], delta=tolerance_ms(own["iteration_ms"]),
                                       msg="iteration %d" % i)
            else:  # the program's last stamp also holds the profiler's stop and export
                self.assertLessEqual(step["step_time_ms"], own["iteration_ms"] + 0.5)
            self.assertAlmostEqual(step["input_bound_ms"], own["data_wait_ms"], delta=tolerance_ms(own["data_wait_ms"]),
                                   msg="iteration %d's DataLoader wait" % i)

    def test_data_loader_bound_loop(self):
        clock, analysis = self.run_loop("data_loader_bound")
        self.assert_steps_are_the_iterations(clock, analysis)
        self.assertEqual(analysis["input_bound_verdict"], "highly")

    def test_compute_bound_loop(self):
        clock, analysis = self.run_loop("device_bound")
        self.assert_steps_are_the_iterations(clock, analysis)
        self.assertLess(analysis["input_bound_percent"], 20)


if __name__ == "__main__":
    unittest.main()
