"""The ledger: one SQLite file, its migrations, and the service layer every write goes through."""

from wilson.ledger.db import LedgerError, open_ledger
from wilson.ledger.service import Ledger

__all__ = ["Ledger", "LedgerError", "open_ledger"]
