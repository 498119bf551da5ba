"""stepscope.client: capture running profiler servers (tf.profiler.experimental.client).

    stepscope.client.trace("grpc://10.0.0.1:6009,grpc://10.0.0.2:6009", "/tmp/logdir", 2000)

Works with stepscope's servers (stepscope.server.start, C++ StartProfilerServer) and
TensorFlow's and JAX's. Each worker's profile is saved as
LOGDIR/plugins/profile/<run>/<host_port>.xplane.pb, all in one run.
"""

from . import _stepscope


def trace(service_addr, logdir, duration_ms, worker_list="", num_tracing_attempts=3, options=None):
    """Records `duration_ms` of every worker; returns the saved .xplane.pb paths.

    service_addr: "grpc://host:port" or a comma-separated list of them; worker_list, when
    given, is captured instead (TensorFlow's TPU form). A worker that answers unavailable,
    busy or empty is tried up to num_tracing_attempts times in all. options: a
    ProfilerOptions (delay_ms: start on every worker this long after the request).
    Raises InvalidArgumentError for bad arguments, and the first worker's error (e.g.
    UnavailableError) when no worker was captured.
    """
    from . import InvalidArgumentError, ProfilerOptions, _levels, _path
    if options is None:
        # Device tracing on, as TensorFlow's client: a GPU worker asked for 0 records no
        # kernel (a worker without a device tracer says so in its warnings).
        options = ProfilerOptions()
    for name, value in (("duration_ms", duration_ms), ("num_tracing_attempts", num_tracing_attempts)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidArgumentError("%s must be an int, got %r" % (name, value))
    host, device, python = _levels(options)
    delay_ms = options.delay_ms or 0
    addresses = worker_list if worker_list else service_addr
    if not isinstance(addresses, str):
        raise InvalidArgumentError("service_addr must be a string like 'grpc://localhost:6009', got %r" % (addresses,))
    return _stepscope.trace(addresses, _path(logdir), duration_ms, num_tracing_attempts, host, device, python,
                            delay_ms)
