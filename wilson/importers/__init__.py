"""Importers: bank CSV dialects, OFX/QFX and QIF to one normalised transaction shape."""
