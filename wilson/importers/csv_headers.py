"""Header names per role in the languages bank exports are written in, and the currency a header
or a money cell states: what the generic CSV mapper (and the cell-reading format) recognise.

Names are compared normalised: lower case, no accents, no parentheses, punctuation as single
spaces, so `Buchungstag`, `BUCHUNGSTAG` and `Buchungs-Tag` are one key.
"""

from __future__ import annotations

import re
import unicodedata

# Header names per role, normalised (lower case, no accents, punctuation as single spaces).
# Within "date" the number is a preference: the booking date beats the transaction date beats
# the value date, because the booking date is what a statement and an OFX file call "posted".
_ENGLISH: dict[str, tuple[str, ...]] = {
    "date:0": (
        "posting date", "posted date", "post date", "booking date", "date processed", "completed date", "date posted",
        "date completed", "run date", "settled date", "posted transactions date", "datum des abschlusses",
        "date of receipt",  # Deutsche Bank's card statement, beside its `Voucher date`
    ),
    "date:1": (
        "date", "transaction date", "trans date", "started date", "operation date", "created", "created at", "date created",
        "created date", "created utc", "datetime", "date time", "settle date", "settlement date",
        "date started", "release date", "tran date", "txn date", "startdatum", "voucher date", "timestamp",
        "completion time",  # M-Pesa's statement
    ),
    "date:2": ("value date", "valuedate", "value dat", "value dt"),
    "date:3": ("time",),  # Up: `Time` holds the date and time of the purchase; elsewhere a time beside a date
    "payee": (
        "payee", "beneficiary", "payee name", "payer name", "merchant", "merchant name", "counterparty", "counter party",
        "counterparty name", "counteraccount name", "name", "from", "to", "name of sender receiver", "partner name",
        "other party", "beneficiary originator", "originator", "payer payee", "beneficiary payer",  # Deutsche Bank: `Beneficiary / Originator`
        "beneficiary s name", "beneficiary name",  # SEB's `"Beneficiary's name"`
    ),
    "text": (
        "description", "details", "memo", "narrative", "particulars", "transaction details",
        "transaction description", "purpose", "extended details", "payment reference",
        "message for payee", "memo description", "avisierungstext", "title", "text", "narration", "sub description",
        "action", "message", "transaction remarks", "remarks", "comment", "source destination",
        "transactions",  # Nationwide's older current account and its credit card
        "transaction",  # Standard Chartered India
        "reason for payment",
        "notification text",  # PostFinance
        "transaction info",
        "booking text", "payment purpose",  # Zürcher Kantonalbank
    ),
    "original": ("original description", "original statement", "statement description"),  # beside a bank's cleaned name
    "amount": (
        "amount", "transaction amount", "amt", "value", "net", "net amount", "txn amount", "transaction net amount",
        "total",  # with a currency only (`_IN_A_CURRENCY`): Up's `Total (AUD)` is what left the account
        "total amount",  # Qonto's `Total amount (incl. VAT)`
        "billing amount",  # Virgin Money's and Vancity's cards: in the card's currency, beside a `Transaction Currency`
    ),
    "amount:1": ("gross", "subtotal"),  # PayPal: `Net` is what moved (`Gross` before the fee)
    "fee": ("fee", "fees", "transaction fee", "fee amount"),
    "debit": ("debit", "debits", "debit amount", "withdrawal", "withdrawals", "withdrawal amount", "withdrawn", "paid out", "money out", "outflow", "charge",
              "withdrawal amt", "dr", "out"),
    "credit": ("credit", "credits", "credit amount", "deposit", "deposits", "deposit amount", "paid in", "money in", "inflow", "payment",
               "deposit amt", "cr", "in"),
    "direction": (
        "d k", "d c", "dr cr", "cr dr", "debit credit", "credit debit", "c d", "credit debit indicator",
        "debit credit indicator", "dr cr indicator", "cr dr indicator", "debit or credit", "credit or debit", "direction",
        "billingamountsign", "debit credit flag",  # Tesco Bank's card
    ),
    "balance": (
        "balance", "running bal", "running balance", "runningbalance", "closing balance", "partial balance", "bal", "ending balance",
        "current balance", "daily posted balance", "statement balance",
    ),
    "account_type": ("account type",),  # RBC's `Chequing`/`Visa`, Rocket Money's `Credit Card`: see `type_named`
    "currency": ("currency", "ccy", "currency code", "txn currency", "payment currency", "posted currency"),
    "account:0": ("account name",),
    "account:1": ("account", "account no", "account number", "posted account", "bank account"),  # Westpac's `Bank Account`
    "account:2": ("source account",),  # Mercury's `Mercury Checking ••1234`: below an `Account` column where a file has both
    "bank_id": ("reference", "reference number", "reference no", "transaction id", "transaction reference", "id", "fitid"),
    "category": ("category",),
    "subcategory": ("subcategory", "sub category"),
    "funding": ("funding source",),  # Venmo: the balance, or the card or bank account that paid
    "status": ("status", "state"),
    "impact": ("balance impact",),  # PayPal's `Debit`, `Credit` or `Memo`: see `csv_generic._statuses`
    "notes": ("notes", "note"),
    "kind": ("type", "transaction type", "type of transaction", "activity", "transaction kind"),
    "original_amount": (
        "original amount", "foreign amount", "amount in original currency", "local amount", "orig amount",
        "local currency amount", "foreigncurrencyamount",  # ANZ NZ's `EUR 135.00`
        "exchange to amount",  # Wise's statement: what a card payment abroad or a conversion came to, in `Exchange To`
    ),
    "original_currency": (
        "original currency", "foreign currency", "local currency", "orig currency",
        "type foreign currency",  # N26 before 2024, beside `Amount (Foreign Currency)`
        "transaction currency",  # Virgin Money's card, beside its `Billing Amount`
        "exchange to",  # Wise's statement, beside its `Exchange To Amount`
    ),
}
_OTHER: dict[str, tuple[str, ...]] = {
    "date:0": ("buchungstag", "buchungsdatum", "datum zauctovani", "boekingsdatum", "date comptable", "date de comptabilisation", "data di registrazione", "fecha contable", "datum verrekening",
               "data contabile", "bokforingsdatum", "bokforingsdag", "bogforingsdato", "reskontradatum", "kirjauspaiva",
               "data lancamento", "data ksiegowania", "date d execution", "konyveles datuma", "boekdatum", "data rozliczenia",
               "data registrazione", "data contabilizzazione", "data mov", "data movimento",
               "buchung"),  # ING Germany's, beside `Valuta`
    "date:1": ("datum", "tranzakcio datuma", "datum provedeni", "datum splatnosti", "transaktionsdatum", "belegdatum", "date operation", "date de l operation", "fecha", "data",
               "dato", "datum verrichting", "data operacji", "data transakcji", "transaktionsdag", "datum der transaktion", "fecha operacion",
               "transactiedatum", "abschlussdatum", "data operazione", "tarih", "islem tarihi"),
    "date:2": (
        "valuta", "valutadatum", "wertstellung", "wertstellungsdatum", "date de valeur", "erteknap", "rentedatum", "valutadag",
        "fecha valor", "data valuta", "data waluty", "data valor", "rentedato",
    ),
    "payee": (
        "empfanger", "empfaenger", "zahlungsempfanger", "zahlungsempfaenger", "auftraggeber empfanger",
        "auftraggeber empfaenger", "auftraggeber begunstigter", "auftraggeber beguenstigter", "begunstigter auftraggeber", "empfanger auftraggeber",
        "empfaenger auftraggeber", "beguenstigter zahlungspflichtiger", "begunstigter zahlungspflichtiger",
        "name zahlungsbeteiligter", "auftraggeber", "naam tegenpartij", "naam van de tegenpartij", "tegenpartij", "partner neve",
        "nazev protiuctu", "beneficiaire", "tiers", "handelaar", "commercant", "naam omschrijving", "nom de la contrepartie",
        "naam tegenpartij bevat", "dane kontrahenta", "maksaja", "maksunsaaja", "saajan nimi", "nimi", "afsender", "modtager", "navn",
        "tegenrekeninghouder", "odbiorca zleceniodawca", "saaja maksaja", "auftraggeber zahlungsempfanger", "empfanger zahlungspflichtiger",
        "zahlungspflichtige r", "zahlungsempfanger in", "partnername", "nombre", "nome",
        "gegenkonto inhaber", "sender empfanger", "nadawca odbiorca", "mottagare avsandare", "mottagare", "nazwa nadawcy",
        "nazwa odbiorcy", "nazev protistrany",
        "auftraggebername", "empfangername", "empfaengername",  # Oberbank
    ),
    "text": (
        "verwendungszweck", "beschreibung", "omschrijving", "vrije mededeling", "mededelingen", "libelle",
        "libelle operation", "zprava", "reszletek", "kozlemeny", "descripcion", "concepto", "descrizione", "causale",
        "toelichting", "zahlungsreferenz", "tekst", "rubrik", "buchungsdetails", "text mottagare", "libelles",
        "details du mouvement", "detail de l ecriture", "transactie", "communication", "descricao", "opis operacji", "tytul",
        "zprava pro prijemce", "otsikko", "beskrivelse", "poznamka", "beskrivning", "opis transakcji", "opis", "popis",
        "vorgang verwendungszweck", "detalle", "lancamento", "historico", "viesti", "aciklama", "mededeling", "transaktionsbeschreibung",
        "descrizione operazioni", "descrizione completa", "transaktion", "tytulem", "meddelande", "forklaring",
        "szczegoly transakcji", "movimiento", "descrizione estesa", "popis prikazce", "popis pro prijemce",
        "texte de notification", "testo di avviso",  # PostFinance in French and Italian
        "concepto referencia", "detalle del movimiento",
        "umsatztext",  # Livebank
    ),
    "amount": ("betrag", "buchungsbetrag", "bedrag", "montant", "importe", "importo", "belopp", "summe", "summa", "umsatz", "zauctovana castka", "tranzakcio osszege", "castka", "kwota",
               "belob", "belop", "objem", "maara", "maara euroa", "montant de l operation", "montante", "kwota transakcji",
               "osszeg", "netto", "valor", "neto", "liquido", "tutar", "islem tutari", "kwota w walucie rachunku", "castka v mene uctu"),
    "amount:1": ("brutto", "bruto", "kwota operacji"),  # PayPal: the net is what moved; Alior: the account's amount beside
    "fee": ("gebuhr", "comision", "tarifa", "poplatek v mene uctu"),
    "debit": (
        "soll", "belastung", "ausgang", "ausgabe", "debet", "af", "sortie", "betrag soll", "ausgehend", "betrag ausgehend",
        "rechnungsbetrag ausgehend", "addebiti", "addebito", "uscite", "cargo", "cargos", "lastschrift", "ut", "obciazenia", "debito", "retiros",
        "retiro", "uttak", "ut fra konto", "uttak fra konto",  # DNB's `Uttak fra konto`
        "saida",  # C6 Bank's `Saída(R$)`
    ),
    "credit": (
        "haben", "gutschrift", "eingang", "einnahme", "bij", "entree", "betrag haben", "credito", "eingehend",
        "betrag eingehend", "rechnungsbetrag eingehend", "accrediti", "accredito", "entrate", "abono", "abonos", "inn", "uznania", "depositos",
        "deposito", "innskudd", "inn pa konto", "innskudd pa konto", "entrada",
    ),
    "direction": ("soll haben", "s h", "bevetel kiadas", "af bij", "debet credit", "creditdebet", "credit debet"),
    "balance": (
        "saldo", "kontostand", "solde", "egyenleg", "saldo nach buchung", "verfugbares guthaben", "saldo po operacji", "saldo do dia",
        "saldo po transakcji", "bokfort saldo", "guthaben", "saldos", "bakiye", "saldo na trn", "saldo contabilistico", "disponible",
        "saldo na mutatie",  # ING Netherlands
    ),
    "currency": (
        "waehrung", "wahrung", "munt", "zahlungswahrung", "monn", "devise", "mena uctu", "mena", "tranzakcio devizaneme",
        "devizanem", "divisa", "devise du compte", "devies", "waluta", "valuutta", "valutacode", "para birimi", "buchungswahrung",
        "waluta rachunku", "penznem", "valuta rekening",
    ),
    "currency:1": ("waluta operacji",),
    "account:-1": ("auftragskonto", "iban auftragskonto"),  # Sparkasse's; Volksbank's beside its `Bezeichnung Auftragskonto`
    "account_type": ("bezeichnung auftragskonto",),  # Volksbank's `Girokonto`, `Tagesgeld`: see `type_named`
    "account:0": ("kontoname",),
    "account:1": ("konto", "rekening", "rekeningnummer", "produit", "cislo uctu", "szamlaszam", "numero de compte", "rachunek"),
    "account:2": ("kontonummer",),
    "bank_id": (
        "id transakce", "n de transaction", "transaktions id", "transaktionsreferenz", "referenz", "transaktionscode",
        "arkistointitunnus",  # Finnish banks' archive id
        "identifikace transakce",
    ),
    "category": ("kategorie", "categorie", "categoria", "kategoria"),
    "subcategory": ("unterkategorie", "sous categorie"),
    "status": ("info", "buchungsstatus", "statut", "etat", "estado", "situacao", "stato"),  # `État`: PayPal in French
    "notes": ("notiz", "bemerkung"),
    "hold": ("kwota blokady zwolnienie blokady",),  # ING PL: a card hold, with no amount booked yet
    "detail": ("einzelbetrag",),  # UBS: a collective order's single payments, under the row that books their total
    "planned": ("umsatz geplant",),  # Consorsbank: `Ja` on a payment scheduled for a later day
    "impact": ("auswirkung auf guthaben", "impact sur le solde"),  # PayPal's `Balance Impact` in German and French
    "kind": (
        "transaktionstyp", "buchungstext", "mutatiesoort", "typ transakce", "tranzakcio tipusa", "umsatzart", "vorgang",
        "type d operation", "type de transaction", "tipo", "typ", "szczegoly", "typ transakcji", "rodzaj transakcji",
        "typ operacji", "tapahtumalaji", "systemovy popis",
    ),
    "original_amount": (
        "originalbetrag", "ursprunglicher betrag", "betrag in fremdwahrung", "fremdwahrungsbetrag",
        "puvodni castka a mena", "montant en devise", "oorspr bedrag", "oorspronkelijk bedrag", "originalni castka",
        "puvodni castka uhrady",  # Air Bank
    ),
    "original_currency": ("originalwahrung", "originalwaehrung", "fremdwahrung", "oorspr munt", "originalni mena", "puvodni mena uhrady"),
}
# Russian and Ukrainian (written as `normalise_header` leaves them: `й` as `и`, `ї` as `і`).
_CYRILLIC: dict[str, tuple[str, ...]] = {
    "date:0": ("дата платежа", "дата проводки", "дата обработки", "дата списания"),
    "date:1": ("дата операции", "дата", "дата транзакции", "дата i час операціі", "дата і час операціі", "дата операціі"),
    "amount": ("сумма платежа", "сумма", "сума", "сума в валюті картки", "сумма в валюте счета", "сумма пересчитанная в валюту счета"),
    "original_amount": ("сумма операции", "сума в валюті операціі", "сумма в валюте операции"),
    "original_currency": ("валюта операции", "валюта операціі"),
    "currency": ("валюта платежа", "валюта", "валюта счета", "валюта картки"),
    "text": ("описание", "описание операции", "опис операціі", "назначение платежа", "детали операции", "деталі операціі", "призначення платежу", "опис",
             "основание"),  # VTB
    "payee": ("получатель", "контрагент", "отримувач"),
    "debit": ("расход", "списание", "дебет", "видаток"),
    "credit": ("приход", "поступление", "зачисление", "кредит", "надходження"),
    "balance": ("остаток", "баланс", "залишок після операціі", "остаток после операции", "залишок"),
    "category": ("категория", "категорія"),
    "status": ("статус",),
}
# Greek (Alpha Bank, Piraeus, Eurobank), written as `normalise_header` leaves them (no accents).
_GREEK: dict[str, tuple[str, ...]] = {
    "date:1": ("ημερομηνια", "ημερομηνια συναλλαγης"),
    "date:2": ("ημερομηνια αξιας",),
    "text": ("αιτιολογια", "περιγραφη", "περιγραφη συναλλαγης"),
    "amount": ("ποσο", "ποσο συναλλαγης"),
    "direction": ("χ π", "χρεωση πιστωση"),
    "balance": ("υπολοιπο", "λογιστικο υπολοιπο"),
}
# Hebrew (Bank Hapoalim, Leumi, Discount); the money columns are in shekels.
_HEBREW: dict[str, tuple[str, ...]] = {
    "date:1": ("תאריך", "תאריך פעולה", "תאריך העסקה"),
    "date:2": ("תאריך ערך",),
    "kind": ("הפעולה", "סוג פעולה", "תיאור הפעולה"),
    "text": ("פרטים", "תיאור", "שם בית העסק"),
    "bank_id": ("אסמכתא",),
    "amount": ("סכום", "סכום חיוב", "סכום בש ח"),
    "debit": ("חובה",),
    "credit": ("זכות",),
    "balance": ("יתרה", "יתרה בש ח", "יתרה בשח"),
}
# Japanese (Rakuten, MUFG, SMBC, Mizuho, card statements), written as they are: `_build_lookup`
# normalises them (`ご` loses its mark like any accent).
_JAPANESE: dict[str, tuple[str, ...]] = {
    "date:1": ("取引日", "お取引日", "日付", "年月日", "利用日", "ご利用日"),
    "amount": ("入出金", "金額", "取引金額", "利用金額", "ご利用金額"),
    "debit": ("出金", "出金金額", "支払い金額", "お引出し", "お引出金額", "引出額"),
    "credit": ("入金", "入金金額", "預かり金額", "お預入れ", "お預入金額", "預入額"),
    "balance": ("残高", "差引残高", "取引後残高"),
    "text": ("入出金先内容", "入出金内容", "摘要", "摘要内容", "内容", "取引内容", "お取引内容", "お取り扱い内容", "利用店名・商品名", "ご利用店名"),
    "notes": ("メモ",),
}
# Chinese, simplified and traditional (ICBC, CCB, China Merchants Bank, Alipay; Taiwan's and Hong
# Kong's banks), and Korean (KB, Shinhan, Woori, KakaoBank). Dates are year first in both.
_CHINESE: dict[str, tuple[str, ...]] = {
    "date:1": ("交易日期", "交易时间", "交易時間", "记账日期", "記帳日期", "入账日期", "入帳日期", "日期", "交易创建时间"),
    "amount": ("交易金额", "交易金額", "金额", "发生额", "發生額"),
    "debit": ("支出金额", "支出金額", "支出", "借方发生额", "借方金额", "借方金額", "转出金额", "提款", "提款金額"),
    "credit": ("存入金额", "存入金額", "收入金额", "收入金額", "收入", "贷方发生额", "贷方金额", "貸方金額", "转入金额", "存款", "存款金額"),
    "balance": ("余额", "餘額", "账户余额", "帳戶餘額", "联机余额", "可用余额", "結餘"),
    "text": ("交易摘要", "交易说明", "交易說明", "用途", "附言", "商品说明", "商品名称", "備註", "备注", "说明", "交易备注"),
    "payee": ("对方户名", "對方戶名", "对方账户名称", "交易对方", "对方名称", "對方名稱"),
    "kind": ("交易类型", "交易類型", "交易类别"),
    "status": ("交易状态", "交易狀態", "当前状态"),
    "bank_id": ("交易号", "交易单号", "交易流水号"),
    "direction": ("收 支", "收支"),
}
_KOREAN: dict[str, tuple[str, ...]] = {
    "date:1": ("거래일시", "거래일자", "거래일", "일자", "거래 일시"),
    "amount": ("거래금액", "금액"),
    "debit": ("출금액", "출금", "출금금액", "찾으신금액"),
    "credit": ("입금액", "입금", "입금금액", "맡기신금액"),
    "balance": ("잔액", "거래후잔액", "거래후 잔액", "잔고"),
    "text": ("적요", "내용", "거래내용", "기재내용", "메모"),
    "payee": ("받는분", "보낸분 받는분", "거래처"),
    "kind": ("거래구분", "구분"),
}
_PATTERNS = (
    (re.compile(r"(vwz|verwendungszweck|description|transaction ref|details|memo|omschrijving|beschreibung|item) ?\d{1,2}"), "text"),
    (re.compile(r"(empfaenger|empfanger|auftraggeber|beguenstigter|begunstigter) ?\d"), "payee"),  # HypoVereinsbank's `Empfaenger 1`
)
_CURRENCY_IN_TEXT = re.compile(r"(?<![A-Z])([A-Z]{3})(?![A-Z])")
# Symbols a money cell may carry (a bare `$` names no one currency); prefixed dollars before others.
_SYMBOL_CURRENCY = (
    # the longer names first: `CA$` holds `A$`
    ("US$", "USD"), ("CA$", "CAD"), ("AU$", "AUD"), ("MX$", "MXN"), ("NT$", "TWD"), ("R$", "BRL"), ("NZ$", "NZD"), ("A$", "AUD"),
    ("C$", "CAD"), ("HK$", "HKD"), ("S$", "SGD"), ("€", "EUR"),
    ("£", "GBP"), ("¥", "JPY"), ("₹", "INR"), ("₩", "KRW"), ("₺", "TRY"), ("zł", "PLN"), ("Kč", "CZK"),
    ("₪", "ILS"), ("₱", "PHP"), ("฿", "THB"), ("₫", "VND"), ("₦", "NGN"), ("RM", "MYR"), ("Rs", "INR"),
    ("円", "JPY"),  # Rakuten's `入出金(円)`
    ("د.ا", "JOD"), ("د.إ", "AED"), ("د.ك", "KWD"), ("د.ب", "BHD"), ("ر.س", "SAR"), ("ر.ق", "QAR"), ("ر.ع", "OMR"), ("ج.م", "EGP"),
    ("元", "CNY"),  # `金额(元)`
)
_PARENTHETICAL = re.compile(r"[(（]([^)）]*)[)）]")  # Japanese headers write full-width ones: `残高（円）`
_CODE_SUFFIX = re.compile(r"(.+?) (?:in |en )?([a-z]{3}|euros?)")
_CURRENCY_CODES = frozenset(  # the ISO 4217 codes bank exports commonly carry
    "AED ARS AUD BGN BHD BRL CAD CHF CLP CNY COP CZK DKK EGP EUR GBP HKD HUF IDR ILS INR ISK JOD JPY KES KRW KWD "
    "MAD MXN MYR NGN NOK NZD OMR PEN PHP PKR PLN QAR RON RSD SAR SEK SGD THB TND TRY TWD UAH USD VND ZAR".split()
)
# An amount column named in a language spoken where one currency is used (Danish `Beløb`).
_LANGUAGE_CURRENCY = {
    "belob": "DKK", "belop": "NOK", "uttak": "NOK", "innskudd": "NOK", "ut fra konto": "NOK", "inn pa konto": "NOK",
    "uttak fra konto": "NOK", "innskudd pa konto": "NOK", "belopp": "SEK", "kwota": "PLN", "castka": "CZK",
    "zauctovana castka": "CZK",
    # Japanese words Chinese does not write (`金額` it does): yen
    **dict.fromkeys(("入出金", "残高", "差引残高", "取引後残高", "支払い金額", "預かり金額", "お引出し", "お預入れ", "利用金額"), "JPY"),
    **dict.fromkeys((  # simplified Chinese (`额`, `账`, `转`, `贷`): yuan
        "交易金额", "金额", "发生额", "支出金额", "借方发生额", "借方金额", "转出金额", "存入金额", "收入金额", "贷方发生额",
        "贷方金额", "转入金额", "余额", "账户余额", "联机余额", "可用余额",
    ), "CNY"),
    **dict.fromkeys(("סכום", "סכום חיוב", "סכום בש ח", "חובה", "זכות", "יתרה", "יתרה בש ח", "יתרה בשח"), "ILS"),  # Hebrew: shekels
}
MONEY_ROLES = ("amount", "debit", "credit", "balance", "fee", "original_amount", "amount_alt", "hold")
_CODED_AMOUNT = re.compile(r"([A-Z]{3})\$")  # RBC's `CAD$` and `USD$` columns: amounts in that currency


