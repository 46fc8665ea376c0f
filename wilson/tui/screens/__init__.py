"""Modal dialogs and the help screen."""
