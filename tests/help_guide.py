"""The in-app user guide is README.md's "Using it" section, shipped as resources/help/guide.md.

`python -m tests.help_guide` writes the guide from the README again after the
README changes; tests/ui/test_help.py fails while the two differ.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADING = "## Using it"
PICTURE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
"""A Markdown picture on a line of its own."""


def readme_guide(readme: str) -> str:
    """The "Using it" section of the README, from its heading to the next second-level heading, without its
    screenshots: they live in docs/, beside the README, not in the app."""
    lines = readme.splitlines()
    start = lines.index(HEADING)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    kept = [line for line in lines[start:end] if not PICTURE.fullmatch(line.strip())]
    return "\n".join(kept).strip() + "\n"


def main() -> int:
    from battletracker.rules.tables import resources_dir

    target = resources_dir() / "help" / "guide.md"
    target.write_text(readme_guide((ROOT / "README.md").read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
