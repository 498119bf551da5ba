"""Forked children of a profiling process (DataLoader workers, os.fork) neither deadlock, nor
record, nor write profiles; the parent's profile is whole. Each scenario runs in a fresh
interpreter with a deadline, so a deadlock fails the test instead of hanging it."""

import collections
import subprocess
import sys
import textwrap
import unittest

from stepscope_testing import LogdirTestCase, trace_events, xplane_files

DATALOADER_SCRIPT = textwrap.dedent("""
    import sys, time, torch
    import stepscope, stepscope.torch

    class Decoding(torch.utils.data.Dataset):
        def __len__(self):
            return 256
        def __getitem__(self, index):
            with stepscope.Trace("decode_in_worker", index=index):  # must not be recorded
                time.sleep(0.001)
                return torch.full((4,), float(index)).mul(2), index % 3

    loader = torch.utils.data.DataLoader(Decoding(), batch_size=4, num_workers=2)
    model = torch.nn.Linear(4, 3)
    with stepscope.torch.profile(sys.argv[1]) as prof:
        for step, (x, y) in enumerate(loader):
            torch.nn.functional.cross_entropy(model(x), y).backward()
            prof.step()
            if step == 9:
                break
    print("steps", step + 1)
""")

OS_FORK_SCRIPT = textwrap.dedent("""
    import os, sys
    import stepscope

    stepscope.start(sys.argv[1], stepscope.ProfilerOptions(device_tracer_level=0))
    with stepscope.Trace("in_parent"):
        pass
    pid = os.fork()
    if pid == 0:
        failures = []
        with stepscope.Trace("in_child") as trace:
            if trace.recording:
                failures.append("child records")
        if stepscope.is_profiling():
            failures.append("child reports profiling")
        for call in (lambda: stepscope.start(sys.argv[1] + "_child"), stepscope.stop):
            try:
                call()
                failures.append("child call succeeded")
            except stepscope.FailedPreconditionError as error:
                if "forked" not in str(error):
                    failures.append("message: " + str(error))
        print("child:", failures or "ok", flush=True)
        sys.exit(1 if failures else 0)  # through atexit: must not write the parent's session
    _, status = os.waitpid(pid, 0)
    print("child exit", os.waitstatus_to_exitcode(status))
    print("paths", len(stepscope.stop()))
""")


class ForkTest(LogdirTestCase):

    def run_script(self, script, logdir):
        result = subprocess.run([sys.executable, "-c", script, logdir], capture_output=True, text=True, timeout=180)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        return result.stdout

    def test_dataloader_workers_do_not_record_or_write(self):
        logdir = self.logdir()
        out = self.run_script(DATALOADER_SCRIPT, logdir)
        self.assertIn("steps 10", out)
        paths = xplane_files(logdir)
        self.assertEqual(len(paths), 1, paths)
        names = collections.Counter(e["name"] for e in trace_events(paths[0], self._root))
        self.assertEqual(names["enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"], 10)
        self.assertEqual(names["decode_in_worker"], 0)
        self.assertGreater(names["aten::linear"], 0)

    def test_os_fork_child_cannot_profile_or_write_at_exit(self):
        logdir = self.logdir()
        out = self.run_script(OS_FORK_SCRIPT, logdir)
        self.assertIn("child: ok", out)
        self.assertIn("child exit 0", out)
        self.assertIn("paths 1", out)
        paths = xplane_files(logdir)
        self.assertEqual(len(paths), 1, paths)
        names = {e["name"] for e in trace_events(paths[0], self._root)}
        self.assertIn("in_parent", names)
        self.assertNotIn("in_child", names)


if __name__ == "__main__":
    unittest.main()
