"""La Krap (Ла крап) for frapnet: the game plugin lives in :mod:`frapnet_la_krap.plugin`."""
__version__ = "0.1.0"
