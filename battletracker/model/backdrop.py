"""The table's own picture under the map: a photo of the table or a scenario map.

The picture travels inside the game (and so inside its save file) as the
base64 text of a PNG or JPEG file, so a game reopens with its picture on any
machine. The app makes it small before it gets here (at most
`LONG_SIDE_PIXELS` on its long side, re-encoded when large); the model caps it
at `MAX_PICTURE_BYTES` and reads its size from the file's own header, so a
record can never claim a size its picture does not have.

Where it lies is a `core.calibration.Placement` (inches per pixel, rotation,
the table point under its top-left corner); `opacity` and `visible` are how it
is shown. Items on the table keep their table coordinates: the picture moves
under them, never the other way round.
"""

from __future__ import annotations

import base64
import binascii
import math
import struct
from dataclasses import dataclass
from functools import lru_cache

from battletracker.core.calibration import Placement
from battletracker.model.game import GameError

LONG_SIDE_PIXELS = 2048
"""The app shrinks a picture to this many pixels on its long side: sharp at table scale, small in a file."""
MAX_PICTURE_PIXELS = 4096
"""The longest side a stored picture may have."""
MAX_PICTURE_BYTES = 3 * 1024 * 1024
"""The largest picture file a game keeps (before base64): with its undo history, a save file stays well
under the save file's own cap."""
MIN_SCALE = 1e-4
MAX_SCALE = 10.0
"""Inches per picture pixel: from a huge picture of a small table to a tiny one of a huge table."""


@dataclass
class Backdrop:
    """The picture under the map: `image` the base64 of its PNG or JPEG file, `name` the file it came from,
    `width` x `height` its pixels, placed by `scale`, `rotation`, `x`, `y` (see core/calibration.py),
    shown at `opacity` (0 to 1) when `visible`."""

    image: str
    name: str
    width: int
    height: int
    scale: float
    rotation: float = 0.0
    x: float = 0.0
    y: float = 0.0
    opacity: float = 0.6
    visible: bool = True

    @property
    def placement(self) -> Placement:
        return Placement(self.scale, self.rotation, self.x, self.y)


def picture_bytes(image: str) -> bytes:
    """The picture file's bytes from its base64 text; GameError when it is not base64."""
    try:
        return base64.b64decode(image.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise GameError("the picture is damaged (its text is not base64)") from None


def picture_text(data: bytes) -> str:
    """The base64 text a backdrop keeps for a picture file's bytes."""
    return base64.b64encode(data).decode("ascii")


def picture_format(data: bytes) -> str:
    """"png" or "jpeg" from the file's first bytes; GameError for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    raise GameError("the picture is not a PNG or JPEG file")


def picture_size(data: bytes) -> tuple[int, int]:
    """Width and height in pixels, read from a PNG or JPEG file's header; GameError when it has none."""
    if picture_format(data) == "png":
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise GameError("the PNG picture is cut short")
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    return _jpeg_size(data)


_JPEG_FRAMES = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """The size in a JPEG's frame header, found by stepping over the segments before it."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker == 0xFF:
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in _JPEG_FRAMES:
            if at + 9 > len(data):
                break
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        if marker == 0xD9 or length < 2:
            break
        at += 2 + length
    raise GameError("the JPEG picture is cut short (it has no size)")


@lru_cache(maxsize=8)
def _checked_picture(image: str) -> tuple[int, int]:
    """The size of the picture in `image`, checked once per picture (undo and redo store the same text)."""
    if len(image) > (MAX_PICTURE_BYTES + 2) // 3 * 4:
        raise GameError(f"the picture is larger than {MAX_PICTURE_BYTES // 1024 ** 2} MB")
    width, height = picture_size(picture_bytes(image))
    if not (0 < width <= MAX_PICTURE_PIXELS and 0 < height <= MAX_PICTURE_PIXELS):
        raise GameError(f"the picture is {width} x {height} pixels; a table picture has 1 to "
                        f"{MAX_PICTURE_PIXELS} pixels on each side")
    return width, height


def check_backdrop(b: Backdrop) -> None:
    """Refuse a backdrop whose picture, size or placement no table could show (GameError, in words)."""
    size = _checked_picture(b.image)
    if size != (b.width, b.height):
        raise GameError(f"the picture is {size[0]} x {size[1]} pixels, not {b.width} x {b.height}")
    if not all(math.isfinite(v) for v in (b.scale, b.rotation, b.x, b.y, b.opacity)):
        raise GameError("the picture's placement must be numbers")
    if not MIN_SCALE <= b.scale <= MAX_SCALE:
        raise GameError(f"the picture's scale of {b.scale:g} inches per pixel is not one a table picture has")
    if not 0.0 <= b.rotation < 360.0:
        raise GameError(f"the picture's rotation must be 0 to 360 degrees, not {b.rotation:g}")
    if max(abs(b.x), abs(b.y)) > 100_000:
        raise GameError("the picture is placed too far from the table")
    if not 0.0 <= b.opacity <= 1.0:
        raise GameError(f"the picture's opacity must be 0 to 1, not {b.opacity:g}")


__all__ = ["LONG_SIDE_PIXELS", "MAX_PICTURE_BYTES", "MAX_PICTURE_PIXELS", "Backdrop",
           "check_backdrop", "picture_bytes", "picture_format", "picture_size", "picture_text"]
