"""Decoding bank exports: BOMs, legacy code pages, line endings and binary junk."""

from __future__ import annotations

import codecs
import time
from pathlib import Path

import pytest

from wilson.importers.model import ImportRefused
from wilson.importers.text import decode

FIXTURES = Path(__file__).parent.parent / "fixtures"


@pytest.mark.parametrize(
    "data",
    [
        codecs.BOM_UTF8 + "Datum;Empfänger\r\n".encode(),
        "Datum;Empfänger\r\n".encode("utf-8"),
        "Datum;Empfänger\r\n".encode("utf-16"),
        codecs.BOM_UTF16_BE + "Datum;Empfänger\r\n".encode("utf-16-be"),
        "Datum;Empfänger\r\n".encode("utf-16-le"),
        "Datum;Empfänger\r\n".encode("cp1252"),
        "Datum;Empfänger\r".encode("latin-1"),
    ],
)
def test_encodings_and_line_endings(data: bytes) -> None:
    assert decode(data, "x.csv") == "Datum;Empfänger\n"


def test_cp1250_czech_file() -> None:
    text = decode((FIXTURES / "bank2ynab/Movements_1234512345_201805271848.csv").read_bytes(), "x")
    assert text.startswith("Datum provedení;Datum zaúčtování;Číslo účtu;Název účtu")


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("Café crème;€ 5", "cp1252"),
        ("Libellé;Crème brûlée à la carte, fête", "cp1252"),
        ("Pagamento più caffè però città", "cp1252"),
        ("Beløp;Kjøp på Rimi Bærum", "cp1252"),
        ("Płatność kartą Żabka Łódź", "cp1250"),
        ("Őszi bérlet Győr", "cp1250"),
        ("Původní částka a měna", "cp1250"),
        ("Açıklama;MAAŞ ÖDEMESİ;Kadıköy Doğuş", "cp1254"),  # Turkish
        ("MİGROS KADIKÖY;NETFLİX;ŞOK MARKET", "cp1254"),  # in capitals
        ("Дата операции;Описание\nПятёрочка Москва;ОПЛАТА КАРТОЙ", "cp1251"),  # scripts written in high bytes only
        ("Дата операции;Описание\nПятёрочка Москва;ОПЛАТА КАРТОЙ", "koi8_r"),
        ("ΑΓΟΡΑ ΣΚΛΑΒΕΝΙΤΗΣ;Μισθός Εταιρεία", "cp1253"),
        ("שופרסל דיל תל אביב;משכורת", "cp1255"),
        ("كارفور دبي;راتب الشركة", "cp1256"),
        ("Żabka Łódź zakupy ŚĆŹŃ ąęółśżźćń", "cp1250"),  # accents in a row are still Polish
        ("Færsla;Kaupþing Reykjavík, Guðrún Sýn", "cp1252"),  # Icelandic: the same bytes, with acute vowels
        # Western letters whose bytes are Central European letters in cp1250: `ï` is `ď`, `œ` is `ś`
        ("Boulangerie Sœur Anaïs;-4,50\nCafé Loïc;-12,00", "cp1252"),
        ("Café Müller;naïve memo", "cp1252"),
        ("ŒUVRES SOCIALES;NAÏVE", "cp1252"),
        ("L'Haÿ-les-Roses", "cp1252"),
        ("Rua 1º de Maio, nº 5;2ª via cartão", "cp1252"),  # ordinal indicators, not `ş`
        ("Camões;CAMÕES", "cp1252"),
        ("Forlì;CAFFÈ FORLÌ", "cp1252"),
        ("¿Qué?;Señor Muñoz", "cp1252"),
        ("£12.50 Tesco", "cp1252"),
        ("Kołłątaja;Częstochowa;Łódź", "cp1250"),
        ("Jelínková Kříž;Piešťany", "cp1250"),  # Latin words in high bytes, not Cyrillic
        ("Zagreb Đakovo;Ljubljana Šiška", "cp1250"),
        ("Constanţa Oprea;Brăila", "cp1250"),
        ("Öğr. Oğuzman Akça;Ağrı", "cp1254"),
        # East Asian double-byte code pages: Japanese banks write Shift_JIS, with half-width kana too
        ("日付,摘要,支払い金額,差引残高\n2024/1/5,カード ＡＭＡＺＯＮ,3500,120000\n2024/1/10,振込手数料,220,119780", "cp932"),
        ("取引日,入出金(円),残高(円),入出金先内容\n20250303,-5780,124220,ﾄｳｷﾖｳﾃﾞﾝﾘﾖｸ", "cp932"),
        ("交易日期,交易摘要,支出金额\n2024-01-05,支付宝消费,35.00\n2024-01-06,微信转账,500.00", "gb18030"),
        ("交易日期,摘要,支出金額,餘額\n2024/01/05,信用卡消費,350,12000", "big5"),
        ("거래일시,적요,출금액,잔액\n2024.01.05,체크카드 스타벅스,4500,120000", "cp949"),
        # ... but not Latin text whose accents a double-byte code page would also read
        ("Überweisung Müller;Gebühr für Straße;Äpfel Öl", "cp1252"),
        ("ÉLÉGANCE PARIS;ÀÉÈÙ", "cp1252"),
        # Excel for Mac's "CSV (Macintosh)" writes Mac Roman: cp1252 read `Brštchen`, `CafŽ`, `Pi–ata`
        ("Datum;Empfänger;Verwendungszweck\nBäckerei Müller;Brötchen\nJürgen Köhler;Überweisung Miete", "mac_roman"),
        ("Café Renée;Crème brûlée shop;Piñata Señor", "mac_roman"),
        ("Libellé;Loyer Mme Lefèvre;Boulangerie Crème Brûlée;Total Énergies", "mac_roman"),
        ("Beløp;Kjøp på Rimi Bærum;Dæmning Øst", "mac_roman"),
        # ... but Windows typography, whose bytes are Mac Roman's accented letters, stays cp1252
        ("Don’t “Quoted” – O’Brien’s Café", "cp1252"),
        ("Preis–Leistung;Straße „Am Markt“;Miete…;• Größe", "cp1252"),
        ("Crêperie Sœur Anaïs — Brand™", "cp1252"),
    ],
)
def test_legacy_code_page_choice(text: str, encoding: str) -> None:
    assert decode(text.encode(encoding), "x") == text


