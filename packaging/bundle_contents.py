"""What the standalone bundle must carry, read from the code: packaging/battletracker.spec asks here.

PyInstaller follows `import` statements, but the rules registry and the features
import their modules by name at run time, so the spec names every module of the
package; and it leaves out the Qt modules the app never imports, so every one it
does import anywhere (an export, the print dialog, pyqtgraph's needs) must stay.
Plain Python, so that the tests check the lists without PyInstaller installed.
"""

from __future__ import annotations

import ast
from pathlib import Path

# Every Qt module of PySide6-Essentials and the Add-ons; those the app imports are taken out by qt_unused().
QT_MODULES = (
    "Qt3DAnimation", "Qt3DCore", "Qt3DExtras", "Qt3DInput", "Qt3DLogic", "Qt3DRender", "QtBluetooth",
    "QtCharts", "QtConcurrent", "QtCore", "QtDataVisualization", "QtDBus", "QtDesigner", "QtGraphs", "QtGui",
    "QtHelp", "QtHttpServer", "QtLocation", "QtMultimedia", "QtMultimediaWidgets", "QtNetwork",
    "QtNetworkAuth", "QtNfc", "QtOpenGL", "QtOpenGLWidgets", "QtPdf", "QtPdfWidgets", "QtPositioning",
    "QtPrintSupport", "QtQml", "QtQuick", "QtQuick3D", "QtQuickControls2", "QtQuickTest", "QtQuickWidgets",
    "QtRemoteObjects", "QtScxml", "QtSensors", "QtSerialBus", "QtSerialPort", "QtSpatialAudio", "QtSql",
    "QtStateMachine", "QtSvg", "QtSvgWidgets", "QtTest", "QtTextToSpeech", "QtUiTools", "QtWebChannel",
    "QtWebEngineCore", "QtWebEngineQuick", "QtWebEngineWidgets", "QtWebSockets", "QtWebView", "QtWidgets",
    "QtXml",
)
# Qt modules pyqtgraph needs (it subclasses QOpenGLWidget); it tries QtSvg and QtTest and carries on without.
PYQTGRAPH_QT = ("QtOpenGL", "QtOpenGLWidgets")


def package_modules(root: Path) -> list[str]:
    """Every module and package under `root/battletracker`, and the resources package setup.py maps in."""
    package = root / "battletracker"
    names = ["battletracker.resources"]
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def qt_imported(root: Path) -> set[str]:
    """The Qt modules named by any import in the package, or in a string naming a module to import."""
    found: set[str] = set()
    for path in (root / "battletracker").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names = [node.value]
            else:
                continue
            found.update(name.split(".")[1] for name in names
                         if name.startswith("PySide6.Qt") and name.split(".")[1] in QT_MODULES)
    return found


def qt_unused(root: Path) -> list[str]:
    """The Qt modules to leave out of the bundle: all but those the app or pyqtgraph imports."""
    keep = qt_imported(root) | set(PYQTGRAPH_QT)
    return [f"PySide6.{name}" for name in QT_MODULES if name not in keep]
