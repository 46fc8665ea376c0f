"""The TUI's widgets: the transactions table, record views, the account list and the ask panel."""
