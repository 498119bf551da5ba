"""stepscope.load: the CLI's analysis in Python, from the same C++ tools (issue 36)."""

import json
import os
import subprocess
import unittest

import stepscope
from stepscope_testing import CLI

SHARED = os.environ.get("STEPSCOPE_SHARED_DIR", "")
TRACE = os.path.join(SHARED, "testdata", "traces", "hta_sampled_rank-0.json.gz")
XSPACE = os.path.join(SHARED, "testdata", "xplane", "tfprofiler_demo__GPU-multi-worker__34.83.195.179_6003.xplane.pb")


def cli_json(path, tool, *flags):
    out = subprocess.run([CLI, "analyze", path, "--tool", tool, "--format", "json", *flags],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


@unittest.skipUnless(os.path.exists(TRACE) and os.path.exists(XSPACE), "the shared test data is not beside the clone")
class LoadTest(unittest.TestCase):
    def test_tool_results_are_the_clis(self):
        for path in (TRACE, XSPACE):
            profile = stepscope.load(path)
            for tool in ("overview_page", "framework_op_stats"):
                with self.subTest(path=os.path.basename(path), tool=tool):
                    self.assertEqual(profile.tool(tool), cli_json(path, tool))

    def test_options_are_the_declared_ones(self):
        profile = stepscope.load(XSPACE)
        self.assertEqual(profile.tool("kernel_stats", max_kernels=3), cli_json(XSPACE, "kernel_stats", "--max_kernels", "3"))
        self.assertEqual(len(profile.tool("kernel_stats", max_kernels=3)["kernels"]), 3)
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            profile.tool("kernel_stats", max_kernels=-1)
        self.assertIn("max_kernels", str(raised.exception))
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            profile.tool("kernel_stats", hops=2)
        self.assertIn("takes no option 'hops'", str(raised.exception))

    def test_tables_hold_the_tools_rows(self):
        profile = stepscope.load(TRACE)
        rows = profile.table("framework_op_stats", "host_ops")
        if not isinstance(rows, list):  # a pandas DataFrame
            rows = rows.to_dict("records")
        self.assertEqual(rows, cli_json(TRACE, "framework_op_stats")["host_ops"])
        with self.assertRaises(stepscope.NotFoundError) as raised:
            profile.table("framework_op_stats", "no_such_table")
        self.assertIn("no table 'no_such_table' in this tool's result; tables: host_ops", str(raised.exception))

    def test_diff_is_the_clis(self):
        other = TRACE.replace("rank-0", "rank-1")
        out = subprocess.run([CLI, "diff", TRACE, other, "--format", "json"], check=True, capture_output=True,
                             text=True).stdout
        expected = json.loads(out)
        labels = (expected["a"]["label"], expected["b"]["label"])
        self.assertEqual(stepscope.load(TRACE).diff(stepscope.load(other), labels=labels), expected)
        self.assertEqual(stepscope.load(TRACE).diff(stepscope.load(other))["a"]["label"], "A")

    def test_hosts_and_steps(self):
        profile = stepscope.load(XSPACE)
        self.assertEqual(len(profile.hosts), 1)
        self.assertEqual(len(profile.steps), cli_json(XSPACE, "overview_page")["steps"])

    def test_bad_input_raises_the_clis_errors(self):
        with self.assertRaises(stepscope.StepscopeError):
            stepscope.load("/nonexistent/profile.xplane.pb")
        with self.assertRaises(stepscope.StepscopeError) as raised:
            stepscope.load(XSPACE).tool("no_such_tool")
        self.assertIn("no_such_tool", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
