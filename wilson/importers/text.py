"""Bytes of a bank export to text with `\\n` line endings, whatever the bank's software wrote.

Strict UTF-8 is tried first because it almost never decodes legacy bytes by accident. Otherwise
the file is in the code page its header declares (OFX `CHARSET:1252`, XML `encoding=`), or else a
Windows code page: Western European (cp1252) unless its accented lines read better as Central
European (cp1250: Czech, Polish, Hungarian banks) or Turkish (cp1254); a file that writes whole
words in high bytes is Cyrillic, Greek, Hebrew or Arabic. Any line that is UTF-8 stays UTF-8. Only
lines holding non-ASCII bytes are examined, so a 10 MB file costs little more than a UTF-8 decode.
"""

from __future__ import annotations

import codecs
import re
from itertools import repeat

from wilson.importers.model import ImportRefused

_SIGNATURES = (
    (b"PK\x03\x04", "a ZIP archive (an .xlsx or .ods spreadsheet?); export the statement as CSV instead"),
    (b"\xd0\xcf\x11\xe0", "a binary Excel/Office file; export the statement as CSV instead"),
    (b"%PDF", "a PDF; export the statement as CSV, OFX or QIF instead"),
    (b"\x1f\x8b", "a gzip archive; decompress it first"),
    (b"\x89PNG", "an image (PNG), not a bank export"),
    (b"\xff\xd8\xff", "an image (JPEG), not a bank export"),
)
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Letters each code page decodes a differing byte to, when they are typical of real text.
_TYPICAL = {"cp1252": "àåñèòøæùûêãðþ", "cp1250": "čěřůňőűąęłśćźżťľďăşţńđ", "cp1254": "ıİşğ"}
# Turkish writes no acute vowel; Icelandic, whose ð þ ý share Turkish letters' bytes, writes many.
_ACUTE = re.compile(rb"[\xe1\xe9\xed\xf3\xfa\xc1\xc9\xcd\xd3\xda]")
# Scripts that are not Latin write whole words in high bytes; Latin ones an accent here and there.
_HIGH_RUN = re.compile(rb"[\x80-\xff]{3,}")
# Letter frequencies (per mille, commonest letters) of the languages each non-Latin code page
# carries. The right decoding's letters follow them; a wrong one's are the same bytes shuffled to
# other letters (KOI8-R and cp1251 even swap the cases), which score lower.
_RUSSIAN = dict(zip("оеаинтсрвлкмдпуяыьгзбчйхжшюцщэфіїє", (
    110, 85, 80, 74, 67, 63, 55, 47, 45, 44, 35, 32, 30, 28, 26, 20, 19, 17, 17, 17, 16, 14, 12, 10, 9, 7, 6, 5, 4, 3, 3, 8, 2, 2,
)))
_FREQUENCIES = {
    "cp1251": _RUSSIAN,
    "koi8_r": _RUSSIAN,
    "cp1253": dict(zip("αοετινσςρηκπυμλωδγχθφβάέήίόύώ", (
        120, 98, 80, 80, 76, 69, 50, 20, 45, 44, 40, 39, 40, 34, 30, 20, 18, 17, 10, 12, 8, 7, 15, 12, 12, 15, 15, 8, 6,
    ))),
    "cp1255": dict(zip("יוהלארתבמנשעכדםןחקפסגזטצך", (
        110, 100, 87, 70, 60, 56, 55, 48, 50, 40, 40, 24, 25, 25, 27, 15, 24, 22, 16, 15, 12, 8, 12, 9, 6,
    ))),
    "cp1256": dict(zip("البيمونرتةعدسفهكقأحجشصخإزطذضثغظى", (
        125, 100, 37, 70, 60, 60, 60, 48, 40, 30, 30, 30, 25, 25, 25, 23, 20, 20, 18, 12, 10, 10, 9, 7, 6, 7, 5, 5, 4, 5, 2, 10,
    ))),
}
_POUNDS = re.compile(r"£\s?\d")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
_NON_ASCII_LINE = re.compile(rb"[^\n]*[\x80-\xff][^\n]*")
_NON_ASCII = re.compile(rb"[\x80-\xff]+")
_SAMPLE_BYTES = 64 * 1024
_DECLARED = re.compile(rb"^\s*CHARSET:\s*([\w-]+)|\bencoding\s*=\s*[\"']([\w-]+)[\"']", re.I | re.M)
# Latin-1 declared is read as its superset cp1252, as browsers do: banks put `€` (0x80) in such files.
_CODE_PAGES = {"8859-1": "cp1252", "iso-8859-1": "cp1252", "latin-1": "cp1252", "latin1": "cp1252"}


