"""stepscope.load: the CLI's analysis in Python, from the same C++ tools (issue 36)."""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
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

    def test_bytes_give_the_files_results(self):
        for path in (TRACE, XSPACE):
            with open(path, "rb") as f:
                data = f.read()
            with self.subTest(path=os.path.basename(path)):
                from_bytes = stepscope.load(data)
                self.assertEqual(from_bytes.tool("overview_page"), cli_json(path, "overview_page"))
                self.assertEqual(stepscope.load(memoryview(data)).tool("framework_op_stats"),
                                 cli_json(path, "framework_op_stats"))
                self.assertEqual(from_bytes.run, "")

    def test_check_is_the_clis(self):
        budgets = ["step_ms <= 500", "input_pct <= 5"]
        cli = subprocess.run([CLI, "check", TRACE, "--max", "step_ms=500", "--max", "input_pct=5", "--format", "json"],
                             capture_output=True, text=True)
        self.assertEqual(cli.returncode, 5, cli.stderr)  # step_ms is ~615 ms: that budget is broken
        profile = stepscope.load(TRACE)
        checked = profile.check(budgets)
        self.assertEqual(checked, json.loads(cli.stdout))
        self.assertFalse(checked["all_hold"])
        self.assertEqual(profile.check(max={"step_ms": 500, "input_pct": 5}), checked)
        self.assertEqual(profile.check("step_ms <= 500\ninput_pct <= 5"), checked)
        with self.assertRaises(stepscope.InvalidArgumentError) as raised:
            profile.check(["steps_per_fortnight <= 3"])
        self.assertIn("steps_per_fortnight", str(raised.exception))
        with self.assertRaises(stepscope.InvalidArgumentError):
            profile.check([])

    def test_results_carry_their_tables_and_text(self):
        result = stepscope.load(TRACE).tool("framework_op_stats")
        self.assertEqual(result.tables(), ["host_ops", "device_ops", "host_op_types", "device_op_types"])
        text = subprocess.run([CLI, "analyze", TRACE, "--tool", "framework_op_stats"], check=True,
                              capture_output=True, text=True).stdout
        self.assertIn(result.text.strip(), text)

    def test_results_display_as_html_tables_and_charts(self):
        profile = stepscope.load(TRACE)
        ops = profile.tool("framework_op_stats")
        page = ops._repr_html_()
        # Every table, captioned by its declared title, with its declared column labels.
        for name in ops.tables():
            table = ops._native.table(name)
            self.assertIn("<caption>%s</caption>" % table["title"], page)
            for column in table["columns"]:
                self.assertIn(column["label"], page)
        self.assertIn("<svg", page)                       # the ranked chart of the first table
        self.assertIn("&lt;backward op&gt;", page)         # names are escaped, never markup
        self.assertNotIn("<backward op>", page)
        overview = profile._repr_html_()
        self.assertIn("Step time by category", overview)  # the stacked step chart
        for step in profile.steps:  # one stacked bar per step
            self.assertIn("<title>step %d: " % step["step_number"], overview)

    def test_bad_input_raises_the_clis_errors(self):
        with self.assertRaises(stepscope.StepscopeError):
            stepscope.load("/nonexistent/profile.xplane.pb")
        with self.assertRaises(stepscope.StepscopeError) as raised:
            stepscope.load(XSPACE).tool("no_such_tool")
        self.assertIn("no_such_tool", str(raised.exception))
        with self.assertRaises(stepscope.DataLossError):
            stepscope.load(b"\xff\xff\xff\xff\x0f")
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.load(b"")
        with self.assertRaises(stepscope.StepscopeError):
            stepscope.load(b'{"traceEvents": [{"ph": "X"')
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.load(12)
        with self.assertRaises(stepscope.InvalidArgumentError):
            stepscope.load(b"{}", run="r")


# A program that profiles in memory and analyses the result; it prints the overview's steps.
_IN_MEMORY_PROGRAM = textwrap.dedent("""
    import json, stepscope
    options = stepscope.ProfilerOptions(device_tracer_level=0)
    stepscope.start(None, options)
    for i in range(5):
        with stepscope.Trace("train", step_num=i, _r=1):
            with stepscope.Trace("work"):
                sum(range(20000))
    profile = stepscope.stop(write=False)
    with stepscope.Profile(options=options) as session:
        with stepscope.Trace("train", step_num=9, _r=1):
            pass
    print(json.dumps([profile.tool("overview_page")["steps"], [s["step_number"] for s in session.profile.steps]]))
""")


class InMemoryTest(unittest.TestCase):
    def test_a_session_is_analysed_without_touching_disk(self):
        strace = shutil.which("strace")
        if strace is None:
            self.skipTest("strace is not installed (Debian's strace)")
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "strace.log")
            run = subprocess.run([strace, "-f", "-qq", "-e", "trace=%file,%desc", "-o", log, sys.executable, "-c",
                                  _IN_MEMORY_PROGRAM], capture_output=True, text=True, cwd=tmp)
            if run.returncode != 0 and "ptrace" in run.stderr:
                self.skipTest("strace cannot trace here: " + run.stderr.strip())
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertEqual(json.loads(run.stdout), [5, [9]])
            with open(log) as f:
                calls = f.read()
        self.assertIn("openat(", calls)  # the trace is real: the interpreter's reads are in it
        writes = [line for line in calls.splitlines()
                  if re.search(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|\b(mkdir|mkdirat|unlink|unlinkat|rename|renameat2?|"
                               r"creat|truncate|link|symlink)\(", line)]
        self.assertEqual(writes, [])

    def test_stop_without_a_session_and_write_of_an_in_memory_session_are_errors(self):
        with self.assertRaises(stepscope.FailedPreconditionError):
            stepscope.stop(write=False)
        stepscope.start(None, stepscope.ProfilerOptions(device_tracer_level=0))
        try:
            with self.assertRaises(stepscope.FailedPreconditionError) as raised:
                stepscope.stop(write=True)
            self.assertIn("in memory", str(raised.exception))
            self.assertTrue(stepscope.is_profiling())
        finally:
            profile = stepscope.stop()
        self.assertIsInstance(profile, stepscope.analysis.Profile)


if __name__ == "__main__":
    unittest.main()
