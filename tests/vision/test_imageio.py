"""Reading images: real files written to tmp_path, real corrupt files, clear errors that lose nothing."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.imageio import (
    CorruptImageError,
    EmptyImageError,
    ImageNotFoundError,
    ImageReadError,
    ImageTypeError,
    NotAnImageError,
    as_bgr,
    decode_image,
    encode_pdf,
    encode_png,
    read_image,
)


@pytest.fixture
def picture() -> np.ndarray:
    y, x = np.mgrid[0:40, 0:60]
    image = np.stack([x * 4, y * 6, (x + y) * 2], axis=-1).astype(np.uint8)
    cv2.rectangle(image, (10, 10), (30, 25), (0, 0, 255), -1)
    return image


def _write(path: Path, image: np.ndarray, suffix: str) -> bytes:
    ok, data = cv2.imencode(suffix, image)
    assert ok
    path.write_bytes(data.tobytes())
    return data.tobytes()


def test_reads_png_exactly_and_jpeg_closely(tmp_path: Path, picture: np.ndarray) -> None:
    _write(tmp_path / "a.png", picture, ".png")
    _write(tmp_path / "b.jpg", picture, ".jpg")
    png = read_image(tmp_path / "a.png")
    jpeg = read_image(str(tmp_path / "b.jpg"))
    assert png.dtype == np.uint8 and png.shape == (40, 60, 3)
    assert np.array_equal(png, picture)
    assert jpeg.shape == picture.shape and np.abs(jpeg.astype(int) - picture).mean() < 6


def test_grey_alpha_and_16_bit_files_become_bgr_uint8(tmp_path: Path, picture: np.ndarray) -> None:
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    _write(tmp_path / "grey.png", grey, ".png")
    _write(tmp_path / "alpha.png", cv2.cvtColor(picture, cv2.COLOR_BGR2BGRA), ".png")
    _write(tmp_path / "deep.png", picture.astype(np.uint16) * 257, ".png")
    for name in ("grey.png", "alpha.png", "deep.png"):
        image = read_image(tmp_path / name)
        assert image.dtype == np.uint8 and image.shape == (40, 60, 3), name
    assert np.array_equal(read_image(tmp_path / "grey.png")[..., 0], grey)
    assert np.array_equal(read_image(tmp_path / "deep.png"), picture)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(ImageNotFoundError, match="no such file"):
        read_image(tmp_path / "nope.png")
    with pytest.raises(ImageNotFoundError, match="not a regular file"):
        read_image(tmp_path)
    error = ImageNotFoundError("x")
    assert isinstance(error, ImageReadError) and isinstance(error, ValueError) and isinstance(error, FileNotFoundError)


def test_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.jpg").write_bytes(b"")
    with pytest.raises(EmptyImageError, match="0 bytes"):
        read_image(tmp_path / "empty.jpg")


@pytest.mark.parametrize("suffix", [".png", ".jpg"])
def test_truncated_files_are_corrupt_and_left_untouched(tmp_path: Path, picture: np.ndarray, suffix: str) -> None:
    data = _write(tmp_path / f"full{suffix}", picture, suffix)
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptImageError):
        read_image(path)
    assert path.read_bytes() == data[: len(data) // 2]  # reading never changes the file


def test_damaged_png_is_corrupt(tmp_path: Path, picture: np.ndarray) -> None:
    data = bytearray(_write(tmp_path / "ok.png", picture, ".png"))
    data[60] ^= 0xFF  # inside the image data: the chunk CRC no longer matches
    (tmp_path / "bad.png").write_bytes(bytes(data))
    with pytest.raises(CorruptImageError, match="PNG"):
        read_image(tmp_path / "bad.png")


def test_text_and_pdf_files_are_not_images(tmp_path: Path) -> None:
    (tmp_path / "notes.png").write_text("these are not pixels")
    (tmp_path / "doc.jpg").write_bytes(b"%PDF-1.4\n...")
    for name in ("notes.png", "doc.jpg"):
        with pytest.raises(NotAnImageError, match="not an image"):
            read_image(tmp_path / name)


def test_wrong_argument_types() -> None:
    with pytest.raises(ImageTypeError):
        read_image(42)  # type: ignore[arg-type]
    with pytest.raises(ImageTypeError):
        decode_image("a string")  # type: ignore[arg-type]
    with pytest.raises(TypeError):  # ImageTypeError is a TypeError too
        as_bgr([[1, 2], [3, 4]])


def test_decode_from_bytes_like(picture: np.ndarray) -> None:
    data = cv2.imencode(".png", picture)[1].tobytes()
    for blob in (data, bytearray(data), memoryview(data)):
        assert np.array_equal(decode_image(blob), picture)
    with pytest.raises(EmptyImageError):
        decode_image(b"")


def test_as_bgr_checks_arrays(picture: np.ndarray) -> None:
    assert as_bgr(picture) is not None and as_bgr(picture).shape == (40, 60, 3)
    assert as_bgr(picture[..., 0]).shape == (40, 60, 3)
    assert as_bgr(cv2.cvtColor(picture, cv2.COLOR_BGR2BGRA)).shape == (40, 60, 3)
    with pytest.raises(EmptyImageError, match="no pixels"):
        as_bgr(np.zeros((0, 10, 3), np.uint8))
    with pytest.raises(ImageTypeError, match="uint8"):
        as_bgr(picture.astype(np.float32))
    with pytest.raises(ImageTypeError, match="shape"):
        as_bgr(np.zeros((4, 4, 2), np.uint8))


def test_png_records_its_print_resolution(picture: np.ndarray) -> None:
    data = encode_png(picture, dpi=300)
    start = data.index(b"pHYs")
    length = struct.unpack(">I", data[start - 4 : start])[0]
    x, y, unit = struct.unpack(">IIB", data[start + 4 : start + 4 + length])
    assert (x, y, unit) == (11811, 11811, 1)  # 300 dots per inch in dots per metre
    crc = struct.unpack(">I", data[start + 4 + length : start + 8 + length])[0]
    assert crc == zlib.crc32(data[start : start + 4 + length]) & 0xFFFFFFFF
    assert np.array_equal(decode_image(data), picture)


def test_pdf_is_well_formed_and_sized_in_millimetres(picture: np.ndarray) -> None:
    pdf = encode_pdf(picture, (297.0, 210.0))
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 841.89 595.276]" in pdf  # A4 landscape in points
    start = int(pdf[pdf.rindex(b"startxref") + 10 :].split()[0])
    table = pdf[start:].split(b"\n")
    assert table[0] == b"xref"
    count = int(table[1].split()[1])
    for number in range(1, count):
        offset = int(table[2 + number].split()[0])
        assert pdf[offset:].startswith(f"{number} 0 obj".encode())
    stream = pdf[pdf.index(b"stream\n", pdf.index(b"/Subtype /Image")) + 7 :]
    pixels = zlib.decompressobj().decompress(stream)
    assert np.array_equal(np.frombuffer(pixels[: picture.size], np.uint8).reshape(picture.shape),
                          cv2.cvtColor(picture, cv2.COLOR_BGR2RGB))
