"""frapnet on the network (issue #3; docs/protocol.md, docs/hosting.md).

- :mod:`frapnet.net.wire` — length-prefixed msgpack frames, the codec (big integers exact, F6).
- :mod:`frapnet.net.protocol` — message kinds, validation, error codes.
- the host, one module per job (docs/architecture.md): :mod:`frapnet.net.table` (the referee,
  :class:`~frapnet.net.table.Table`, no sockets), :mod:`frapnet.net.seats`, :mod:`frapnet.net.fanout`
  (views and events), :mod:`frapnet.net.journal` (what is stored), :mod:`frapnet.net.takeover`
  (grace and takeover timers), :mod:`frapnet.net.server` (the Twisted protocol and factory),
  :mod:`frapnet.net.config` (:class:`~frapnet.net.config.TableConfig`); start-up is
  :func:`frapnet.hosting.start_host`.
- :mod:`frapnet.net.client` — :class:`~frapnet.net.client.TableClient` (client-contract.md).
- :mod:`frapnet.net.discovery` — LAN discovery (DNS-SD).

Nothing here imports ``twisted.internet.reactor`` at import time.
"""
