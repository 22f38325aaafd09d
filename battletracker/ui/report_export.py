"""After the battle: the report as HTML, PDF or on paper, the map as PNG or SVG, the log as CSV.

Every picture is drawn from a MapScene built for the game as it was (no
screen grab), at the table's true proportions. What the report says comes
from rules/report.py.
"""

from __future__ import annotations

import base64
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QMarginsF, QRectF, QSize, QUrl
from PySide6.QtGui import QColor, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument
from PySide6.QtSvg import QSvgGenerator, QSvgRenderer
from PySide6.QtWidgets import QApplication

from battletracker.model.game import Game
from battletracker.rules.report import BattleReport, build_report, log_csv, luck_plot_svg, pictured, report_html
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
    session = Session(pictured(game))
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


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs say bytes, PySide takes str
    buffer.close()
    return bytes(data.data())


def data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def export_map_png(game: Game, path: Path, width: int = PICTURE_WIDTH * 2) -> None:
    """The table as a PNG at its true proportions; OSError if it cannot be written."""
    if not map_image(game, width).save(str(path)):
        raise OSError(f"could not write {path}")


def export_map_svg(game: Game, path: Path) -> None:
    """The table as an SVG drawing, one unit to the inch times ten, at its true proportions."""
    scene = _scene(game)
    size = map_size(game, round(game.table_width * 10))
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(size)
    generator.setViewBox(QRectF(0, 0, size.width(), size.height()))
    generator.setTitle(game.title)
    painter = QPainter(generator)
    scene.render(painter, QRectF(0, 0, size.width(), size.height()), scene.table_rect())
    painter.end()
    if not path.exists():
        raise OSError(f"could not write {path}")


def pictures(report: BattleReport) -> dict[str, bytes]:
    """Each moment of the report drawn as a PNG."""
    return {m.key: png_bytes(map_image(m.game)) for m in report.moments}


def report_page(game: Game) -> str:
    """The whole report as one self-contained HTML page (pictures inlined)."""
    report = build_report(game)
    return report_html(report, {k: data_uri(v) for k, v in pictures(report).items()})


def export_report_html(game: Game, path: Path) -> None:
    path.write_text(report_page(game), "utf-8")


def export_log_csv(game: Game, path: Path) -> None:
    path.write_text(log_csv(build_report(game)), "utf-8", newline="")


def _svg_image(svg: str, scale: float = 2.0) -> QImage:
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize() * scale
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    return image


def report_document(game: Game) -> QTextDocument:
    """The report as Qt rich text, its pictures held as the document's resources: what prints and makes the PDF."""
    report = build_report(game)
    document = QTextDocument()
    names: dict[str, str] = {}
    for key, png in pictures(report).items():
        name = f"report:{key}"
        image = QImage.fromData(png)
        document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name),
                             image.scaledToWidth(600) if image.width() > 600 else image)
        names[key] = name
    document.addResource(QTextDocument.ResourceType.ImageResource, QUrl("report:luck"),
                         _svg_image(luck_plot_svg(report)).scaledToWidth(600))
    document.setHtml(report_html(report, names, plot="report:luck"))
    return document


def export_report_pdf(game: Game, path: Path) -> None:
    """The report as a PDF on A4 pages, through Qt's PDF writer."""
    writer = QPdfWriter(str(path))
    writer.setPageSize(QPageSize(QPageSize.PageSizeId.A4))
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter)
    writer.setTitle(game.title)
    document = report_document(game)
    document.print_(writer)
