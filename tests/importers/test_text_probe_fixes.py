"""Short legacy files whose code page the letter pairs alone misjudged: French and Portuguese in
cp1252 read as cp1250 (`Lefčvre`, `Brűlée`, `COMISSŐES`), Turkish read as cp1252 (`Doðan`)."""

from __future__ import annotations

import pytest

from wilson.importers.text import decode


@pytest.mark.parametrize(
    "text",
    [
        # a three-row export: `è` was read as `č` and `û` as `ű`, with no warning
        "Date;Libellé;Montant\n02/03/2024;Loyer Mme Lefèvre;-1234,56\n14/03/2024;Boulangerie Crème Brûlée;-8,50\n15/03/2024;Total Énergies;-60,00\n",
        # Société Générale's layout
        '="00012345678";Compte Bancaire;01/04/2024;\n\n'
        "Date de l'opération;Libellé;Détail de l'écriture;Montant de l'opération;Devise\n"
        "05/03/2024;Loyer Mme Lefèvre;CARTE X1234 Loyer Mme Lefèvre;-1234,56;EUR\n"
        "14/03/2024;Boulangerie Crème Brûlée;CARTE X1234 Boulangerie Crème Brûlée;-87,30;EUR\n",
        # La Banque Postale's layout
        "Numéro Compte   ;0123456A020\nType ;CCP\nCompte tenu en  ;euros\n\nDate;Libellé;Montant(EUROS);Montant(FRANCS)\n"
        "05/03/2024;ACHAT CB Loyer Mme Lefèvre;-1234,56;-8098,18\n14/03/2024;ACHAT CB Boulangerie Crème Brûlée;-87,30;-572,65\n",
        "Date;Libellé;Montant\n02/03/2024;Loyer Mme Lefèvre;-1234,56\n14/03/2024;Crème brûlée à emporter;-8,50\n",
        "Date;Description;Amount\n01.01.2024;Brûlerie Vénus;-10,50\n",
        "Date;Description;Amount\n01.01.2024;CB BRÛLERIE SAINT-ÉTIENNE;-10,50\n",
        "Frais de tenue de compte;Maître Gérôme Huissier;Hôtel Château Lévêque",
        # Portuguese: `õ` is `ő` in cp1250
        "Date;Description;Amount\n01.01.2024;LEVANTAMENTO MB LISBOA;-10,50\n02.01.2024;IMPOSTO DO SELO SOBRE COMISSÕES;-11,50\n",
        "Limões e Melões Lda",
        "Juros e comissões",
        # Italian words ending in an accent
        "Lunedì;Pizzeria Perù",
        "Où",
    ],
)
def test_western_text_stays_cp1252(text: str) -> None:
    assert decode(text.encode("cp1252"), "x.csv") == text


@pytest.mark.parametrize(
    "text",
    [
        "Částka",
        "Převod",
        "Poplatek za vedení účtu",
        "Datum;Popis;Částka;Měna\n02.03.2024;Převod na účet;-1234,56;CZK\n",
        "Átutalás;Győr",
        "Díj;Számlavezetési díj;Műszaki bolt",
        "Opłata",
        "Opłata za prowadzenie rachunku",
        "Platba kartou;Poplatok za vedenie účtu",
        "Danijel Burčul;Zagreb Đakovo",
        "Luiza Nemeş",  # Romanian `ş` is `º` in cp1252: an ordinal indicator after a vowel ends no abbreviation
    ],
)
def test_central_european_text_stays_cp1250(text: str) -> None:
    assert decode(text.encode("cp1250"), "x.csv") == text


@pytest.mark.parametrize(
    "text",
    [
        "Date;Description;Amount\n01.01.2024;Doğan Büfe;-10,50\n",  # `ğ` is Icelandic `ð` in cp1252
        "Datum;Beschreibung;Betrag\n01.01.2024;Çiğköfteci;-10,50\n",
        "Hesap İşletim Ücreti;Kira Ödemesi",
        "Erdoğan Zorlu Ltd.",
    ],
)
def test_turkish_text_stays_cp1254(text: str) -> None:
    assert decode(text.encode("cp1254"), "x.csv") == text


def test_an_accented_line_after_long_ascii_lines() -> None:
    """Only accented lines are sampled, each found from its start (a long ASCII line is read once)."""
    text = ("2024-03-02;" + "CARTE X1234 NETFLIX " * 100 + ";-4,50\n") * 300 + "2024-03-03;Loyer Mme Lefèvre;-1234,56\n"
    assert decode(text.encode("cp1252"), "x.csv") == text
