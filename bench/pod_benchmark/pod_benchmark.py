#!/usr/bin/python3
"""`./dev bench pod`: a pod's multi-host analysis, cold and from summaries, on one machine and
on a local Dask cluster. Writes $STEPSCOPE_BENCH_OUT/pod.json (one flat object).

The pod: STEPSCOPE_BENCH_POD_HOSTS synthetic hosts (default 1000), each one
.xplane.pb of ~10 MB with 8 GPUs (synthetic_pod, next to the Release CLI; the data stays in
$STEPSCOPE_BENCH_OUT/pod_data between runs). Every figure is the wall time of the real
commands, in fresh processes:

  pod_cold_s                     `stepscope analyze POD --tool overview_page` with no summaries:
                                 every host read and summarised (all cores), then reduced
  pod_warm_s                     the same with every summary current: the reduce alone
  pod_dask_local_s               `python3 -m stepscope.cluster summarize POD --local 2` with no
                                 summaries, then the reduce (`analyze`)
  pod_dask_map_s                 the map alone
  reduce_10k_hosts_s             `analyze` of a run of 10x the pod's hosts (links to its files,
                                 each with its summary): reducing STEPSCOPE_BENCH_POD_REDUCE_HOSTS
                                 summaries (default 10,000)
  summary_bytes_over_host_bytes  the summaries' bytes over the host files', in %
  huge_host_split_speedup        `summarize` of one ~2 GB host (STEPSCOPE_BENCH_HUGE_EVENTS events, default
                                 68 M) on one core over on all cores: today the planes parsed and the host
                                 threads scanned on every core; the host is not split into summarised parts
                                 (huge_host_s and huge_host_one_core_s are the two times)
  host_file_bytes                mean bytes of a host file
  cold_per_host_core_s           pod_cold_s x cores / hosts: one host's map on one core

The page cache is not dropped: the host files were just written or read, as on a machine
that analyses a pod it holds (the figure says what the CPU costs, not the disk).
"""

import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "common"))
from bench_figures import OUT, write_figures  # noqa: E402
CLI = os.environ.get("STEPSCOPE_CLI", os.path.join(ROOT, "build", "bin", "stepscope"))
GENERATOR = os.path.join(os.path.dirname(CLI), "synthetic_pod")
HOSTS = int(os.environ.get("STEPSCOPE_BENCH_POD_HOSTS", "1000"))
REDUCE_HOSTS = int(os.environ.get("STEPSCOPE_BENCH_POD_REDUCE_HOSTS", "10000"))
HUGE_EVENTS = int(os.environ.get("STEPSCOPE_BENCH_HUGE_EVENTS", "68000000"))  # ~2 GB
EVENTS_PER_HOST = int(os.environ.get("STEPSCOPE_BENCH_POD_EVENTS", "340000"))  # ~10 MB
GPUS = 8
SUFFIX = ".stepscope-summary"


def run_dir(logdir):
    return os.path.join(logdir, "plugins", "profile", "pod")


def make_pod(logdir):
    """The pod's host files, written once (a stamp says with which parameters)."""
    stamp = os.path.join(logdir, "stamp.json")
    want = {"hosts": HOSTS, "events": EVENTS_PER_HOST, "gpus": GPUS, "generator": os.path.getmtime(GENERATOR)}
    if os.path.exists(stamp):
        with open(stamp) as f:
            if json.load(f) == want:
                return
    shutil.rmtree(logdir, ignore_errors=True)
    start = time.monotonic()
    subprocess.run([GENERATOR, logdir, str(HOSTS), str(EVENTS_PER_HOST), str(GPUS)], check=True, stdout=subprocess.DEVNULL)
    print("pod_benchmark: wrote %d hosts in %.0f s" % (HOSTS, time.monotonic() - start), file=sys.stderr)
    with open(stamp, "w") as f:
        json.dump(want, f)


def remove_summaries(directory):
    for name in os.listdir(directory):
        if name.endswith(SUFFIX):
            os.remove(os.path.join(directory, name))


def timed(args, **kwargs):
    start = time.monotonic()
    out = subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)
    return time.monotonic() - start, out


def analyze(logdir):
    seconds, out = timed([CLI, "analyze", logdir, "--tool", "overview_page", "--format", "json"])
    overview = json.loads(out.stdout)
    return seconds, overview, out.stderr


