"""Reading images from files, bytes or arrays into the one format vision works on (BGR ``uint8``, H x W x 3),
and writing printable images: PNG with its print resolution, and a one-page PDF.

Every failure is an ``ImageReadError`` (a ``ValueError``) whose subclass says what went wrong, so a caller can
tell a missing file from a corrupt one and report it without losing the rest of a batch. Files are read as
bytes and decoded in memory: that works for non-ASCII paths too, and it never touches the file.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

# Leading bytes of the formats OpenCV decodes; anything else is "not an image" rather than "corrupt".
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"BM", "bmp"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"RIFF", "webp"),
    (b"P1", "pnm"),
    (b"P2", "pnm"),
    (b"P3", "pnm"),
    (b"P4", "pnm"),
    (b"P5", "pnm"),
    (b"P6", "pnm"),
    (b"GIF8", "gif"),
)


class ImageReadError(ValueError):
    """An image could not be turned into a BGR frame."""


class ImageNotFoundError(ImageReadError, FileNotFoundError):
    """The path does not exist or is not a regular file."""


class EmptyImageError(ImageReadError):
    """The file has no bytes, or the image has no pixels."""


class NotAnImageError(ImageReadError):
    """The bytes are not in any image format OpenCV knows (a text file, a PDF...)."""


class CorruptImageError(ImageReadError):
    """The bytes look like an image format but do not decode (truncated or damaged)."""


class ImageTypeError(ImageReadError, TypeError):
    """The argument is of the wrong Python type, or an array of the wrong dtype or shape."""


def image_format(data: bytes) -> str | None:
    """The format named by the leading bytes, or None when none matches."""
    for signature, name in _SIGNATURES:
        if data.startswith(signature):
            if name == "webp" and data[8:12] != b"WEBP":
                return None
            return name
    return None


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR uint8, honouring EXIF orientation (phone photos stand the right way up)."""
    if not isinstance(path, str | Path):
        raise ImageTypeError(f"read_image expects a str or Path, got {type(path).__name__}")
    path = Path(path)
    if not path.exists():
        raise ImageNotFoundError(f"{path}: no such file")
    if not path.is_file():
        raise ImageNotFoundError(f"{path}: not a regular file")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ImageReadError(f"{path}: cannot be read ({error.strerror or error})") from error
    return decode_image(data, name=str(path))


def decode_image(data: bytes | bytearray | memoryview, name: str = "<bytes>") -> np.ndarray:
    """Decode encoded image bytes (PNG, JPEG, ...) as BGR uint8; ``name`` only labels error messages."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise ImageTypeError(f"{name}: decode_image expects bytes, got {type(data).__name__}")
    data = bytes(data)
    if not data:
        raise EmptyImageError(f"{name}: the file is empty (0 bytes)")
    kind = image_format(data)
    if kind is None:
        raise NotAnImageError(f"{name}: not an image file (starts with {data[:8]!r})")
    # libjpeg fills a truncated JPEG with grey and only warns; a missing end-of-image marker means truncation.
    if kind == "jpeg" and b"\xff\xd9" not in data:
        raise CorruptImageError(f"{name}: truncated JPEG (no end-of-image marker)")
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise CorruptImageError(f"{name}: {kind.upper()} data is corrupt or truncated ({len(data)} bytes)")
    return as_bgr(image, name=name)


def as_bgr(image: object, name: str = "<array>") -> np.ndarray:
    """Check a frame from a camera or a caller and return it as contiguous BGR uint8 (grey and BGRA converted)."""
    if not isinstance(image, np.ndarray):
        raise ImageTypeError(f"{name}: expected a numpy array, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ImageTypeError(f"{name}: expected dtype uint8, got {image.dtype}")
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (1, 3, 4)):
        raise ImageTypeError(f"{name}: expected H x W, H x W x 3 or H x W x 4, got shape {image.shape}")
    if image.size == 0:
        raise EmptyImageError(f"{name}: the image has no pixels (shape {image.shape})")
    if image.ndim == 2 or image.shape[2] == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(image)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(image: np.ndarray, dpi: float | None = None) -> bytes:
    """PNG bytes; with ``dpi`` a pHYs chunk tells viewers and printers the physical size."""
    ok, encoded = cv2.imencode(".png", as_bgr(image))
    if not ok:
        raise ValueError("PNG encoding failed")
    data = encoded.tobytes()
    if dpi is None:
        return data
    per_metre = round(dpi / 0.0254)
    phys = _png_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
    end_of_header = 8 + 4 + 4 + 13 + 4  # signature, then the IHDR chunk (length, type, 13 bytes, CRC)
    return data[:end_of_header] + phys + data[end_of_header:]


def encode_pdf(image: np.ndarray, size_mm: tuple[float, float]) -> bytes:
    """A one-page PDF showing the image at exactly ``size_mm`` (width, height): printed at 100 % the
    millimetres on paper are the millimetres of the layout. Written by hand (the format is simple) and
    losslessly compressed with zlib, so marker edges stay sharp."""
    rgb = cv2.cvtColor(as_bgr(image), cv2.COLOR_BGR2RGB)
    height, width = rgb.shape[:2]
    points = [round(v * 72 / 25.4, 3) for v in size_mm]
    pixels = zlib.compress(rgb.tobytes(), 6)
    content = f"q {points[0]} 0 0 {points[1]} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {points[0]} {points[1]}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceRGB "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n").encode()
        + pixels + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)