def decode(data: bytes, source: str) -> str:
    """The file's text; `ImportRefused` for binary files or text that no encoding explains."""
    for magic, what in _SIGNATURES:
        if data.startswith(magic):
            raise ImportRefused(source, f"this is {what}")
    text = _decode_bom(data, source)
    if text is None and b"\x00" in data:
        text = _decode_utf16_without_bom(data)
        if text is None:
            data = _without_nul_padding(data, source)
    if text is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = _decode_legacy(data)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    head = text[:_SAMPLE_BYTES]
    if len(_CONTROL.findall(head)) > max(2, len(head) // 200):
        raise ImportRefused(source, "this looks like a binary file, not a text export (control characters)")
    return text


def _decode_legacy(data: bytes) -> str:
    """A file that is not UTF-8: in its declared or likeliest code page, except that lines which
    are UTF-8 stay UTF-8. Exports joined from two sources mix them (`CAFÉ` from one, `CAFÉ` in
    cp1252 from the other); a legacy line is almost never valid UTF-8 by accident."""
    encoding = _declared_encoding(data) or _legacy_encoding(data)
    accented = _NON_ASCII_LINE.findall(data)
    if not any(map(_is_utf8, accented)):
        return data.decode(encoding, errors="replace")
    return "\n".join(
        line.decode("utf-8") if _is_utf8(line) else line.decode(encoding, errors="replace") for line in data.split(b"\n")
    )


def _is_utf8(line: bytes) -> bool:
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _decode_bom(data: bytes, source: str) -> str | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as exc:
                raise ImportRefused(source, f"the file starts with a {encoding} byte-order mark but is not {encoding} ({exc.reason} at byte {exc.start})") from None
    return None


def _decode_utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 without a BOM shows NUL in every other byte of ASCII text."""
    head = data[:4096]
    even_nuls = head[0::2].count(0)
    odd_nuls = head[1::2].count(0)
    half = len(head) // 2 or 1
    for nuls, other, encoding in ((odd_nuls, even_nuls, "utf-16-le"), (even_nuls, odd_nuls, "utf-16-be")):
        if nuls > half * 0.6 and other < half * 0.05 and len(data) % 2 == 0:
            try:
                return data.decode(encoding)
            except UnicodeDecodeError:
                return None
    return None


def _without_nul_padding(data: bytes, source: str) -> bytes:
    """Some systems pad a file with NULs to a block size; a NUL anywhere else refuses the file."""
    data = data.rstrip(b"\x00")
    if b"\x00" in data:
        line = data.count(b"\n", 0, data.index(b"\x00")) + 1
        raise ImportRefused(source, f"line {line} holds a NUL byte: a damaged file, or not a text export")
    return data


def _declared_encoding(data: bytes) -> str | None:
    """The code page the file's own header names, if Python knows it (`CHARSET:NONE` names none)."""
    found = _DECLARED.search(data[:2048])
    if not found:
        return None
    name = (found[1] or found[2]).decode("ascii").lower()
    name = _CODE_PAGES.get(name, f"cp{name}" if name.isdigit() else name)
    try:
        declared = codecs.lookup(name).name
    except LookupError:
        return None
    return None if declared.startswith("utf") else declared  # it claims UTF-8 but is not: guess instead


def _non_latin(sample: bytes) -> str | None:
    """Cyrillic (cp1251 or KOI8-R), Greek, Hebrew or Arabic: the code page whose decoding is made
    of the language's commonest letters, and of letters only (a Polish text of many accents, read
    as Greek, shows symbols and holes); None when none reads so."""
    def score(encoding: str) -> int:
        weights = _FREQUENCIES[encoding]
        return sum(map(weights.get, sample.decode(encoding, errors="replace").lower(), repeat(0)))

    for encoding in sorted(_FREQUENCIES, key=score, reverse=True):
        high = [ch for ch in sample.decode(encoding, errors="replace") if ord(ch) > 127]
        if sum(map(str.isalpha, high)) >= 0.95 * len(high):
            return encoding
    return None


def _legacy_encoding(data: bytes) -> str:
    """cp1252 unless the accented lines read as Central European text under cp1250, or as Turkish
    under cp1254 (`ı`, `ş`, `ğ`, and no acute vowel).

    The two code pages share most accented letters; where a byte differs, each decoding yields a
    letter typical of its languages or an unlikely one (`ě` vs `ì`, `ł` vs `³`). Letters that are
    common on both sides (`č`/`è`, `ř`/`ø`) cancel out, and a tie means cp1252. charset-normalizer
    was tried here and misjudges short samples (it reads Polish as cp1252 and French as cp1250).
    A sample written mostly in runs of high bytes is first offered to the non-Latin code pages.
    """
    sample = b"\n".join(_NON_ASCII_LINE.findall(data[: _SAMPLE_BYTES * 16]))[:_SAMPLE_BYTES]
    high = sum(map(len, _NON_ASCII.findall(sample)))
    if high and sum(map(len, _HIGH_RUN.findall(sample))) * 2 > high:
        found = _non_latin(sample)
        if found:
            return found
    scores = {}
    for encoding, typical in _TYPICAL.items():
        try:
            decoded = sample.decode(encoding)
        except UnicodeDecodeError:
            scores[encoding] = -1
            continue
        scores[encoding] = sum(1 for ch in decoded if ch in typical or ch.lower() in typical)  # `İ` lowers to two letters
    if scores["cp1252"] >= 0:  # `£12.34` in pounds (cp1250 reads the byte as `Ł`)
        scores["cp1252"] += len(_POUNDS.findall(sample.decode("cp1252")))
    if _ACUTE.search(sample):
        scores["cp1254"] = -1
    best = max(("cp1252", "cp1250", "cp1254"), key=lambda encoding: scores[encoding])  # a tie is cp1252
    return best if scores[best] > scores["cp1252"] else "cp1252"
