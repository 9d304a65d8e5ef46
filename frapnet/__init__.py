"""frapnet — a peer-to-peer LAN card table for Frap (Храп) and its variants."""
__version__ = "0.1.0"
