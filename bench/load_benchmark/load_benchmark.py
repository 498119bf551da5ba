#!/usr/bin/python3
"""`./dev bench load`: `stepscope.load` plus the overview from Python, against the CLI doing the
same. Writes $STEPSCOPE_BENCH_OUT/load.json (one flat object).

The input is the largest shared trace (hta_ns_resolution_rank-0.pt.trace.json.gz: 15 MB of
Kineto JSON in a 1.15 MB .gz). Each measurement runs in a fresh process, in rounds: each round
runs the CLI and Python once, in an order that alternates from round to round, so drift in the
machine's load hits both alike. Medians over STEPSCOPE_BENCH_ROUNDS rounds (default 11).

  cli_s                       wall time of `stepscope analyze TRACE --tool overview_page
                              --format json`: a whole process (start, read, analyse, write)
  python_s                    stepscope.load(TRACE).tool("overview_page") timed inside a fresh
                              interpreter (after `import stepscope`): what a notebook waits for
  cli_startup_s               wall time of `stepscope help`: the CLI's process start alone
  python_over_cli_work_pct    python_s over (cli_s - cli_startup_s): the same work, both
                              without starting a process
  python_process_s            a whole Python process doing what the CLI does (load, overview,
                              JSON to stdout), interpreter start and `import stepscope` included
  python_over_cli_pct         python_s over cli_s, in % (+ is slower); the goal is |x| <= 10
  python_process_over_cli_pct python_process_s over cli_s, in %
  python_second_load_s        a second load + overview in the same process (warm heap)
  python_bytes_s              stepscope.load(bytes of the file) + overview, in process
  trace_file_bytes            the .gz's size

Run with Debian's /usr/bin/python3, PYTHONPATH naming the module's directory and STEPSCOPE_CLI
the CLI of the same build (./dev sets all three).
"""

import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
from bench_figures import write_figures  # noqa: E402
CLI = os.environ.get("STEPSCOPE_CLI", os.path.join(ROOT, "build", "bin", "stepscope"))
SHARED = os.environ.get("STEPSCOPE_SHARED_DIR", os.path.join(ROOT, "..", "shared"))
TRACE = os.path.join(SHARED, "testdata", "traces", "hta_ns_resolution_rank-0.pt.trace.json.gz")

# Prints the in-process seconds of: load + overview, the same again, and load(bytes) + overview.
PYTHON_RUN = r"""
import json, sys, time
import stepscope
path = sys.argv[1]
times = []
for source in (path, path, "bytes"):
    data = open(path, "rb").read() if source == "bytes" else path
    start = time.perf_counter()
    overview = stepscope.load(data).tool("overview_page")
    times.append(time.perf_counter() - start)
assert overview["steps"] > 0
print(json.dumps(times))
"""


PYTHON_ONCE = r"""
import json, sys
import stepscope
print(json.dumps(stepscope.load(sys.argv[1]).tool("overview_page")))
"""


def run_cli():
    start = time.perf_counter()
    subprocess.run([CLI, "analyze", TRACE, "--tool", "overview_page", "--format", "json"], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def run_cli_startup():
    """A CLI process that reads nothing (`stepscope help`): the CLI's share of process start."""
    start = time.perf_counter()
    subprocess.run([CLI, "help"], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def run_python():
    """In-process seconds of: load + overview, the same again, load(bytes) + overview."""
    out = subprocess.run([sys.executable, "-c", PYTHON_RUN, TRACE], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def run_python_process():
    """A whole Python process that loads the trace and writes the overview, as the CLI does."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", PYTHON_ONCE, TRACE], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def same_overview():
    """The comparison means something only if both give the same result."""
    cli = subprocess.run([CLI, "analyze", TRACE, "--tool", "overview_page", "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    import stepscope
    if json.loads(cli) != stepscope.load(TRACE).tool("overview_page"):
        raise SystemExit("load_benchmark: Python's overview differs from the CLI's")


def main():
    if not os.path.exists(TRACE):
        raise SystemExit("load_benchmark: %s is missing (the shared test data beside the clone)" % TRACE)
    same_overview()
    rounds = int(os.environ.get("STEPSCOPE_BENCH_ROUNDS", "11"))
    cli, startup, python, process, second, from_bytes = [], [], [], [], [], []
    run_cli(), run_python(), run_python_process()  # warm the page cache and the binaries
    for round_index in range(rounds):
        order = (0, 1, 2) if round_index % 2 == 0 else (2, 1, 0)
        for which in order:
            if which == 0:
                cli.append(run_cli())
                startup.append(run_cli_startup())
            elif which == 1:
                process.append(run_python_process())
            else:
                inner = run_python()
                python.append(inner[0])
                second.append(inner[1])
                from_bytes.append(inner[2])
    median = statistics.median
    figures = {
        "cli_s": median(cli),
        "python_s": median(python),
        "python_process_s": median(process),
        "python_second_load_s": median(second),
        "python_bytes_s": median(from_bytes),
        "cli_startup_s": median(startup),
        "python_over_cli_pct": (median(python) / median(cli) - 1) * 100,
        "python_over_cli_work_pct": (median(python) / (median(cli) - median(startup)) - 1) * 100,
        "python_process_over_cli_pct": (median(process) / median(cli) - 1) * 100,
        "trace_file_bytes": os.path.getsize(TRACE),
        "rounds": rounds,
    }
    write_figures("load", figures)


if __name__ == "__main__":
    main()
