"""BattleTracker: a table-side companion for miniatures wargames."""

from __future__ import annotations

from pathlib import Path

# The project's home page; pyproject's [project.urls] and the AppStream metainfo say the same
# (tests/test_packaging.py checks).
HOMEPAGE = "https://github.com/battletracker/battletracker"


def version() -> str:
    """The installed version (pyproject.toml is its one source), read when first asked for.

    importlib.metadata is imported here, not at start: it costs more than the window's
    first paint can spare. Run from a source tree that was never installed, the
    version comes from the pyproject.toml beside the package.
    """
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version("battletracker")
    except PackageNotFoundError:
        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        if pyproject.is_file():
            import tomllib

            with pyproject.open("rb") as f:
                return str(tomllib.load(f)["project"]["version"])
        return "unknown"
