"""stepscope.cluster: the map of a multi-host analysis on a Dask cluster.

A pod profile is one file per host. Each host's summary (what `stepscope summarize` writes,
docs/cli.md) is the map; reducing the summaries is what `stepscope analyze` or `serve` then
do in seconds. This module runs the map on Dask's workers, each summarising hosts in process
with the same C++ code as the CLI:

    python3 -m stepscope.cluster summarize LOGDIR --scheduler tcp://10.0.0.1:8786
    python3 -m stepscope.cluster summarize LOGDIR            # DASK_SCHEDULER_ADDRESS
    python3 -m stepscope.cluster summarize LOGDIR --local 4  # a LocalCluster of 4 workers

    from dask.distributed import Client
    report = stepscope.cluster.summarize("/shared/logdir", Client("tcp://10.0.0.1:8786"))

The host files (and their run directories, where summaries are written) must be on storage
every worker sees. Only hosts without a current summary are mapped. A worker that dies
mid-map loses nothing: Dask runs its hosts on another worker. A host that cannot be read is
named and the others are summarised; the result is then partial (exit code 2). Uses
Debian's python3-distributed.
"""

import argparse
import os
import sys
import time

from . import StepscopeError
from ._stepscope import _analysis

EXIT_OK = 0
EXIT_PARTIAL = 2       # a host could not be read (stepscope summarize's code for it)
EXIT_UNAVAILABLE = 4   # no scheduler (src/cli/exit_code.h's kExitUnavailable)


def _summarize_host(host, cache_dir):
    """The map's task, on a worker: read or build one host's summary, in process."""
    return _analysis.summarize_host(host, cache_dir)


class SummaryReport:
    """What a map did: each host's outcome.

    hosts:  every host of the logdir, each a dict (run, host, path, format, size_bytes,
            mtime_ns) with `state` ("current" when it already had a summary, "built",
            "rebuilt_stale", "rebuilt_corrupt", or "failed"), `summary_path`, `summary_bytes`,
            `note` (why rebuilt, or the error) and `worker` (who summarised it).
    failed: the hosts that could not be read.
    """

    def __init__(self, hosts, seconds):
        self.hosts = hosts
        self.seconds = seconds

    @property
    def failed(self):
        return [h for h in self.hosts if h["state"] == "failed"]

    @property
    def partial(self):
        return bool(self.failed)

    def counts(self):
        counts = {}
        for host in self.hosts:
            counts[host["state"]] = counts.get(host["state"], 0) + 1
        return counts

    def __repr__(self):
        return "<stepscope.cluster.SummaryReport %d hosts %r in %.1f s>" % (len(self.hosts), self.counts(), self.seconds)


def _who_ran(client, futures):
    """The worker that holds each finished task's result: the one that ran it (for the report)."""
    try:
        holders = client.who_has(futures)
    except Exception:  # informative only: the map's result does not depend on it
        return {}
    return {key: (addresses[0] if addresses else "") for key, addresses in holders.items()}


def summarize(logdir, client, cache_dir=""):
    """Summarises, on `client`'s cluster, every host of `logdir` that lacks a current summary.

    logdir: a logdir (every host of every run), a run directory or one host file.
    client: a dask.distributed.Client.
    cache_dir: where summaries go when a run directory is read-only (stepscope summarize's
        --cache_dir; default $STEPSCOPE_CACHE_DIR, $XDG_CACHE_HOME/stepscope, ~/.cache/stepscope).
    Returns a SummaryReport; raises the loader's error when `logdir` is not a profile.
    """
    start = time.monotonic()
    hosts = [dict(h) for h in _analysis.host_files(os.fspath(logdir))]
    todo = []
    for host in hosts:
        if _analysis.has_current_summary(host, cache_dir):
            host.update(state="current", summary_path="", summary_bytes=0, note="", worker="")
        else:
            todo.append(host)
    # One task per host, keyed by its path: a task the cluster loses with a dead worker is
    # run again elsewhere under the same key.
    keys = ["stepscope-summarize-%d-%s" % (i, h["path"]) for i, h in enumerate(todo)]
    futures = client.map(_summarize_host, [_task_arg(h) for h in todo], cache_dir=cache_dir, key=keys, pure=False)
    for host, future in zip(todo, futures):
        try:
            host.update(future.result())
        except StepscopeError as error:
            host.update(state="failed", summary_path="", summary_bytes=0, note=str(error))
        except Exception as error:  # the worker's own failure (KilledWorker after retries, ...)
            host.update(state="failed", summary_path="", summary_bytes=0, note="%s: %s" % (type(error).__name__, error))
    workers = _who_ran(client, futures)
    for host, future in zip(todo, futures):
        host["worker"] = workers.get(future.key, "")
    return SummaryReport(hosts, time.monotonic() - start)


