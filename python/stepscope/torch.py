"""stepscope.torch: PyTorch ops in stepscope profiles.

Importing this module installs a global RecordFunction callback for every stepscope
session (stepscope.start, Profile, a remote capture): while a session records, every ATen
op and autograd node (host_tracer_level >= 2) and every record_function scope (>= 1) is
recorded on the line of the thread that ran it, with PyTorch's own names. Outside
sessions the callback is not installed, so PyTorch runs as if stepscope were absent.

The DataLoader's iterator records "enumerate(DataLoader)#<iterator>.__next__" itself
(through record_function), which stepscope's analysis counts as the step waiting for
input. Importing this module also records each DataLoader iterator as an input pipeline
(stepscope.pipeline; instrument_dataloader(False) turns it off): the fetch and collate of
each batch, each dataset element, and with workers the wait for each batch, so
`stepscope analyze --tool tf_data_bottleneck_analysis` names the slow stage. DataLoader
workers (num_workers > 0) are forked children: they record nothing and never write
profiles.

The PyTorch-profiler habit, with step markers:

    import stepscope.torch
    sched = stepscope.torch.schedule(wait=1, warmup=1, active=3, repeat=1)
    with stepscope.torch.profile("/tmp/logdir", schedule=sched) as prof:
        for batch in loader:
            train_step(batch)
            prof.step()

Needs Debian's python3-torch (the interpreter /usr/bin/python3), whose libtorch_cpu.so is
the one stepscope's extension was built against (libtorch-dev).
"""

import torch as _torch  # noqa: F401  (loads Debian's libtorch before the extension that links it)

from . import InvalidArgumentError, ProfilerOptions, _dataloader, _stepscope, start, stop
from . import _torch as _ops

_dataloader.install()


def instrument_dataloader(enabled):
    """Record DataLoader iterators created from now on as pipeline stages (on by default;
    see stepscope/_dataloader.py): fetch and collate (Batch), each dataset element (the
    dataset's class name), and with workers the main process's wait for each batch
    (ParallelMap), for tf_data_bottleneck_analysis."""
    _dataloader.set_enabled(enabled)


def set_record_shapes(enabled):
    """Record "Input Dims" / "Input type" of every op from the next session on (costs more)."""
    _ops.set_record_shapes(bool(enabled))


def record_shapes():
    return _ops.record_shapes()


def set_profile_memory(enabled):
    """Record PyTorch's allocator reports (torch.profiler's profile_memory) from the next
    session on: every allocation and free of the CPU allocator on the threads that run ops,
    as MemoryAllocation / MemoryDeallocation events with the ATen op that allocated, which
    `stepscope analyze --tool memory_profile` reads. Needs host_tracer_level >= 2."""
    _ops.set_profile_memory(bool(enabled))


def profile_memory():
    return _ops.profile_memory()


class ProfilerAction:
    """What a schedule asks for at one step (torch.profiler.ProfilerAction's values)."""
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """torch.profiler.schedule: after skip_first steps, cycles of `wait` idle steps, `warmup`
    steps and `active` recorded steps, `repeat` times (0: until the end). Each cycle's active
    steps become one run in the logdir. stepscope needs no warm-up (starting a session costs
    less than a step), so warm-up steps are not recorded; they are kept for the same step
    numbering as PyTorch's."""
    values = {"wait": wait, "warmup": warmup, "active": active, "repeat": repeat, "skip_first": skip_first}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidArgumentError("schedule: %s must be an int >= 0, got %r" % (name, value))
    if active < 1:
        raise InvalidArgumentError("schedule: active must be >= 1, got %d" % active)
    cycle = wait + warmup + active

    def action(step):
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        position = step % cycle
        if position < wait:
            return ProfilerAction.NONE
        if position < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD_AND_SAVE if position == cycle - 1 else ProfilerAction.RECORD
    return action


def _always_record(step):
    return ProfilerAction.RECORD


_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


class profile:
    """Profiles the steps a schedule selects into `logdir`; call step() at the end of each step.

    Each recorded step is marked "ProfilerStep" with step_num (and _r=1, the root marker the
    analysis groups steps by), from one step() call to the next, as torch.profiler marks
    ProfilerStep#N. Without a schedule every step from start to stop is recorded into one
    run. options: a stepscope.ProfilerOptions (default: host level 2, no device tracer).
    record_shapes / profile_memory: set_record_shapes / set_profile_memory for its runs.
    `paths` lists the profiles written so far; on_trace_ready(paths), if given, is called
    after each run is written.
    """

    def __init__(self, logdir, schedule=None, options=None, record_shapes=False, on_trace_ready=None,
                 step_name="ProfilerStep", profile_memory=False):
        self.logdir = logdir
        self.schedule = schedule or _always_record
        self.options = options if options is not None else ProfilerOptions(device_tracer_level=0)
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.on_trace_ready = on_trace_ready
        self.step_name = step_name
        self.step_num = 0
        self.paths = []
        self._recording = False
        self._marker = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def start(self):
        self.step_num = 0
        self._enter_step(self.schedule(0))

    def step(self):
        """Ends the current step and begins the next one."""
        previous = self.schedule(self.step_num)
        self._end_marker()
        if previous == ProfilerAction.RECORD_AND_SAVE:
            self._save()
        self.step_num += 1
        self._enter_step(self.schedule(self.step_num))

    def stop(self):
        self._end_marker()
        if self._recording:
            self._save()

    def _enter_step(self, action):
        if action in _RECORDING:
            if not self._recording:
                set_record_shapes(self.record_shapes)
                set_profile_memory(self.profile_memory)
                start(self.logdir, self.options)
                self._recording = True
            self._marker = _stepscope._StepMarker(self.step_name, self.step_num)
        elif self._recording:  # a schedule that left RECORD without RECORD_AND_SAVE
            self._save()

    def _end_marker(self):
        if self._marker is not None:
            self._marker.end()
            self._marker = None

    def _save(self):
        self._recording = False
        written = stop()
        self.paths += written
        if self.on_trace_ready is not None:
            self.on_trace_ready(written)
