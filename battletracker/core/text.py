"""Quoting what a player typed in a message, without letting it flood the message."""

from __future__ import annotations

QUOTE_LIMIT = 24


def brief(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as a message quotes it (its repr), cut to `limit` characters with an ellipsis.

    A pasted wall of digits must not become a wall of text on screen, and an
    integer too long for `repr` (Python refuses beyond 4,300 digits) is named,
    not printed.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return "a number too long to be right"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
