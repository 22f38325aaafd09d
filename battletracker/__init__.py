"""BattleTracker: a table-side companion for miniatures wargames."""

__version__ = "0.1.0"