def bytes_of(directory, predicate):
    return sum(os.path.getsize(os.path.join(directory, n)) for n in os.listdir(directory) if predicate(n))


def make_reduce_run(pod, logdir):
    """A run of REDUCE_HOSTS hosts: links to the pod's files, each with its summary linked beside it."""
    target = run_dir(logdir)
    shutil.rmtree(logdir, ignore_errors=True)
    os.makedirs(target)
    source = run_dir(pod)
    hosts = sorted(n for n in os.listdir(source) if n.endswith(".xplane.pb"))
    for i in range(REDUCE_HOSTS):
        name = hosts[i % len(hosts)]
        linked = "host%05d.xplane.pb" % i
        os.symlink(os.path.join(source, name), os.path.join(target, linked))
        os.link(os.path.join(source, "." + name + SUFFIX), os.path.join(target, "." + linked + SUFFIX))


def huge_host(out):
    """Seconds to summarise one huge host on all cores and on one (its summary removed first)."""
    logdir = os.path.join(out, "pod_huge")
    shutil.rmtree(logdir, ignore_errors=True)
    subprocess.run([GENERATOR, logdir, "1", str(HUGE_EVENTS), str(GPUS)], check=True, stdout=subprocess.DEVNULL)
    times = []
    for one_core in (False, True):
        remove_summaries(run_dir(logdir))
        pin = (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if one_core else None
        seconds, _ = timed([CLI, "summarize", logdir], preexec_fn=pin)
        times.append(seconds)
    size = bytes_of(run_dir(logdir), lambda n: n.endswith(".xplane.pb"))
    shutil.rmtree(logdir, ignore_errors=True)
    return times[0], times[1], size


def main():
    if not os.path.exists(GENERATOR):
        raise SystemExit("pod_benchmark: %s is missing (built with the Release CLI)" % GENERATOR)
    pod = os.path.join(OUT, "pod_data")
    make_pod(pod)
    pod_run = run_dir(pod)
    cores = os.cpu_count() or 1

    remove_summaries(pod_run)
    cold_s, cold, _ = analyze(pod)
    warm_s, warm, warm_err = analyze(pod)
    if warm != cold or warm_err:
        raise SystemExit("pod_benchmark: the reduce from summaries differs from the cold analysis: " + warm_err)
    host_bytes = bytes_of(pod_run, lambda n: n.endswith(".xplane.pb"))
    summary_bytes = bytes_of(pod_run, lambda n: n.endswith(SUFFIX))

    reduce_dir = os.path.join(OUT, "pod_reduce")
    make_reduce_run(pod, reduce_dir)
    reduce_s, reduced, reduce_err = analyze(reduce_dir)
    if reduce_err or len(reduced["run_environment"]["hosts"]) != REDUCE_HOSTS:
        raise SystemExit("pod_benchmark: the %d-host reduce read no summaries or lost hosts: %s" % (REDUCE_HOSTS,
                                                                                                   reduce_err))
    shutil.rmtree(reduce_dir, ignore_errors=True)

    remove_summaries(pod_run)
    env = dict(os.environ)
    map_s, _ = timed([sys.executable, "-m", "stepscope.cluster", "summarize", pod, "--local", "2"], env=env)
    dask_reduce_s, dask_overview, dask_err = analyze(pod)
    if dask_overview != cold or dask_err:
        raise SystemExit("pod_benchmark: the Dask map's summaries do not reduce to the cold analysis")

    huge_s, huge_one_core_s, huge_bytes = huge_host(OUT)

    figures = {
        "hosts": HOSTS,
        "gpus_per_host": GPUS,
        "host_file_bytes": host_bytes / HOSTS,
        "pod_cold_s": cold_s,
        "pod_warm_s": warm_s,
        "pod_dask_local_s": map_s + dask_reduce_s,
        "pod_dask_map_s": map_s,
        "reduce_hosts": REDUCE_HOSTS,
        "reduce_10k_hosts_s": reduce_s,
        "summary_bytes_over_host_bytes": 100.0 * summary_bytes / host_bytes,
        "cold_per_host_core_s": cold_s * cores / HOSTS,
        "cores": cores,
        "huge_host_bytes": huge_bytes,
        "huge_host_s": huge_s,
        "huge_host_one_core_s": huge_one_core_s,
        "huge_host_split_speedup": huge_one_core_s / huge_s,
    }
    write_figures("pod", figures)


if __name__ == "__main__":
    main()
