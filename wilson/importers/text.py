"""Bytes of a bank export to text with `\\n` line endings, whatever the bank's software wrote.

Strict UTF-8 is tried first because it almost never decodes legacy bytes by accident. Otherwise
the file is a Windows code page: Western European (cp1252) unless its accented lines read better
as Central European (cp1250, Czech and Polish banks). Only the lines holding non-ASCII bytes are
examined, so a 10 MB file costs no more than its accented lines.
"""

from __future__ import annotations

import codecs
import re

from wilson.importers.model import ImportRefused

_SIGNATURES = (
    (b"PK\x03\x04", "a ZIP archive (an .xlsx or .ods spreadsheet?); export the statement as CSV instead"),
    (b"\xd0\xcf\x11\xe0", "a binary Excel/Office file; export the statement as CSV instead"),
    (b"%PDF", "a PDF; export the statement as CSV, OFX or QIF instead"),
    (b"\x1f\x8b", "a gzip archive; decompress it first"),
)
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_LEGACY = ("cp1252", "cp1250")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
_NON_ASCII_LINE = re.compile(rb"[^\n]*[\x80-\xff][^\n]*")
_SAMPLE_BYTES = 64 * 1024


def decode(data: bytes, source: str) -> str:
    """The file's text; `ImportRefused` for binary files or text that no encoding explains."""
    for magic, what in _SIGNATURES:
        if data.startswith(magic):
            raise ImportRefused(source, f"this is {what}")
    text = _decode_bom(data, source)
    if text is None:
        if b"\x00" in data:
            text = _decode_utf16_without_bom(data, source)
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                text = data.decode(_legacy_encoding(data), errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    head = text[:_SAMPLE_BYTES]
    if len(_CONTROL.findall(head)) > max(2, len(head) // 200):
        raise ImportRefused(source, "this looks like a binary file, not a text export (control characters)")
    return text


def _decode_bom(data: bytes, source: str) -> str | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as exc:
                raise ImportRefused(source, f"the file starts with a {encoding} byte-order mark but is not {encoding} ({exc.reason} at byte {exc.start})") from None
    return None


def _decode_utf16_without_bom(data: bytes, source: str) -> str:
    """UTF-16 without a BOM shows NUL in every other byte of ASCII text; any other NUL is junk."""
    head = data[:4096]
    even_nuls = head[0::2].count(0)
    odd_nuls = head[1::2].count(0)
    half = len(head) // 2 or 1
    for nuls, other, encoding in ((odd_nuls, even_nuls, "utf-16-le"), (even_nuls, odd_nuls, "utf-16-be")):
        if nuls > half * 0.6 and other < half * 0.05 and len(data) % 2 == 0:
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                break
    raise ImportRefused(source, "this looks like a binary file, not a text export (it contains NUL bytes)")


def _legacy_encoding(data: bytes) -> str:
    """cp1252 unless the accented lines differ under cp1250 and read better there."""
    sample = b"\n".join(_NON_ASCII_LINE.findall(data[: _SAMPLE_BYTES * 16]))[:_SAMPLE_BYTES]
    decoded = {enc: sample.decode(enc, errors="replace") for enc in _LEGACY}
    if decoded["cp1252"] == decoded["cp1250"]:
        return "cp1252"
    from charset_normalizer import from_bytes

    best = from_bytes(sample, cp_isolation=list(_LEGACY)).best()
    if best is not None and best.encoding in _LEGACY:
        return best.encoding
    return "cp1252"
