"""stepscope.cluster on a real Dask cluster: Debian's dask-scheduler and two dask-worker
processes on loopback (issue 37). A worker is killed mid-map; the summaries, and what the CLI
reduces from them, are the ones one process writes.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import stepscope
import stepscope.cluster
from stepscope_testing import CLI

SHARED = os.environ.get("STEPSCOPE_SHARED_DIR", "")
TRACE = os.path.join(SHARED, "testdata", "traces", "hta_ns_resolution_rank-0.pt.trace.json.gz")
HOSTS = 40


def make_logdir(root, name, hosts=HOSTS, target=TRACE):
    """A logdir of one run with `hosts` host files, each a link to the shared 15 MB trace."""
    run = os.path.join(root, name, "plugins", "profile", "job")
    os.makedirs(run)
    for i in range(hosts):
        os.symlink(target, os.path.join(run, "host%03d.pt.trace.json.gz" % i))
    return os.path.join(root, name)


def summaries(logdir):
    run = os.path.join(logdir, "plugins", "profile", "job")
    found = {}
    for name in sorted(os.listdir(run)):
        if name.endswith(".stepscope-summary"):
            with open(os.path.join(run, name), "rb") as f:
                found[name] = f.read()
    return found


def overview(logdir):
    out = subprocess.run([CLI, "analyze", logdir, "--tool", "overview_page", "--format", "json"], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


@unittest.skipUnless(os.path.exists(TRACE), "the shared test data is not beside the clone")
class ClusterTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="stepscope_cluster_test_")
        scheduler_file = os.path.join(cls.tmp, "scheduler.json")
        env = dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False")
        cls.scheduler = subprocess.Popen(
            ["dask-scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
             scheduler_file], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + 60
        while not os.path.exists(scheduler_file) and time.monotonic() < deadline:
            time.sleep(0.1)
        with open(scheduler_file) as f:
            cls.address = json.load(f)["address"]
        # No nanny: a killed worker stays dead, as a lost machine does.
        cls.workers = [subprocess.Popen(["dask-worker", cls.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                         "--host", "127.0.0.1", "--name", "w%d" % i],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
                       for i in range(2)]
        from dask.distributed import Client
        cls.client = Client(cls.address, timeout=60)
        cls.client.wait_for_workers(2, timeout=60)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        for process in cls.workers + [cls.scheduler]:
            if process.poll() is None:
                process.kill()
            process.wait()
        subprocess.run(["rm", "-rf", cls.tmp])

    def test_a_worker_killed_mid_map_loses_nothing(self):
        logdir = make_logdir(self.tmp, "killed")
        result = {}
        thread = threading.Thread(target=lambda: result.update(report=stepscope.cluster.summarize(logdir, self.client)))
        thread.start()
        # Kill a worker once the map has started but is far from done.
        deadline = time.monotonic() + 120
        while len(summaries(logdir)) < 4 and time.monotonic() < deadline:
            time.sleep(0.005)
        done_at_kill = len(summaries(logdir))
        victim = self.workers[0]
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        thread.join(300)
        self.assertFalse(thread.is_alive())
        report = result["report"]
        by_worker = {}
        for host in report.hosts:
            by_worker[host["worker"]] = by_worker.get(host["worker"], 0) + 1
        print("\nkilled worker w0 (SIGKILL) after %d of %d summaries were written; %r; hosts by worker %r"
              % (done_at_kill, HOSTS, report, by_worker), file=sys.stderr)
        self.assertLess(done_at_kill, HOSTS, "the worker was killed after the map had finished")
        # A host whose summary the dead worker had written but not reported runs again on the
        # survivor, which finds that summary current: "current" then, not "built".
        counts = report.counts()
        self.assertEqual(counts.get("built", 0) + counts.get("current", 0), HOSTS, report.failed)
        self.assertFalse(report.partial)
        # The survivor ran what the dead worker did not finish.
        self.assertGreater(len({h["worker"] for h in report.hosts if h["worker"]}), 0)

        # Identical to one process's map, and the CLI reduces them to the same answer.
        alone = make_logdir(self.tmp, "alone")
        subprocess.run([CLI, "summarize", alone], check=True, capture_output=True)
        self.assertEqual(summaries(logdir), summaries(alone))
        self.assertEqual(len(summaries(logdir)), HOSTS)
        self.assertEqual(overview(logdir), overview(alone))
        # A second map finds every summary current and maps nothing.
        again = stepscope.cluster.summarize(logdir, self.client)
        self.assertEqual(again.counts(), {"current": HOSTS})

    def test_an_unreadable_host_is_named_and_the_rest_summarised(self):
        logdir = make_logdir(self.tmp, "broken", hosts=3)
        broken = os.path.join(logdir, "plugins", "profile", "job", "broken.pt.trace.json")
        with open(broken, "w") as f:
            f.write('{"traceEvents": [{"ph": "X"')
        run = subprocess.run([sys.executable, "-m", "stepscope.cluster", "summarize", logdir, "--scheduler",
                              self.address], capture_output=True, text=True)
        self.assertEqual(run.returncode, stepscope.cluster.EXIT_PARTIAL, run.stderr)
        self.assertIn(broken, run.stderr)
        self.assertIn("3 built", run.stdout)
        self.assertIn("1 failed", run.stdout)
        self.assertEqual(len(summaries(logdir)), 3)

    def test_an_unreachable_scheduler_is_one_line(self):
        run = subprocess.run([sys.executable, "-m", "stepscope.cluster", "summarize", self.tmp, "--scheduler",
                              "tcp://127.0.0.1:1", "--timeout", "1"], capture_output=True, text=True)
        self.assertEqual(run.returncode, stepscope.cluster.EXIT_UNAVAILABLE)
        self.assertEqual(len(run.stderr.strip().splitlines()), 1, run.stderr)
        self.assertIn("cannot reach the scheduler tcp://127.0.0.1:1", run.stderr)


if __name__ == "__main__":
    unittest.main()
