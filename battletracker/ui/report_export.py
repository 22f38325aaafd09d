"""After the battle: the report as HTML, PDF or on paper, the map as PNG or SVG, the log as CSV.

Every picture is drawn from a MapScene built for the game as it was (no
screen grab), at the table's true proportions. What the report says comes
from rules/report.py.

Each export is drawn whole in memory and checked, then written through
QSaveFile (ui/files.py): a full disk, a folder that cannot be written or a
process killed half way leaves any earlier file at that path as it was, and
the caller gets a SaveError naming the file and the cause.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QBuffer
from PySide6.QtCore import QByteArray
from PySide6.QtCore import QIODevice
from PySide6.QtCore import QMarginsF
from PySide6.QtCore import QRectF
from PySide6.QtCore import QSize
from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor
from PySide6.QtGui import QImage
from PySide6.QtGui import QPageLayout
from PySide6.QtGui import QPageSize
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPdfWriter
from PySide6.QtGui import QTextDocument
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication

from battletracker.model.game import Game
from battletracker.model.game import table_copy
from battletracker.rules.replay import Cancelled
from battletracker.rules.replay import Progress
from battletracker.rules.report import BattleReport
from battletracker.rules.report import build_report
from battletracker.rules.report import log_csv
from battletracker.rules.report import luck_plot_svg
from battletracker.rules.report import report_html
from battletracker.ui.files import SaveError
from battletracker.ui.files import write_bytes
from battletracker.ui.map.palette import MapPalette
from battletracker.ui.map.scene import MapScene
from battletracker.ui.session import Session

PICTURE_WIDTH = 1200
"""Pixels across a map picture in the report and a PNG export: sharp on screen and on an A4 page."""


def _scene(game: Game) -> MapScene:
    """A map scene of a copy of `game` (the copy's own session, so nothing reaches the open game).

    The copy has no history: a picture needs none, and a session offers a
    history's undo steps again by replaying it.
    """
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    session = Session(table_copy(game))
    return MapScene(session, MapPalette.from_qpalette(app.palette()), app.font(), session)


def map_size(game: Game, width: int = PICTURE_WIDTH) -> QSize:
    """A picture size `width` pixels across at the table's proportions."""
    return QSize(width, max(1, round(width * game.table_height / game.table_width)))


def map_image(game: Game, width: int = PICTURE_WIDTH) -> QImage:
    """The table drawn from its scene into an image at the table's proportions."""
    scene = _scene(game)
    size = map_size(game, width)
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    scene.render(painter, QRectF(0, 0, size.width(), size.height()), scene.table_rect())
    painter.end()
    return image


class NotDrawn(Exception):
    """A picture or document Qt could not draw (a painter that did not start, no memory for the image)."""


def _export(path: Path, draw: Callable[[], bytes]) -> None:
    """Draw the whole export, then write it to `path` in one go; nothing is written if either step fails.

    Raises SaveError naming `path` and the cause. Drawing first means a
    failed drawing never even opens the file, and the write goes through
    QSaveFile, so the earlier file stays until the new one is complete.
    """
    try:
        data = draw()
    except NotDrawn as exc:
        raise SaveError(f"could not save {path}: {exc}", str(exc)) from exc
    write_bytes(path, data)


def _memory() -> QBuffer:
    """An empty in-memory device open for writing, for the writers that draw to a device."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    return buffer


def png_bytes(image: QImage) -> bytes:
    """`image` encoded as PNG; NotDrawn if Qt could not encode it (a null image: no memory to draw it)."""
    buffer = _memory()
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]  # the stubs say bytes, PySide takes str
        raise NotDrawn("the picture could not be made")
    return bytes(buffer.data().data())


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def export_map_png(game: Game, path: Path, width: int = PICTURE_WIDTH * 2) -> None:
    """The table as a PNG at its true proportions; SaveError if it cannot be drawn or written."""
    _export(path, lambda: png_bytes(map_image(game, width)))


def map_svg(game: Game) -> bytes:
    """The table as an SVG drawing, ten units to the inch, at its true proportions.

    NotDrawn if the painter did not finish: the generator's output would be
    cut short.
    """
    scene = _scene(game)
    size = map_size(game, round(game.table_width * 10))
    buffer = _memory()
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(size)
    generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
    generator.setTitle(game.title)
    painter = QPainter(generator)
    scene.render(painter, QRectF(0, 0, size.width(), size.height()), scene.table_rect())
    if not painter.end():
        raise NotDrawn("the map could not be drawn")
    return bytes(buffer.data().data())


def export_map_svg(game: Game, path: Path) -> None:
    """The table as an SVG drawing (`map_svg`); SaveError if it cannot be drawn or written."""
    _export(path, lambda: map_svg(game))


def pictures(report: BattleReport, progress: Progress | None = None) -> dict[str, bytes]:
    """Each moment of the report drawn as a PNG; `progress` is told each one (Cancelled when it says stop)."""
    drawn: dict[str, bytes] = {}
    for k, moment in enumerate(report.moments):
        if progress is not None and not progress(k, len(report.moments)):
            raise Cancelled
        drawn[moment.key] = png_bytes(map_image(moment.game))
    return drawn


def report_page(game: Game, progress: Progress | None = None) -> str:
    """The whole report as one self-contained HTML page (pictures inlined)."""
    report = build_report(game, progress)
    return report_html(report, {k: data_uri(v) for k, v in pictures(report, progress).items()})


def export_report_html(game: Game, path: Path, progress: Progress | None = None) -> None:
    """The report as one web page (`report_page`), UTF-8; SaveError if it cannot be drawn or written.

    `progress` follows the replay and the pictures; Cancelled, with nothing written, when it says stop.
    """
    _export(path, lambda: report_page(game, progress).encode("utf-8"))


def export_log_csv(game: Game, path: Path) -> None:
    """The log as a CSV table, UTF-8; SaveError if it cannot be written."""
    _export(path, lambda: log_csv(build_report(game)).encode("utf-8"))


def _svg_image(svg: str, scale: float = 2.0) -> QImage:
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize() * scale
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def report_document(game: Game, progress: Progress | None = None) -> QTextDocument:
    """The report as Qt rich text, its pictures held as the document's resources: what prints and makes the PDF."""
    report = build_report(game, progress)
    document = QTextDocument()
    names: dict[str, str] = {}
    for key, png in pictures(report, progress).items():
        name = f"report:{key}"
        image = QImage.fromData(png)
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name),
                             image.scaledToWidth(600) if image.width() > 600 else image)
        names[key] = name
    document.addResource(QTextDocument.ResourceType.ImageResource, QUrl("report:luck"),
                         _svg_image(luck_plot_svg(report)).scaledToWidth(600))
    document.setHtml(report_html(report, names, plot="report:luck"))
    return document


def report_pdf(game: Game, progress: Progress | None = None) -> bytes:
    """The report as a PDF on A4 pages, through Qt's PDF writer.

    NotDrawn unless the writer finished the file (it ends in %%EOF): printing
    says nothing when its painter fails to start.
    """
    buffer = _memory()
    writer = QPdfWriter(buffer)
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    writer.setTitle(game.title)
    report_document(game, progress).print_(writer)
    data = bytes(buffer.data().data())
    if not data.rstrip().endswith(b"%%EOF"):
        raise NotDrawn("the PDF writer did not finish the report")
    return data


def export_report_pdf(game: Game, path: Path, progress: Progress | None = None) -> None:
    """The report as a PDF (`report_pdf`); SaveError if it cannot be drawn or written, Cancelled as the HTML's."""
    _export(path, lambda: report_pdf(game, progress))
