"""The battle log's wording of a step's rolls, and the wordings older versions wrote.

Log lines are part of a saved game, and reopening a game replays its actions
and compares what they write with the saved log (rules/replay.py): a line
worded differently would cost the game its undo history. So a change of
wording is listed in `OLD_WORDINGS`, each entry turning a line as an older
version wrote it into the line as this version writes it. The replay keeps
the saved line where the saved line is the replayed one in an older wording
(`reads_as`), so the game reopens exactly as it was saved, undo and redo
included; only new steps are written in the new words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

ROLLS = " - rolls: "


def _repeats(title: str, label: str) -> bool:
    """Whether the step's title already says the roll's label ("Germany: Command Dice" and "Command Dice")."""
    return bool(label) and (title == label or title.endswith(f" {label}"))


def rolls_line(title: str, rolls: Sequence[tuple[str, Sequence[object]]], source: str = "") -> str:
    """The log line of a step's rolls: "Fire - rolls: Firepower Dice: 4 6 2; Effect dice: 5".

    A roll the title already names is given by its faces alone ("Germany:
    Command Dice - rolls: 6 5 3 1 1"), never the name twice. `source` says
    whose dice they were ("dice rolled at the table").
    """
    parts = [" ".join(str(v) for v in faces) if _repeats(title, label)
             else f"{label}: {' '.join(str(v) for v in faces)}" for label, faces in rolls]
    head = f"{title} ({source})" if source else title
    return f"{head}{ROLLS}{'; '.join(parts)}"


def _named_twice(line: str) -> str:
    """A rolls line that named the roll its title already names ("...Command Dice - rolls: Command Dice: 6 5")."""
    head, found, rolled = line.partition(ROLLS)
    if not found:
        return line
    titles = [head]
    if head.endswith(")") and " (" in head:
        titles.append(head[:head.rindex(" (")])  # the title before "(dice rolled at the table)"
    parts: list[str] = []
    for part in rolled.split("; "):
        at = part.find(": ")
        while at >= 0 and not any(_repeats(title, part[:at]) for title in titles):
            at = part.find(": ", at + 2)
        parts.append(part if at < 0 else part[at + 2:])
    return f"{head}{ROLLS}{'; '.join(parts)}"


@dataclass(frozen=True)
class OldWording:
    """A wording an older version wrote: what changed, and the line in the current words."""

    change: str
    current: Callable[[str], str]


OLD_WORDINGS: tuple[OldWording, ...] = (
    OldWording("A roll the step's title already names is no longer named again in the rolls line "
               "(\"Command Dice - rolls: Command Dice: 6 5 3\" became \"Command Dice - rolls: 6 5 3\")",
               _named_twice),
)


def reads_as(saved: str, written: str) -> bool:
    """Whether the saved line is `written`, in its own words or in a wording an older version wrote."""
    return saved == written or any(old.current(saved) == written for old in OLD_WORDINGS)
