"""Wilson: a local-first bookkeeping agent for the terminal."""

__version__ = "0.1.0"
