"""UI test fixtures: a session on the demo battle, settings kept out of real folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QSettings
from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QApplication

from battletracker.app import demo_path
from battletracker.model import savefile
from battletracker.model.game import Game
from battletracker.ui.extensions import add_features
from battletracker.ui.features import all_features
from battletracker.ui.session import Session
from tests.acting import ready_side


@pytest.fixture(autouse=True)
def _isolated_settings(qapp: QApplication, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    QStandardPaths.setTestModeEnabled(True)
    QCoreApplication.setOrganizationName("BattleTrackerTests")
    QCoreApplication.setApplicationName("BattleTrackerTests")
    folder = tmp_path_factory.mktemp("settings")
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(folder))
    QSettings().clear()
    yield


@pytest.fixture(autouse=True, scope="session")
def _features_added() -> None:
    """Every feature, as app.py gives them to the window, for tests that build windows and cards directly."""
    add_features(all_features())


@pytest.fixture
def demo_game() -> Game:
    return savefile.load(demo_path())


@pytest.fixture
def session(demo_game: Game) -> Session:
    return Session(demo_game)


@pytest.fixture
def germany_ready(demo_game: Game) -> None:
    """Germany's Command Dice rolled and each of its units activated: for tests of what a unit does rather than
    of who may act (`pytestmark = pytest.mark.usefixtures("germany_ready")`)."""
    ready_side(demo_game, 0)
