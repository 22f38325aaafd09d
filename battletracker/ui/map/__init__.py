"""The top-down map: the table in inches, unit tokens, the selection's arc and range rings."""

from battletracker.ui.map.view import MapView

__all__ = ["MapView"]
