"""Helpers for the Python tests: temporary logdirs and reading profiles with the real CLI.

The tests run under Debian's interpreter with PYTHONPATH=build/python and STEPSCOPE_CLI
set by ctest (python/CMakeLists.txt).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("STEPSCOPE_CLI", "")


def require_cli(test):
    if not CLI or not os.path.exists(CLI):
        raise unittest.SkipTest("STEPSCOPE_CLI does not name the stepscope binary (run these through ctest)")


class LogdirTestCase(unittest.TestCase):
    """Gives each test fresh logdirs, removed afterwards."""

    def setUp(self):
        require_cli(self)
        self._root = tempfile.mkdtemp(prefix="stepscope_py_test_")

    def tearDown(self):
        shutil.rmtree(self._root, ignore_errors=True)

    def logdir(self, name="logdir"):
        return os.path.join(self._root, name)


def run_cli(*args, check=True):
    result = subprocess.run([CLI] + [str(a) for a in args], capture_output=True, text=True, timeout=300)
    if check and result.returncode != 0:
        raise AssertionError("stepscope %s failed (exit %d): %s" % (" ".join(map(str, args)), result.returncode,
                                                                   result.stderr.strip()))
    return result


def xplane_files(logdir):
    found = []
    for root, _, files in os.walk(logdir):
        found += [os.path.join(root, f) for f in files if f.endswith(".xplane.pb")]
    return sorted(found)


def info(path):
    return json.loads(run_cli("info", path, "--format", "json").stdout)


def analyze(path, tool):
    return json.loads(run_cli("analyze", path, "--tool", tool, "--format", "json").stdout)


def trace_events(path, workdir):
    """The profile's timeline as Chrome trace events: complete events with their thread names."""
    out = os.path.join(workdir, "trace_%d.json" % len(os.listdir(workdir)))
    run_cli("convert", path, "--to", "chrome", "-o", out)
    with open(out) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    thread_names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            thread_names[(e.get("pid"), e.get("tid"))] = e["args"]["name"]
    complete = [e for e in events if e.get("ph") == "X"]
    for e in complete:
        e["thread"] = thread_names.get((e.get("pid"), e.get("tid")), "")
    return complete


def python():
    return sys.executable