@pytest.mark.parametrize(("name", "header"), [("macroman_de.csv", "Datum;Empfänger;"), ("macroman_us.csv", "Date,Description")])
def test_mac_roman_files(name: str, header: str) -> None:
    """Excel for Mac's "CSV (Macintosh)": read as cp1252, `Empfänger` was `EmpfŠnger` and lost its column."""
    data = (FIXTURES / "written" / name).read_bytes()
    text = decode(data, name)
    assert text == data.decode("mac_roman") and text.startswith(header)


def test_german_latin1_file() -> None:
    assert decode((FIXTURES / "csv2ofx/gls.csv").read_bytes(), "x").startswith("Kontonummer;Buchungstag;Wertstellung;Auftraggeber/Empfänger")


def test_cr_only_file_keeps_its_line_count() -> None:
    text = decode((FIXTURES / "csv2ofx/mint_extra.csv").read_bytes(), "x")
    assert text.startswith("\n\n\nDate,Description")
    assert "\r" not in text


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"PK\x03\x04rest-of-zip", "ZIP"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "Excel"),
        (b"%PDF-1.7\n", "PDF"),
        (b"abc\x00\x00\x01\x02\x00xyz\x00", "NUL"),
        (bytes(range(1, 32)) * 40, "control characters"),
    ],
)
def test_binary_junk_is_refused(data: bytes, words: str) -> None:
    with pytest.raises(ImportRefused, match=words):
        decode(data, "junk.csv")


