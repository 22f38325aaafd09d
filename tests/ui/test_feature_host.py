"""Features see only the FeatureHost interface: they install into a small fake host as into the window."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QMainWindow
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from battletracker.ui.extensions import DockId
from battletracker.ui.extensions import Feature
from battletracker.ui.extensions import FeatureHost
from battletracker.ui.extensions import MenuId
from battletracker.ui.features import FEATURE_MODULES
from battletracker.ui.features import all_features
from battletracker.ui.features.anti_tank import ArsenalDialog
from battletracker.ui.features.backdrop import BackdropDialog
from battletracker.ui.features.bombardments import BombardmentsPanel
from battletracker.ui.features.this_phase import ThisPhasePanel
from battletracker.ui.main_window import MainWindow
from battletracker.ui.map.view import MapView
from battletracker.ui.session import Session

FEATURES_DIR = Path(__file__).resolve().parents[2] / "battletracker" / "ui" / "features"


class FakeHost:
    """The interface and nothing else: no menu bar, no window docks, no MainWindow."""

    def __init__(self, session: Session) -> None:
        self.top = QMainWindow()
        self._session = session
        self._map = MapView(session, self.top)
        self.menus: dict[MenuId, QMenu] = {}
        self.docks: list[tuple[QDockWidget, Qt.DockWidgetArea, DockId | None]] = []
        self.messages: list[tuple[str, int]] = []

    @property
    def session(self) -> Session:
        return self._session

    @property
    def map(self) -> MapView:
        return self._map

    def window(self) -> QWidget:
        return self.top

    def add_dock(self, dock: QDockWidget, area: Qt.DockWidgetArea, tabify_with: DockId | None = None) -> None:
        self.docks.append((dock, area, tabify_with))

    def menu(self, menu_id: MenuId) -> QMenu:
        return self.menus.setdefault(menu_id, QMenu(self.top))

    def show_status(self, text: str, timeout_ms: int = 8000) -> None:
        self.messages.append((text, timeout_ms))

    def status_text(self) -> str:
        return self.messages[-1][0] if self.messages else ""


def test_every_feature_installs_into_a_fake_host(qtbot: QtBot, session: Session) -> None:
    fake = FakeHost(session)
    host: FeatureHost = fake  # mypy checks that the fake is a whole FeatureHost
    qtbot.addWidget(fake.top)
    for feature in all_features():
        for extend in feature.window_extensions:
            extend(host)

    (bombardments, area, beside), (this_phase, phase_area, phase_beside) = fake.docks
    assert isinstance(bombardments.widget(), BombardmentsPanel)
    assert area == Qt.DockWidgetArea.RightDockWidgetArea and beside == "log"
    assert isinstance(this_phase.widget(), ThisPhasePanel)
    assert phase_area == Qt.DockWidgetArea.RightDockWidgetArea and phase_beside == "log"

    assert set(fake.menus) == {"game", "edit", "view"}   # in the order the features first ask, not the bar's
    (picture,) = [a for a in fake.menus["view"].actions() if a.objectName() == "action-table-picture"]
    picture.trigger()
    picture_dialog = fake.top.findChild(BackdropDialog)
    assert picture_dialog is not None and picture_dialog.isVisible()
    picture_dialog.close()
    (draw,) = [a.menu() for a in fake.menus["edit"].actions() if a.menu() is not None]
    woods = next(a for a in draw.actions() if a.text() == "Woods")
    woods.trigger()
    assert fake.map.terrain_tools.drawing
    fake.map.terrain_tools.cancel_drawing()
    assert "Line of Sight" in [a.text() for a in fake.menus["view"].actions()]
    (entry,) = [a for a in fake.menus["game"].actions() if a.objectName() == "action-arsenal"]
    entry.trigger()
    dialog = fake.top.findChild(ArsenalDialog)
    assert dialog is not None and dialog.isVisible()
    dialog.close()


def test_a_unit_action_opens_its_dialog_from_the_fake_host(qtbot: QtBot, session: Session) -> None:
    fake = FakeHost(session)
    qtbot.addWidget(fake.top)
    fire = next(a for f in all_features() for a in f.unit_actions if a.key == "coc.support_fire")
    shooter = next(u for u in session.game.units.values() if fire.available(session.game, u))
    fire.run(fake, shooter.id)
    from battletracker.ui.features.support_fire import FireDialog

    dialog = fake.top.findChild(FireDialog)
    assert dialog is not None and dialog.isVisible()
    dialog.close()


def test_the_main_window_is_the_host(qtbot: QtBot, session: Session) -> None:
    window = MainWindow(session)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.feature_host.load()
    view_entries = [a.text() for a in window.feature_host.menu("view").actions()]
    assert "Bombardments" in view_entries
    assert window.findChild(QDockWidget, "dock-bombardments") in window.tabifiedDockWidgets(window.log_dock)
    assert "action-arsenal" in [a.objectName() for a in window.feature_host.menu("game").actions()]
    window.show_status("Ready", 0)
    assert window.statusBar().currentMessage() == "Ready"
    assert isinstance(window.feature_host.menu("help").actions()[0], QAction)


def test_window_extensions_take_the_host_not_the_window() -> None:
    for feature in all_features():
        for extend in feature.window_extensions:
            (first, *_rest) = inspect.signature(extend).parameters.values()
            assert first.annotation == "FeatureHost", f"{extend.__qualname__} takes {first.annotation}"


def test_no_feature_reaches_for_the_window_or_finds_menus_by_label() -> None:
    offences = []
    for path in sorted(FEATURES_DIR.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ImportFrom) and node.module == "battletracker.ui.main_window":
                offences.append(f"{path.name}:{node.lineno} imports the main window")
            if isinstance(node, ast.Attribute) and node.attr in ("menuBar", "statusBar", "addDockWidget"):
                offences.append(f"{path.name}:{node.lineno} uses {node.attr}")
    assert not offences, "\n".join(offences)


def test_importing_the_features_package_loads_no_feature() -> None:
    """The features are found, not listed, and imported when the window asks: importing the package imports
    none of its modules."""
    tree = ast.parse((FEATURES_DIR / "__init__.py").read_text(encoding="utf-8"))
    top_level_imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert all(getattr(n, "module", "") in ("__future__", "battletracker.ui.extensions") for n in top_level_imports
               if isinstance(n, ast.ImportFrom))
    assert all(alias.name in ("importlib", "pkgutil") for n in top_level_imports if isinstance(n, ast.Import)
               for alias in n.names)
    found = all_features()
    names = [f.name for f in found]
    # The menus' order: the rules' features by their module's name, then the table's own, the display last.
    assert [f.menu_order for f in found] == sorted(f.menu_order for f in found)
    assert names[:2] == ["coc.activation", "coc.anti_tank"] and names[-3:] == ["table.picture", "terrain",
                                                                               "table_display"]
    assert {"armour_battles", "coc.bombardments", "necromunda", "coc.support_fire", "coc.this_phase"} <= set(names)


def test_every_module_of_the_features_package_is_found_and_is_a_feature() -> None:
    """Found on disk, not listed: each module and subpackage in the folder, each holding its FEATURE."""
    on_disk = sorted(path.stem if path.is_file() else path.name for path in FEATURES_DIR.iterdir()
                     if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").is_file())
    assert [name.rsplit(".", 1)[1] for name in FEATURE_MODULES] == on_disk
    assert len(all_features()) == len(FEATURE_MODULES)

def test_the_window_adds_the_features_it_is_given_just_after_the_first_paint(qtbot: QtBot, session: Session) -> None:
    asked: list[int] = []

    def features() -> tuple[Feature, ...]:
        asked.append(1)
        return all_features()

    window = MainWindow(session, features=features)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    assert asked == []
    window.show()
    qtbot.waitUntil(lambda: window.feature_host.loaded, timeout=20000)
    assert asked == [1]
    assert "action-arsenal" in [a.objectName() for a in window.feature_host.menu("game").actions()]


def test_the_bombardments_panel_is_made_only_once_a_chain_of_command_game_is_open(qtbot: QtBot) -> None:
    from battletracker.model import savefile
    from battletracker.rules.tables import resources_dir

    demo = resources_dir() / "demo"
    session = Session(savefile.load(demo / "necromunda.json"))
    window = MainWindow(session, features=all_features)
    qtbot.addWidget(window, before_close_func=lambda _w: session.undo_stack.setClean())
    window.show()
    window.feature_host.load()
    dock = window.findChild(QDockWidget, "dock-bombardments")
    assert dock is not None and not dock.isVisible() and not dock.toggleViewAction().isVisible()
    assert window.findChild(BombardmentsPanel) is None, "nothing of it made for a Necromunda game"
    session.replace_game(savefile.load(demo / "chain_of_command.json"), None)
    panel = window.findChild(BombardmentsPanel)
    assert panel is not None and dock.widget() is panel and panel.layer is not None
    assert dock.toggleViewAction().isVisible()
    assert panel.new_button.isEnabled(), "the panel follows the game now open"
