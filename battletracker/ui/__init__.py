"""The PySide6 user interface: session, main window, map, cards, dialogs."""
