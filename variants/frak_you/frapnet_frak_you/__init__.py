"""Frak You (Фрак Ю) for frapnet: the plugin lives in :mod:`frapnet_frak_you.plugin`."""
__version__ = "0.1.0"