def test_utf8_lines_in_a_legacy_file_stay_utf8() -> None:
    joined = "Date,Description,Amount\n2025-01-03,CAFÉ ONE,-4.50\n".encode() + "2025-01-04,CAFÉ TWO,-5.00\n".encode("cp1252")
    assert decode(joined, "joined.csv").splitlines()[1:] == ["2025-01-03,CAFÉ ONE,-4.50", "2025-01-04,CAFÉ TWO,-5.00"]


def test_exports_joined_with_cat_keep_each_lines_own_encoding_and_lose_their_boms() -> None:
    """The legacy lines' code page is judged by them alone (UTF-8 bytes read as cp1252 tilted a
    French line to cp1250); a UTF-8 BOM over legacy lines, and the second file's BOM, are no text."""
    utf8 = "Date,Description,Amount\n2025-03-01,Café Müller,-4.50\n".encode()
    french = "2025-03-02,Crêperie Sœur Anaïs,-12.00\n".encode("cp1252")
    assert decode(utf8 + french, "x").splitlines()[2] == "2025-03-02,Crêperie Sœur Anaïs,-12.00"
    assert decode(codecs.BOM_UTF8 + utf8 + french, "x").splitlines()[1:] == [
        "2025-03-01,Café Müller,-4.50", "2025-03-02,Crêperie Sœur Anaïs,-12.00",
    ]
    assert decode(codecs.BOM_UTF8 + utf8 + codecs.BOM_UTF8 + utf8, "x").splitlines()[2] == "Date,Description,Amount"


def test_nul_padding_is_dropped_and_a_nul_inside_is_refused_with_its_line() -> None:
    assert decode(b"Date,Description,Amount\n2025-01-03,COFFEE,-4.50\n" + b"\x00" * 300, "padded.csv").endswith("-4.50\n")
    with pytest.raises(ImportRefused, match="line 2 holds a NUL byte"):
        decode(b"Date,Description,Amount\n2025-01-03,CO\x00FFEE,-4.50\n", "damaged.csv")


_DATA = {".csv", ".qif", ".ofx", ".qfx", ".txt"}


@pytest.mark.parametrize("encoding", ["cp1252", "cp1250"])
def test_utf8_fixtures_written_in_a_legacy_code_page_read_back(encoding: str) -> None:
    """Each accented UTF-8 fixture, its lines that `encoding` can write saved in it, decodes back."""
    wrong = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.suffix.lower() not in _DATA:
            continue
        try:
            text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
        except UnicodeDecodeError:
            continue
        lines = []
        for line in text.split("\n"):
            try:
                line.encode(encoding)
            except UnicodeEncodeError:
                continue
            lines.append(line)
        written = "\n".join(lines)
        if written.isascii():
            continue
        if decode(written.encode(encoding), path.name) != written:
            wrong.append(path.name)
    assert not wrong


def test_italian_and_french_words_ending_in_an_accent_stay_western() -> None:
    """Word lists hold few of them, running text many: read as cp1250 they ended in `č` and `ů`."""
    for text in ("PAGAMENTO POS CAFFÈ PIÙ MILANO", "BONIFICO CONDOMINIO VIA SANTÈ", "NICOLÒ SOCIETÀ", "Crêperie Où"):
        assert decode(text.encode("cp1252"), "x.csv") == text


def test_a_long_run_of_letters_in_a_legacy_file_is_read_in_linear_time() -> None:
    """Finding the accented words took a regex that was quadratic on a run of plain letters: a
    60 KB cp1252 file of one accented word and 60,000 `A`s took half a minute to be refused."""
    data = ("Date,Description,Amount\n2025-01-02,Caf\u00e9 " + "A" * 200_000 + ",-1.00\n").encode("cp1252")
    started = time.perf_counter()
    assert decode(data, "long.csv").startswith("Date,Description")
    assert time.perf_counter() - started < 5
