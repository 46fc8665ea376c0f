"""Bytes of a bank export to text with `\\n` line endings, whatever the bank's software wrote.

Strict UTF-8 is tried first because it almost never decodes legacy bytes by accident. Otherwise
the file is in the code page its header declares (OFX `CHARSET:1252`, XML `encoding=`), or else a
Windows code page: Western European (cp1252) unless its accented lines read better as Central
European (cp1250: Czech, Polish, Hungarian banks), Turkish (cp1254) or as Western European in Mac
Roman (Excel for Mac's "CSV (Macintosh)": `Brötchen`, that cp1252 reads `Brštchen`); a file that
writes whole words in high bytes is Cyrillic, Greek, Hebrew or Arabic, or in runs of two-byte characters
Japanese, Chinese or Korean (Shift_JIS, GB18030, Big5, cp949). Any line that is UTF-8 stays UTF-8. Only
lines holding non-ASCII bytes are examined, so a 10 MB file costs little more than a UTF-8 decode.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from functools import cache, partial
from itertools import repeat

from wilson.importers.letter_pairs import LANGUAGES, LETTER_PAIRS
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
_UNSEEN = 12
# What a sign where a letter could be costs when it stands apart from letters (`£12`, `1½`).
_SIGN = 3
# Punctuation that Western text puts in a word, where it costs as a sign apart: opening it (`¿Qué`,
# `„Zitat`), at either end (`“Hola”`, `Kings’`, `Miete…`, `Brand™`) or joining its parts
# (`McDonald’s`, `Preis–Leistung`). Mac Roman reads the same bytes as letters (`’` is `í`).
_OPENING = "¿¡„‚"
_QUOTING = "“”‘’«»‹›…•™®"
_JOINING = "’–—"
# How much better than the first readable code page another must read a file: Western European files
# are the commoner, and Mac Roman ones (Excel for Mac's "CSV (Macintosh)") rarer still; Mac Roman
# also reads some single cp1252 words as Western words (`têm` as `tÍm`, `dîner` as `dÓner`).
_RARER = {"cp1250": 2, "cp1254": 2, "mac_roman": 10}
# A file is written in one language, but a name or a word from another may stand in it: a word
# that reads better in another language of the code page costs this much more than there.
_SWITCH = 6
_LEGACY = ("cp1252", "cp1250", "cp1254", "mac_roman")
# Mac Roman writes the Western European languages, as cp1252 does.
_LANGUAGES = {**LANGUAGES, "mac_roman": LANGUAGES["cp1252"]}
# Double-byte code pages of Japanese, Chinese and Korean banks' exports, and the aliases
# charset-normalizer may name them by.
_EAST_ASIAN = ("cp932", "euc_jp", "gb18030", "big5", "cp949")
_EAST_ASIAN_ALIASES = (*_EAST_ASIAN, "shift_jis", "shift_jis_2004", "shift_jisx0213", "euc_jis_2004", "euc_jisx0213",
                       "gb2312", "gbk", "big5hkscs", "cp950", "euc_kr", "johab", "iso2022_jp", "iso2022_kr")
# Kana, CJK ideographs and punctuation, Hangul syllables, full- and half-width forms.
_EAST_ASIAN_CHARS = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff01-\uff5e\uff61-\uff9f"
# Compiled by `re` on first use: only a file that is not UTF-8 needs them, and the pair took as long
# to compile as a UTF-8 export's decoding.
_EAST_ASIAN_CHAR = f"[{_EAST_ASIAN_CHARS}]"
_EAST_ASIAN_RUN = f"[{_EAST_ASIAN_CHARS}]{{2,}}"
_EAST_ASIAN_LEAST = 8  # characters: a few accented Latin capitals can pair into as many


def _weights(levels: dict[int, str]) -> dict[str, int]:
    return {pair: level for level, pairs in levels.items() for pair in pairs.split()}


# The tables below are built on first use: only a file that is not UTF-8 needs them, and building
# them cost as much as a 100k-row UTF-8 export's decoding.
@cache
def _letter_weights() -> dict[str, dict[str, int]]:
    weights = {language: {**_weights(levels), "__": 0} for language, levels in LETTER_PAIRS.items()}
    # A word list counts each word once, running text its common words often: Italian ends some of its
    # commonest words in an accented vowel (`più`, `è`, `città`, `caffè`), French a few (`à`, `où`).
    # Read as cp1250 they would end in `ů`, `č`, `ŕ`.
    for language, finals in (("it", "àèéìòù"), ("fr", "àù")):
        for final in finals:
            weights[language][final + "_"] = min(weights[language].get(final + "_", _UNSEEN), 2)
    return weights


@cache
def _differing_bytes() -> bytes:
    def char(byte: int, encoding: str) -> str | None:
        try:
            return bytes([byte]).decode(encoding)
        except UnicodeDecodeError:
            return None

    return bytes(b for b in range(0x80, 0x100) if len({char(b, encoding) for encoding in _LEGACY}) > 1)


def _is_letter(char: str) -> bool:
    return char.isalpha() and char.upper() != char  # `ª`, `º` are letters without case: signs here


@cache
def _folded(encoding: str) -> tuple[str, ...]:
    """Each byte as the lowercase letter `encoding` reads it as, or `_` for anything else."""
    def fold(byte: int) -> str:
        try:
            char = bytes([byte]).decode(encoding)
        except UnicodeDecodeError:
            return "_"
        char = "i" if char == "İ" else char.lower()  # `İ` lowers to two characters
        return char if _is_letter(char) else "_"

    return tuple(map(fold, range(256)))


@cache
def _sign_bytes(encoding: str) -> re.Pattern[bytes]:
    """The bytes `encoding` reads as a sign where another code page reads a letter."""
    return re.compile(b"[" + re.escape(bytes(b for b in _differing_bytes() if _folded(encoding)[b] == "_")) + b"]")


_WORD_BYTES = re.compile(rb"[A-Za-z\x80-\xff]+")  # words, kept where a high byte is in them: one regex for that is quadratic
_SAMPLE_WORDS = 2000
# Scripts that are not Latin write whole words in high bytes; Latin ones an accent here and there.
_HIGH_RUN = re.compile(rb"[\x80-\xff]{3,}")
# ... and keep them apart from Latin letters: `Kříž`, `üüüümlaut` are Latin words.
_LATIN_TOUCH = re.compile(rb"[A-Za-z][\x80-\xff]+|[\x80-\xff]+[A-Za-z]")
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
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")
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
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n\ufeff", "\n")  # BOMs of files joined with `cat`
    head = text[:_SAMPLE_BYTES]
    if len(_CONTROL.findall(head)) > max(2, len(head) // 200):
        raise ImportRefused(source, "this looks like a binary file, not a text export (control characters)")
    return text


def _decode_legacy(data: bytes) -> str:
    """A file that is not UTF-8: in its declared or likeliest code page, except that lines which
    are UTF-8 stay UTF-8. Exports joined from two sources mix them (`CAFÉ` from one, `CAFÉ` in
    cp1252 from the other); a legacy line is almost never valid UTF-8 by accident."""
    accented = _accented_lines(data)
    legacy = [line for line in accented if not _is_utf8(line)]
    # The code page is judged by the legacy lines alone: UTF-8 bytes read as cp1252 look like noise.
    encoding = _declared_encoding(data) or _legacy_encoding(_leading(legacy))
    if len(legacy) == len(accented):
        return data.decode(encoding, errors="replace")
    return "\n".join(
        line.decode("utf-8") if _is_utf8(line) else line.decode(encoding, errors="replace") for line in data.split(b"\n")
    )


def _decode_bom(data: bytes, source: str) -> str | None:
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding)
            except UnicodeDecodeError as exc:
                if encoding == "utf-8":  # a UTF-8 export with legacy lines joined on (`cat`)
                    return _decode_legacy(data[len(bom) :])
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


def _east_asian(sample: bytes) -> str | None:
    """Shift_JIS, EUC-JP, GB18030, Big5 or Korean: a code page that reads every character of the
    sample whole (an accented Latin letter before a space or a comma is never a lead byte's pair)
    into runs of Chinese, Japanese or Korean characters. A Latin word's accent read with the ASCII
    letter after it makes one such character amid letters (`Müller` as `M` + a kanji + `ler`), not
    a run. Which of the code pages that pass it is, charset-normalizer tells from the scripts'
    commonest characters; it loads only here, for the rare file that needs it."""
    whole = sample.rsplit(b"\n", 1)[0] if len(sample) == _SAMPLE_BYTES else sample  # no character cut off at the end
    candidates = [encoding for encoding in _EAST_ASIAN if _decodes(whole, encoding) and _in_runs(whole.decode(encoding))]
    if not candidates:
        return None
    from charset_normalizer import from_bytes

    best = from_bytes(whole, cp_isolation=[*candidates, *_LEGACY]).best()
    found = codecs.lookup(best.encoding).name if best else None
    return found if found in {codecs.lookup(name).name for name in _EAST_ASIAN_ALIASES} else None


def _in_runs(text: str) -> bool:
    """Whether the text writes East Asian characters, most of them beside another."""
    written = len(re.findall(_EAST_ASIAN_CHAR, text))
    return written >= _EAST_ASIAN_LEAST and sum(map(len, re.findall(_EAST_ASIAN_RUN, text))) * 2 >= written


def _accented_lines(data: bytes) -> list[bytes]:
    """The lines holding a byte over 0x7F. A split and a C-level test per line: a regex looking
    for one on every line took 0.16 s over a 7 MB export whose header alone had an umlaut."""
    return [line for line in data.split(b"\n") if not line.isascii()]


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


_is_utf8 = partial(_decodes, encoding="utf-8")


def _leading(lines: list[bytes]) -> bytes:
    """The first `_SAMPLE_BYTES` of the lines, joined: all a code page is judged by."""
    taken, size = [], 0
    for line in lines:
        if size >= _SAMPLE_BYTES:
            break
        taken.append(line)
        size += len(line) + 1
    return b"\n".join(taken)[:_SAMPLE_BYTES]


def _legacy_encoding(sample: bytes) -> str:
    """cp1252 unless the accented words read better as Central European text under cp1250, as
    Turkish under cp1254, or as Western European text under Mac Roman.

    The code pages share most accented letters and read the rest differently (0xE8 is `è` or `č`,
    0xFB `û` or `ű`, 0xF0 `ð` or `đ` or `ğ`). Each code page's reading of the words holding
    accents is scored as text of each of its languages, by how often the language writes each pair
    of letters in the word, its ASCII letters and edges too (`LETTER_PAIRS`): `Lefèvre`,
    `Crème`, `Brûlée` read as French, while `Lefčvre`, `Crčme` would be Czech at best and
    `Brűlée` Hungarian, and a file is written in one language: a word that reads better in another
    language of the code page costs `_SWITCH` more there. A file's words that the code pages read
    alike (`Libellé`, `Détail`) count too, for the language they point to. A sign where another
    code page reads a letter costs as `_sign_cost` says (`G³ówna` is Polish `Główna`). Only the
    distinct words holding high bytes in the sample are weighed; cp1252 wins a tie and a near tie
    (`_RARER`: a wide one over Mac Roman).
    charset-normalizer was tried here and misjudges short samples (it reads Polish as cp1252 and
    French as cp1250). A sample written mostly in runs of high bytes apart from Latin letters is
    first offered to the non-Latin code pages. `sample`: the file's first lines holding high bytes.
    """
    found = _east_asian(sample)
    if found:
        return found
    runs = _NON_ASCII.findall(sample)
    high = sum(map(len, runs))
    if high and sum(map(len, _HIGH_RUN.findall(sample))) * 2 > high and len(_LATIN_TOUCH.findall(sample)) * 4 < len(runs):
        found = _non_latin(sample)
        if found:
            return found
    words = list(dict.fromkeys(word for word in _WORD_BYTES.findall(sample) if not word.isascii()))[:_SAMPLE_WORDS]
    readable = [encoding for encoding in _LEGACY if _decodes(sample, encoding)]  # else a byte it leaves undefined
    if len(readable) < 2:
        return readable[0] if readable else "cp1252"
    differing = _differing_bytes()
    if not any(word.translate(None, differing) != word for word in words):
        return readable[0]  # every code page reads the file alike
    costs = {encoding: _reading_cost(words, encoding) for encoding in readable}
    for encoding in readable[1:]:
        costs[encoding] += _RARER[encoding]
    return min(readable, key=costs.__getitem__)  # a tie goes to the first, cp1252


def _reading_cost(words: list[bytes], encoding: str) -> int:
    """How unlike the text of any one language of `encoding` its reading of `words` is: the sum,
    over the words, of the rarity of the word's letter pairs in that language, or in the language
    of the code page that reads the word best plus `_SWITCH`, whichever is less."""
    folded = _folded(encoding)
    signs = _sign_bytes(encoding)
    tables = [_letter_weights()[language] for language in _LANGUAGES[encoding]]
    totals = [0] * len(tables)
    for word in words:
        marked = "_" + "".join(map(folded.__getitem__, word)) + "_"
        pairs = [marked[at : at + 2] for at in range(len(marked) - 1)]  # `__`, between signs, weighs 0
        extra = 0
        if signs.search(word):
            text = word.decode(encoding).replace("İ", "i").lower()
            extra = sum(_sign_cost(text[found.start()], found.start(), text) for found in signs.finditer(word))
        word_costs = [sum(map(table.get, pairs, repeat(_UNSEEN))) + extra for table in tables]
        cap = min(word_costs) + _SWITCH
        totals = [total + min(cost, cap) for total, cost in zip(totals, word_costs)]
    return min(totals)


def _sign_cost(char: str, at: int, word: str) -> int:
    """A sign standing apart from letters (`£12`, `(£)`, `1½`) reads as common, one among a word's
    letters (`G³ówna`, `¯ABKA`: Polish read as cp1252) as worse than any letter. Punctuation may
    open a word (`¿Qué`, `¡Hola`), quote it or join its parts (`_QUOTING`, `_JOINING`), and an
    ordinal indicator end an abbreviation (`nº`, `Dª`) or a number (`1ª`), but not a word ending
    in a vowel (`Nemeº` is Romanian `Nemeş`)."""
    if not any(map(str.isalpha, word)):
        return 2 * _SIGN
    if char in _JOINING or (at == 0 and char in _OPENING) or (at in (0, len(word) - 1) and char in _QUOTING):
        return 2 * _SIGN
    if char in "ªº" and (at + 1 == len(word) or not word[at + 1].isalpha()):
        if not (at and unicodedata.normalize("NFD", word[at - 1])[0] in "aeiou"):
            return 2 * _SIGN
    return 2 * (_UNSEEN + _SIGN)
