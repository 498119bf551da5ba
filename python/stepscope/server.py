"""stepscope.server: a profiler server in this process (tf.profiler.experimental.server).

    server = stepscope.server.start(6009)      # 127.0.0.1:6009; bind="0.0.0.0" for clusters
    # elsewhere: stepscope capture grpc://127.0.0.1:6009 --logdir DIR --duration_ms 2000
    #        or: stepscope.client.trace("grpc://127.0.0.1:6009", DIR, 2000)

Unlike TensorFlow's (every interface), the server listens on 127.0.0.1 unless `bind` says
otherwise: it is unauthenticated, and anyone who can reach the port can record this
process. It lives until stop() or process exit. Captures record whatever the process
records: Trace scopes, and PyTorch ops once stepscope.torch is imported.
"""

import atexit
import threading

from . import _stepscope

_lock = threading.Lock()
_servers = []


def start(port, bind="127.0.0.1"):
    """Starts a server on `port` (0: a free one, see .port); returns it.

    Raises InvalidArgumentError for a bad port or bind address, UnavailableError when the
    port cannot be bound.
    """
    from . import InvalidArgumentError  # noqa: F401  (registers the error classes first)
    if isinstance(port, bool) or not isinstance(port, int):
        raise InvalidArgumentError("port must be an int, got %r" % (port,))
    server = _stepscope.start_server(port, str(bind))
    with _lock:
        _servers.append(server)
    return server


def stop_all():
    """Stops every server this module started (also at process exit)."""
    with _lock:
        servers = list(_servers)
        del _servers[:]
    for server in servers:
        server.stop()


atexit.register(stop_all)
