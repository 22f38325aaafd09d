"""Pure Python building blocks: dice, exact odds and table geometry (no Qt)."""
