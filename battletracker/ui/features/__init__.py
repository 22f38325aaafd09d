"""Rules features in the app; each module registers its actions, card sections
and window extensions (see battletracker.ui.extensions) when imported."""