_WHOLE_LETTERS = str.maketrans({"ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "ı": "i", "đ": "d"})  # letters NFKD keeps whole


def normalise_header(name: str) -> str:
    """Lower case, no accents, no parentheses, punctuation as single spaces: one key per spelling.
    Letters of other scripts stay (`Дата операции`), their marks go (`й` is `и`, `ї` is `і`). A
    name that is all parenthesis (SEB's `(D/C)`) is its inside."""
    name = name.lower().translate(_WHOLE_LETTERS)
    bare = _PARENTHETICAL.sub(" ", name)
    text = unicodedata.normalize("NFKD", bare if bare.strip() else name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[\W_]+", " ", text).split())


def _build_lookup() -> dict[str, tuple[str, int, bool]]:
    lookup: dict[str, tuple[str, int, bool]] = {}
    for european, table in ((False, _ENGLISH), (True, _OTHER), (True, _CYRILLIC), (True, _GREEK), (False, _HEBREW), (False, _JAPANESE), (False, _CHINESE),
                            (False, _KOREAN)):
        for key, names in table.items():
            role, _, prio = key.partition(":")
            for name in names:
                lookup.setdefault(normalise_header(name), (role, int(prio or 0), european))
    return lookup


_LOOKUP = _build_lookup()


def classify(header: str) -> tuple[str, int, bool] | None:
    """(role, preference, is-European) for a header name, or None when it means nothing to us."""
    coded = _CODED_AMOUNT.fullmatch(header.strip())
    if coded and currency_code(coded[1]):
        return "amount", 0, False
    key = normalise_header(header)
    hit = _LOOKUP.get(key)
    if key in _IN_A_CURRENCY and not any(_names_currency(inner) for inner in _PARENTHETICAL.findall(header)):
        return None  # an order history's `total` is no bank's amount
    if hit is not None and hit[0] in ("amount", "currency"):
        for inner in map(normalise_header, _PARENTHETICAL.findall(header)):
            side = _LOOKUP.get(inner)
            if hit[0] == "amount" and side and side[0] in ("debit", "credit"):
                return side  # Kiwibank's `Amount (credit)` beside `Amount`
            if "foreign" in inner.split() or inner == "transaction currency":
                # Curve's `Txn Amount (Foreign Spend)` beside the card's; Up's `Subtotal (Transaction Currency)`
                return "original_" + hit[0], hit[1], hit[2]
    if hit is None:
        for pattern, role in _PATTERNS:
            if pattern.fullmatch(key):
                return role, 0, key.startswith(("vwz", "verwendungszweck"))
        coded = _CODE_SUFFIX.fullmatch(key)
        if coded and currency_code(coded[2]):  # `Amount CZK`, `Bedrag in EUR`
            hit = _LOOKUP.get(coded[1])
            return hit if hit and hit[0] in MONEY_ROLES else None
    return hit


def currency_code(text: str) -> str | None:
    """`eur` → `EUR` when the text is a common ISO 4217 code (or says euros)."""
    code = text.strip().upper()
    return _CURRENCY_NAMES.get(code) or (code if code in _CURRENCY_CODES else None)


_CURRENCY_NAMES = {"EURO": "EUR", "EUROS": "EUR", "TL": "TRY"}  # `Para Birimi;TL`: Turkish lira


def cell_currency(text: str) -> str | None:
    """The currency a money cell writes beside its number: a code (`-4.50 AUD`) or a symbol (`₹`, `R$`)."""
    for code in _CURRENCY_IN_TEXT.findall(text.upper()):
        if code in _CURRENCY_CODES:
            return code
    return next((code for symbol, code in _SYMBOL_CURRENCY if symbol in text), None)


def language_currency(header: str) -> str | None:
    """The currency an amount header's language implies where one currency is used (Danish `Beløb`)."""
    key = normalise_header(header)
    return _LANGUAGE_CURRENCY.get(key) or ("KRW" if key in _KOREAN_MONEY else None)


# Korean is written only where the won is; its syllables, normalised, are keys of their letters.
_KOREAN_MONEY = frozenset(normalise_header(name) for role in MONEY_ROLES if role in _KOREAN for name in _KOREAN[role])


_IN_A_CURRENCY = ("total", "subtotal")  # amounts only beside a currency: `Total (AUD)`, `Subtotal (Transaction Currency)`


def _names_currency(inner: str) -> bool:
    return inner.strip().lower() == "transaction currency" or bool(currency_code(inner) or cell_currency(inner.strip()))


def header_currency(header: str) -> str | None:
    """The currency a money column's name states: `Betrag (EUR)`, `Amount CZK`, `Bedrag in EUR`, `CAD$`."""
    coded = _CODED_AMOUNT.fullmatch(header.strip())
    if coded:
        return currency_code(coded[1])
    for inner in _PARENTHETICAL.findall(header):
        if re.fullmatch(r"[A-Z]{3}|EUROS?", inner.strip().upper()):  # `Betrag (EUR)`, `Montant(EUROS)`
            return currency_code(inner)
        symbol = cell_currency(inner.strip())  # `Amount (£)`
        if symbol and classify(header):
            return symbol
    coded = _CODE_SUFFIX.fullmatch(normalise_header(header))
    return currency_code(coded[2]) if coded and classify(header) else None
