"""stepscope: profile Python training programs, in the shape of TensorFlow's profiler API.

    import stepscope

    stepscope.start("/tmp/logdir")                      # tf.profiler.experimental.start
    for step in range(100):
        with stepscope.Trace("train", step_num=step, _r=1):
            train_one_step()
    stepscope.stop()                                    # written when this returns

    with stepscope.Profile("/tmp/logdir"):              # the same, as a context manager
        ...

    stepscope.server.start(6009)                        # on-demand capture over gRPC
    stepscope.client.trace("grpc://localhost:6009", "/tmp/logdir", 2000)

PyTorch: `import stepscope.torch` (see stepscope/torch.py). Profiles are TensorBoard logdirs:
read them with `stepscope analyze LOGDIR` or `stepscope serve --logdir LOGDIR`.
Errors raise subclasses of StepscopeError carrying the C++ library's message.
"""

from . import _stepscope

__version__ = _stepscope.__version__

Trace = _stepscope.Trace
set_thread_name = _stepscope.set_thread_name


class StepscopeError(Exception):
    """A stepscope call failed; str(error) is the library's one-line message."""

    code = "unknown"


def _error(name, code, *bases, doc):
    return type(name, (StepscopeError,) + bases, {"code": code, "__doc__": doc, "__module__": __name__})


InvalidArgumentError = _error("InvalidArgumentError", "invalid argument", ValueError,
                              doc="A malformed argument or option value.")
NotFoundError = _error("NotFoundError", "not found", doc="A file, run or host does not exist.")
AlreadyExistsError = _error("AlreadyExistsError", "already exists",
                            doc="E.g. a second profiling session in one process.")
FailedPreconditionError = _error("FailedPreconditionError", "failed precondition",
                                 doc="Called in the wrong state (stop without start).")
PermissionDeniedError = _error("PermissionDeniedError", "permission denied", doc="Refused by policy.")
ResourceExhaustedError = _error("ResourceExhaustedError", "resource exhausted", doc="A size or count limit.")
DataLossError = _error("DataLossError", "data loss", doc="Truncated or corrupt data.")
UnavailableError = _error("UnavailableError", "unavailable", ConnectionError,
                          doc="A profiler server cannot be reached or bound.")
DeadlineExceededError = _error("DeadlineExceededError", "deadline exceeded", doc="Took too long.")
UnimplementedError = _error("UnimplementedError", "unimplemented", doc="Not supported.")
IoError = _error("IoError", "i/o error", OSError, doc="A file could not be written (disk full, permissions).")
InternalError = _error("InternalError", "internal", doc="A bug in stepscope.")



_ERRORS_BY_CODE = {cls.code: cls for cls in (
    InvalidArgumentError, NotFoundError, AlreadyExistsError, FailedPreconditionError, PermissionDeniedError,
    ResourceExhaustedError, DataLossError, UnavailableError, DeadlineExceededError, UnimplementedError, IoError,
    InternalError)}
_stepscope._register_errors(_ERRORS_BY_CODE)


class ProfilerOptions:
    """tf.profiler.experimental.ProfilerOptions.

    host_tracer_level: 0 off, 1 user annotations and steps (Trace), 2 + framework ops (PyTorch
        ops with stepscope.torch), 3 + verbose.
    python_tracer_level: 0 off, 1 every Python function call and built-in call on every thread
        (needs host_tracer_level >= 1; see docs/python.md).
    device_tracer_level: 0 off, 1 on. stepscope has no device tracer yet: 1 (TensorFlow's
        default) records nothing for devices and adds a warning to the profile.
    delay_ms: for client.trace only: start recording this long after the request, on every
        worker at once. stepscope.start() records at once and refuses a delay.
    """

    __slots__ = ("host_tracer_level", "python_tracer_level", "device_tracer_level", "delay_ms")

    def __init__(self, host_tracer_level=2, python_tracer_level=0, device_tracer_level=1, delay_ms=None):
        self.host_tracer_level = host_tracer_level
        self.python_tracer_level = python_tracer_level
        self.device_tracer_level = device_tracer_level
        self.delay_ms = delay_ms

    def __repr__(self):
        return ("ProfilerOptions(host_tracer_level=%r, python_tracer_level=%r, device_tracer_level=%r, "
                "delay_ms=%r)" % (self.host_tracer_level, self.python_tracer_level, self.device_tracer_level,
                                  self.delay_ms))


