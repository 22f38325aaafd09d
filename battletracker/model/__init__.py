"""Game state, the effects that change it, and save files (no Qt)."""
