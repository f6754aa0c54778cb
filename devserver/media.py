"""What an uploaded file is, read from its bytes: the content type and, for images, the pixel size."""

from __future__ import annotations

import struct

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def content_type(filename: str, data: bytes) -> str | None:
    if data.startswith(PNG_MAGIC):
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if filename.endswith(".txt"):
        return "text/plain; charset=utf-8"
    return None


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG, GIF or JPEG, as Discord reports on image attachments; None otherwise."""
    if data.startswith(PNG_MAGIC) and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        return struct.unpack("<HH", data[6:10])
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 <= len(data) and data[i] == 0xFF:
            marker, length = data[i + 1], struct.unpack(">H", data[i + 2 : i + 4])[0]
            if marker in JPEG_FRAMES:
                height, width = struct.unpack(">HH", data[i + 5 : i + 9])
                return width, height
            i += 2 + length
    return None
