"""examples/pytorch_mnist/train.py profiled by stepscope: the analysis of its profile agrees
with what the program measured itself (mean step time, share of the step spent waiting on
the DataLoader), between the same step boundaries."""

import json
import os
import subprocess
import sys
import unittest

from stepscope_testing import LogdirTestCase, analyze, xplane_files

EXAMPLE = os.environ.get("STEPSCOPE_PYTORCH_EXAMPLE", "")


class ExampleTest(LogdirTestCase):

    def run_example(self, *args):
        if not os.path.exists(EXAMPLE):
            raise unittest.SkipTest("STEPSCOPE_PYTORCH_EXAMPLE does not name train.py (run through ctest)")
        result = subprocess.run([sys.executable, EXAMPLE] + [str(a) for a in args], capture_output=True, text=True,
                                timeout=300)
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(result.stdout.strip().splitlines()[-1])

    def test_slow_decoding_reads_highly_input_bound_and_agrees_with_the_program(self):
        logdir = self.logdir()
        own = self.run_example("--steps", 30, "--profile_steps", "10,24", "--decode_ms", 1, "--num_workers", 0,
                               "--logdir", logdir)
        self.assertEqual(len(xplane_files(logdir)), 1)
        result = analyze(logdir, "input_pipeline_analyzer")
        self.assertEqual(result["framework"], "pytorch")
        self.assertEqual(result["steps"], own["steps"])
        self.assertEqual(result["input_bound_verdict"], "highly")
        self.assertAlmostEqual(result["avg_step_time_ms"], own["step_ms"], delta=0.03 * own["step_ms"])
        self.assertAlmostEqual(result["input_bound_percent"], own["input_percent"], delta=3.0)

        ops = {op["name"]: op["occurrences"] for op in analyze(logdir, "framework_op_stats")["host_ops"]}
        per_step = own["steps"]
        self.assertEqual(ops["aten::conv2d"], 2 * per_step)
        self.assertEqual(ops["aten::linear"], per_step)
        self.assertEqual(ops["Optimizer.step#SGD.step"], per_step)


if __name__ == "__main__":
    unittest.main()
