"""frapnet on the network (issue #3; docs/protocol.md, docs/hosting.md).

- :mod:`frapnet.net.wire` — length-prefixed msgpack frames, the codec (big integers exact, F6).
- :mod:`frapnet.net.protocol` — message kinds, validation, error codes.
- :mod:`frapnet.net.host` — the host: :class:`~frapnet.net.host.Table` (sockets-free referee),
  the Twisted server, :func:`~frapnet.net.host.start_host`.
- :mod:`frapnet.net.client` — :class:`~frapnet.net.client.TableClient` (client-contract.md).
- :mod:`frapnet.net.discovery` — LAN discovery (DNS-SD).

Nothing here imports ``twisted.internet.reactor`` at import time.
"""