def _task_arg(host):
    return {k: host[k] for k in ("run", "host", "path", "format", "size_bytes", "mtime_ns")}


# ---- python3 -m stepscope.cluster ----

def _print_report(report, out):
    rows = [("Run", "Host", "Summary", "Worker", "Note")]
    for h in report.hosts:
        rows.append((h["run"], h["host"], h["state"], h.get("worker", ""), h.get("note", "")))
    widths = [max(len(str(r[i])) for r in rows) for i in range(4)]
    for r in rows:
        out.write("  ".join(str(c).ljust(w) for c, w in zip(r, widths)) + "  " + str(r[4]) + "\n")
    counts = report.counts()
    out.write("%d hosts in %.1f s: %s\n" % (len(report.hosts), report.seconds,
                                           ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items()))))


def _connect(args):
    """The Client the arguments name: --local N, --scheduler ADDRESS, or DASK_SCHEDULER_ADDRESS."""
    from dask.distributed import Client, LocalCluster
    if args.local:
        cluster = LocalCluster(n_workers=args.local, threads_per_worker=1, processes=True, dashboard_address=None)
        return Client(cluster)
    address = args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS", "")
    if not address:
        raise SystemExit("stepscope.cluster: no scheduler: pass --scheduler ADDRESS, --local N, or set "
                         "DASK_SCHEDULER_ADDRESS")
    return Client(address, timeout=args.timeout)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m stepscope.cluster",
                                     description="Runs a multi-host analysis's map (each host's summary) on Dask.")
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("summarize", help="summarise every host without a current summary")
    run.add_argument("logdir", help="a logdir, a run directory or one host file, on storage every worker sees")
    run.add_argument("--scheduler", default="", help="the Dask scheduler (default: $DASK_SCHEDULER_ADDRESS)")
    run.add_argument("--local", type=int, default=0, metavar="N", help="start a LocalCluster of N workers instead")
    run.add_argument("--cache_dir", default="", help="where summaries go when a run directory is read-only")
    run.add_argument("--timeout", type=float, default=10, help="seconds to wait for the scheduler (default 10)")
    args = parser.parse_args(argv)
    if args.local < 0:
        parser.error("--local must be at least 1")
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        sys.stderr.write("stepscope.cluster: Dask is not installed (Debian's python3-distributed)\n")
        return EXIT_UNAVAILABLE
    try:
        client = _connect(args)
    except (OSError, TimeoutError) as error:
        address = args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS", "")
        sys.stderr.write("stepscope.cluster: cannot reach the scheduler %s: %s\n" % (address, str(error).splitlines()[0]))
        return EXIT_UNAVAILABLE
    try:
        report = summarize(args.logdir, client, args.cache_dir)
    except StepscopeError as error:
        sys.stderr.write("stepscope.cluster: %s: %s\n" % (args.logdir, error))
        return EXIT_PARTIAL
    finally:
        client.close()
    _print_report(report, sys.stdout)
    for host in report.failed:
        sys.stderr.write("stepscope.cluster: %s: %s\n" % (host["path"], host["note"]))
    return EXIT_PARTIAL if report.partial else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