def _int_option(options, name):
    value = getattr(options, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgumentError("ProfilerOptions.%s must be an int, got %r" % (name, value))
    return value


def _levels(options):
    if options is None:
        options = ProfilerOptions()
    if not isinstance(options, ProfilerOptions):
        raise InvalidArgumentError("options must be a stepscope.ProfilerOptions, got %r" % (options,))
    return (_int_option(options, "host_tracer_level"), _int_option(options, "device_tracer_level"),
            _int_option(options, "python_tracer_level"))


_in_memory = False  # whether the active session start() began has no logdir


def start(logdir=None, options=None):
    """Starts profiling; the profile goes to LOGDIR/plugins/profile/<run>/<host>.xplane.pb at stop().

    logdir=None records in memory only: nothing is created or written, and stop() returns the
    profile for analysis (stepscope.load's Profile).

    Raises AlreadyExistsError when a session is active, InvalidArgumentError for bad options,
    and the error of creating LOGDIR (e.g. IoError, PermissionDeniedError) when it cannot be.
    """
    global _in_memory
    levels = _levels(options)
    if options is not None and options.delay_ms not in (None, 0):
        raise InvalidArgumentError("ProfilerOptions.delay_ms is for client.trace; stepscope.start records at once "
                                   "(got delay_ms=%r)" % (options.delay_ms,))
    if logdir is None:
        _stepscope.start_in_memory(*levels)
        _in_memory = True
    else:
        _stepscope.start(_path(logdir), *levels)
        _in_memory = False


def stop(write=None):
    """Stops profiling.

    write=True writes the profile under the logdir given to start() and returns the written
    .xplane.pb paths (what TensorFlow's stop() does). write=False writes nothing and returns the
    session's profile, ready to analyse (stepscope.load's Profile: .tool(), .table(), ...).
    The default: write when start() was given a logdir, else return the profile.

    Raises FailedPreconditionError when no session started by start() is active (or write=True
    for a session started without a logdir), and the write error when the profile could not be
    written.
    """
    global _in_memory
    if write is None:
        write = not _in_memory
    if write:
        paths = _stepscope.stop()
        _in_memory = False
        return paths
    data = _stepscope.stop_in_memory()
    _in_memory = False
    return load(data)


def is_profiling():
    """True while any stepscope session (start(), Profile, a remote capture) records."""
    return _stepscope.is_profiling()


class Profile:
    """Context manager: start(logdir, options) on entry, stop() on exit.

        with stepscope.Profile("/tmp/logdir") as session:   # written at exit: session.paths
            train()
        with stepscope.Profile() as session:                # in memory: nothing written
            train()
        session.profile.tool("overview_page")               # the profile, analysed
    """

    def __init__(self, logdir=None, options=None):
        self._logdir = logdir
        self._options = options
        self.paths = []
        self.profile = None

    def __enter__(self):
        start(self._logdir, self._options)
        return self

    def __exit__(self, *exc):
        if self._logdir is None:
            self.profile = stop(write=False)
        else:
            self.paths = stop()
        return False


def _path(logdir):
    import os
    if not isinstance(logdir, (str, os.PathLike)):
        raise InvalidArgumentError("logdir must be a path, got %r" % (logdir,))
    return os.fspath(logdir)


def _stop_at_exit():
    # Before the interpreter finalises, so that the Python tracer can unhook and the
    # profile is written (the C++ exit handler would run after finalisation).
    if is_profiling():
        try:
            stop()
        except StepscopeError:
            pass  # a remote capture's session: not ours to stop


import atexit  # noqa: E402

atexit.register(_stop_at_exit)

from . import client, server  # noqa: E402  (they use the names above)
from .analysis import load  # noqa: E402

__all__ = ["start", "stop", "is_profiling", "load", "Profile", "ProfilerOptions", "Trace", "set_thread_name", "server",
           "client", "StepscopeError", "InvalidArgumentError", "NotFoundError", "AlreadyExistsError",
           "FailedPreconditionError", "PermissionDeniedError", "ResourceExhaustedError", "DataLossError",
           "UnavailableError", "DeadlineExceededError", "UnimplementedError", "IoError", "InternalError"]
