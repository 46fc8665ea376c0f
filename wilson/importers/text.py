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
import unicodedata
from collections import Counter
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
# How plausible a pair of letters is in the languages a code page carries: -2·log10 of the share of
# words that hold the pair, in the language of the group that writes it most, counted over the
# words of Debian's hunspell dictionaries (cp1252: French, Spanish, Portuguese and Brazilian,
# Italian, German, Dutch, Danish, Swedish, Norwegian, Icelandic; cp1250: Polish, Czech, Slovak,
# Hungarian, Slovenian, Croatian, Romanian with `ş` `ţ`; cp1254: Turkish). Only pairs holding a
# letter the three code pages read a byte differently as are kept; `_` is a word's edge. 4 means one
# word in 100 holds the pair, 10 one in 100,000; pairs rarer than one in a million weigh `_UNSEEN`.
_PAIRS = {
    "cp1252": {
        2: "að ið ð_ ða ði ðu",
        3: "_þ jø lø ræ rð tà uð à_ ão ær æð çã ðs óð ør",
        4: (
            "_å añ bæ bø eð eñ fæ fø gå gð hå hæ hø iè kæ kø lå læ må mæ mø oð rå rø så sæ sø tå tæ tø vå væ áð åd åg ål ån "
            "år ås åt æd æg æk æl æn æs æt èr ên íð ðf ðl ðn ðr ðv ña ño öð ød øg øj øk øl øn øp øs øt øv øy úð ýr ýs þj þr"
        ),
        5: (
            "_æ _ø aï aþ bå dã dæ dø dý få fð gæ gè gê gø hã hè jæ kå ký lè lý lþ mã mè nå næ nø ný oï på pæ pø rã rè rý rþ "
            "sã sý sþ tã tè yð ã_ å_ åb åe åk åp æb æf æj æm æv èm èn ès èt ê_ êm ês êt ïd ðb ðg ðh ðj ðk ðm õe ø_ øb øf øm "
            "ýl ýn ýt ýð þa þe þi þo þu þv þy"
        ),
        6: (
            "_ý _œ bê bý cã cè cê då dê eå eï fè gã hý iã iê iñ iø iþ jã jõ lã lê mê mý mþ nã nè nê nþ oã oå oñ oû pã pè pê "
            "rà rê rò tê tý uê uñ uþ vã vê vø à- áæ ã- ãe ãs åf åh åi åm åv æ_ æp è_ èc èd èg èl èq èv éð êl êu ì_ íþ ïn ïq "
            "ïs ðd ðe ðt ðþ ñe ñi ò_ óþ øe ù_ ût ýf ýj ýk ým þá þæ þé þó þö þý œu"
        ),
        7: (
            "-à _ê _ñ aå aæ aè bã bè cæ cœ dè dþ eã eæ eø fã fê fý fþ gþ hõ iå iæ iõ jå kþ là oè oê oõ pý pþ rõ rû sè sê tõ "
            "tþ uã uè uï vè xã yè zã zê áþ åa æc æe æh æi æo æu çõ èb ê- êc êr ï_ ïa ïc ïe ïk ït ðo ðp ðy ðá ðó ñu ñó øa øh "
            "øi ûl ûr ý_ ýb ýd ýg ýi ýp þí þú œc œi œn œs"
        ),
        8: (
            "'è 'œ -ê -œ _à aã bõ bù bû bœ cõ dì dõ dû eõ fà fû fœ gõ gý hê hœ ià iù jê kè lì lò lõ lû mõ mû nò nœ oø põ pœ "
            "sì sù sû sœ tù uå uæ uø võ xå xè xê yå yø yþ zè áñ ãz åc åj åo åä åå æa æx èp èz êi êp êv êx ï- ïl ïm ïo ïr ïv "
            "ïè ðæ ðö ñá ñé ñí óæ øo øu ûc ûm ýa ýh ýv ýú þ. œd œl œt"
        ),
        9: (
            "-å -ø .ª .º .å .þ _è _ï aê aø aù bò cà cì cò cø dò dù dœ eû eþ fò gà iò iœ jà kû lù lœ mù mœ nà nì nõ nû où oœ "
            "pì qû rì rù rœ sà sò sõ tì tò tû tœ uò vì vò xæ xø xœ yæ zõ ª_ º_ àq ãi ãí å- å. åu åö åø æq æþ çà èe èf êb êq "
            "íæ ïb ïf ïg ïp ïu ïw ïz ïé ñg öå öþ ø- øc øw øø úñ û_ ûn ûp ýe ýo ýu ýá ýþ þm œr"
        ),
        10: (
            "-æ _ã aý bþ dž eê hû oæ vð wæ wø xõ xý yã zø às áý ãm åx åz åæ æ- æ. éþ êa êf êh êz ð- ðí ðú ðý òr õ_ ø. øz øå "
            "úþ ûs ýy ýó ži"
        ),
    },
    "cp1250": {
        1: "ý_ ă_",
        2: "ič ją ký ný ră tă ąc ć_ ča če ţi ť_",
        3: "ać ač aţ ať că eč eľ eş eţ ię iť lă mă nă nč ně oč oś pă př sť vý ăr ăt č_ či ěj ła ło ő_ ře ři şi şt šč",
        4: (
            "_č _ś _ş _ž ał ań ař aş aż až bă dă dě eć eł eś eż ež fă gă gł ią ić iş iţ jč kł lč lő mě ną nţ oł oř oş oż ož "
            "pł rč să sł tý tě tő tř uć uč uş uţ už vă vč vě yś ză zą zę ző áč ář äť ół ýc ăc ăd ăi ăl ăm ăn ăp ăs ău ăţ će "
            "ći čk čn čo čt čí đe ęc ęd ęt ěn ět ľa ľn ľo łu ły ńs ňa ňo ős ří śc śl śm śn ść ş_ şa şe şo ţa ţe ţă ťa ův ű_ "
            "ża że ży ža že ži žn"
        ),
        5: (
            "_ł _ő _ř _ţ _ż ađ aľ aň aś bč bě bł bő bř cţ dč dł dő dř dź dż dž eđ eń eň eř eť fő fű gő hý hă hľ hł hř ił iń "
            "iś iž jž kő kř lý lą lę lţ lů mč mű nę nő nş oć ođ oľ oń oň oţ pę pě pľ rý rą rę rł rő rş rţ rů rű rž ső tč tę "
            "tł tű uđ uľ uł uř uś uť uż vő wę wł yć ył yń yű yż zł áž íč íž óż úč úť úž ým ýv ă- ăb ăg ăv ăz ăş ą_ ąd ąg ąs "
            "ąt ąw ąć ął ća čj čl čr ču čá đa đi đu ę_ ęb ęg ęk ęp ęs ęż ě_ ěd ěk ěl ěr ěs ľ_ ľk ľu ł_ łb łe łk łs łt łó łę "
            "ń_ ńc ň_ ňu ňá őd ők ől őn őr őt őz ř_ řa řk řo řs řá ś_ śr św şc şu şă šć šľ šť ţ_ ţo ţu ţâ ťd ťo ťs ťt űl űr "
            "űs źn ż_ żn żo ž_ žk žl žo žu ží"
        ),
        6: (
            "_ć _ď _đ _ľ _ť aď aź bý bľ bű cą cş ců dý dą dę dľ dň dů eů eź gę hč hő hů hű iđ iň iř iż jă ję jľ jż ką kč kę "
            "kľ ků lň lż lž mý mą mę mł mŕ mţ nđ nů nž oź pć pč pň pő pţ pů rđ rň rż sý są sę sľ sň sű tą tĺ tľ tň tů uň vň "
            "vŕ vř vž wą wś yč yň yő yř yž zč zľ zř zű zż zž áľ áň âş âţ íř úľ ýb ýh ýk ýl ýn ýp ýr ýs ýt ýz ýř ýš ăf ăh ăj "
            "ąb ąk ąp ąz ąż ćk ćn ću ćw čm čs čv čú čč ď_ ďa ďo ęl ęz ěc ěh ěm ěp ěv ěz ěč ěř ěš ěž ĺk ľs ľú łc łd łg łn łp "
            "łz łą łł ńk ňk ňm őa őb őc őe őf őg őh ői őj őm őv ŕk řč śp şl şm şn şp şâ ťm ťu ťá ů_ ůj ůl ům ůr ůs ůž űj űk "
            "űn űt űv űz źd źl źw żb żd żk żm żu żó żą žb žd žg žj žm žr žs žv žá žč"
        ),
        7: (
            "-ş -ţ _ă _ű _ź bą bę bň bś bţ bů bż cľ cł cň cť dĺ dś dű eď fč fľ fň gą gľ gű hę hĺ hň hŕ iď iľ iů iź jď jň jő "
            "jś jť jű kć kĺ kň kŕ kű lś lş lű mć mĺ mľ mň mő mř mś mů mż mž nď nű nż oď oť pý pą pĺ pŕ pş rć rľ rś rť rź sč "
            "sů tŕ uă uď uń uź vď vů vű wż xă yľ yť yź zý zď zň zś zť zů éč éř íľ íň óź ôč ôľ ôž úň ýd ýč ýž ăo ąś ćd ćm ćo "
            "čľ čň čů ďu ďá đ_ ęć ęś ęź ěb ěň ĺb ĺz ĺž ľh ľm ľv ľň łl łm łr łw łś łź łż ńm ňs ňt ňů őo őp őu őá őé őú ŕc ŕd "
            "ŕh ŕt ŕz ŕč ŕň řb řm řn řt řu řv śk śt ş- şf šň šů ţc ťj ťk ťn ťp ťr ťú ťš ůb ůc ůd ůh ůn ůt ůz ůč ůš űb űe űf "
            "űh ź_ źb źc źm źr żc żi żl żs żł žh žt žé žú žď žđ žň žš"
        ),
        8: (
            "-č _ň bŕ bş bť bź bž cę cŕ dŕ dť eő fý fŕ fů gý gč gř gů gż hť hż jł jř jů kż mş nň oă pű rď sŕ sř sţ sž vľ wč "
            "xč áť äč éž íť óś úř ýu ýľ ăe ąź ć- ćp ćs čb čd čh čp čš ďk ďm ďt đo ęł ěg ěď ěť ĺc ĺh ĺp ĺň ľb ľt ľá ľč ľš łf "
            "łi ńż ňh ő- őí őö őü ŕb ŕm ŕn ŕp ŕš ŕž řl řp řš řů śń şd şr şv ťb ťh ťi ťv ťí ůk ůp ůň ű- űc űd űg źg źć źż żg "
            "żr żw żę żż žc žy žľ"
        ),
        9: (
            "aů bĺ cč cő dď eă fą fş gđ gş hą hś hž iő kś kž lť nć nť oĺ oů pś pť rń sş uů vĺ vť wő yď yů zć áď áĺ âă éť éů "
            "íď óő óž ôň ýf ýg ýj ýň ýť ăx ćb ćc ćf ćg ćj ćl ćt ćv č. čc čf čg čz čé čť ęw ěo ĺ_ ĺn ĺt ĺč ľd ľj ľp ľr łh łj "
            "łć ńb ńd ńo ňe ňi ňú ňč ňš őw őó őő ŕ_ ŕl ŕs ŕľ ŕŕ ř. řc řd řh řr śa śb śi śo şb şk şs ţm ţî ťc ťe ťf ťl ťč ťů "
            "ůf ůg ůř űa űi űm űp űu űé źa źk źń żp žp žů"
        ),
        10: (
            "_ĺ aý aĺ bď cý cž dć dş eą eę fę fě fř hď jń kă kě kť lź nł pż pž sĺ sż tś tş tţ tż tž uą uę vą wý wć wů wű xľ "
            "éď éň îş îţ óč óľ óň ôť úď üč ýo ýy ýá ąf čy čó ďd ďe ďn ďs ďö ďč ďů ďž đm ęn ęr ěe ěf ěá ěú ĺd ĺď ľc ľg ľi ľô "
            "ľž ńa ńt ńć ňb ňc ňd ňó őš ŕv řj řz řé řú řň řř řť śf śj śś şg ţ- ţp ťz ťä ťň ůď űč űš źi źp źs żt ž. žw žó žĺ "
            "žŕ"
        ),
    },
    "cp1254": {
        1: "il ği ğı",
        2: "ağ aş bi di dı eğ eş i_ im in ir iz iğ li lı mi mı ni nı ti tı ı_ ıl ın ır ız ığ şt",
        3: "_i ci cı ik it iy iş ki kı ri rı si sı uğ yı zi zı ğu ık ım ıy ış ş_ şa şe şl şm",
        4: "_ş bı fi gi gı hi ic id ip is oğ pı uş vi yi çi çı üğ üş ğa ğe ğl ğr ğü ıc ıp ıs ıt şi şı",
        5: "_ı ai fı hı ib if ih iv iç oş pi rş öğ ğd ıd ıf ıv şk şu şü",
        6: "ia ig ji kş vı vş öş ğm ğn ıç şf şr şs şv şç",
        7: "ei hş ii ij mş nş ğ_ ğc ğs ğv ıb ıh şb şg şh şn şo şp şö",
        8: "ie io oi pş ui ğz ıg ş' şd şy şş",
        9: "fş i' lş yş üi ğ' ğb ğf ğg ı' ıa şc",
        10: "iu iü jı zş ğo ğy ğş ıe ıo ıu ıö",
        11: "ğh ğk ğt",
    },
}
_UNSEEN = 12
# What a sign where a letter could be costs when it stands apart from letters (`£12`, `1½`).
_SIGN = 3
# Western European files are the commoner: another code page must read better by more than this.
_RARER = 2
_LEGACY = ("cp1252", "cp1250", "cp1254")


def _weights(levels: dict[int, str]) -> dict[str, int]:
    return {pair: level for level, pairs in levels.items() for pair in pairs.split()}


_WEIGHTS = {encoding: _weights(levels) for encoding, levels in _PAIRS.items()}
# A dictionary counts each word once, running text its common words often: Italian and French end
# some of their commonest words in an accented vowel (`più`, `è`, `città`, `caffè`, `café`), which
# a word list holds few of. Read as cp1250 they would end in `ů`, `č`, `ŕ`.
_WEIGHTS["cp1252"].update(dict.fromkeys(("à_", "è_", "é_", "ì_", "ò_", "ù_"), 1))


def _differing_bytes() -> bytes:
    def char(byte: int, encoding: str) -> str | None:
        try:
            return bytes([byte]).decode(encoding)
        except UnicodeDecodeError:
            return None

    return bytes(b for b in range(0x80, 0x100) if len({char(b, encoding) for encoding in _LEGACY}) > 1)


_DIFFERING = _differing_bytes()
# The accented letters each language of a code page writes (in one word in 10,000 or more, in the
# same dictionaries). A file is written in one language: a letter its likeliest language does not
# write counts against the code page, even one the code pages share (Turkish writes no `á`, Polish
# no `ď`, Czech no `ś`, French no `ð`).
_ALPHABETS = {
    "cp1252": (
        "àáâæçèéêëîïóôöûüœ",  # French
        "áéíñóúü",  # Spanish
        "àáâãçéêíóôõú",  # Portuguese
        "áâãçéêíóôõú",  # Brazilian Portuguese
        "àèéìòù",  # Italian
        "ßäéöü",  # German
        "áâäçèéêëíïóöúü",  # Dutch
        "áäåæèéëíðóöøü",  # Danish
        "áäåèéöü",  # Swedish
        "åæèéôø",  # Norwegian
        "áæéíðóöúýþ",  # Icelandic
    ),
    "cp1250": (
        "óąćęłńśźż",  # Polish
        "áäéíóöúüýčďěľńňőřśšťůűž",  # Czech
        "áäéíóôöúýčďĺľňŕšťž",  # Slovak
        "áäéíóöúüłőű",  # Hungarian
        "öüćčđšž",  # Slovenian
        "ćčđšž",  # Croatian
        "âîăşţ",  # Romanian
    ),
    "cp1254": (
        "çöüğış",  # Turkish
    ),
}
# What each letter of a file that its likeliest language does not write costs.
_FOREIGN_LETTER = 6
_HIGH_WORD = re.compile(rb"[A-Za-z\x80-\xff]*[\x80-\xff][A-Za-z\x80-\xff]*")
_SAMPLE_WORDS = 4000
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
    """cp1252 unless the accented words read better as Central European text under cp1250, or as
    Turkish under cp1254.

    The code pages share most accented letters; where a byte differs, each reading is judged by the
    letters around it: how often its languages write that letter after the one before and before
    the one after (`_PAIRS`). `naïve`, `Sœur` and `Loïc` read as French; as cp1250 they would be
    `naďve`, `Sśur`, `Loďc`, whose `ďv`, `sś`, `ďc` no Central European language writes, while
    `Płatność` read as cp1252 holds a `³` inside a word. A file is also written in one language:
    each accented letter that the likeliest language of a code page does not write counts against
    it (`_ALPHABETS`: Turkish writes no `á`, so Icelandic `ð` `þ` `ý` among acute vowels is not
    Turkish). Only the distinct words holding high bytes in the sample are weighed; cp1252 wins a
    tie and a near tie. charset-normalizer was tried here and misjudges short samples (it reads
    Polish as cp1252 and French as cp1250). A sample written mostly in runs of high bytes apart
    from Latin letters is first offered to the non-Latin code pages.
    """
    sample = b"\n".join(_NON_ASCII_LINE.findall(data[: _SAMPLE_BYTES * 16]))[:_SAMPLE_BYTES]
    runs = _NON_ASCII.findall(sample)
    high = sum(map(len, runs))
    if high and sum(map(len, _HIGH_RUN.findall(sample))) * 2 > high and len(_LATIN_TOUCH.findall(sample)) * 4 < len(runs):
        found = _non_latin(sample)
        if found:
            return found
    words = list(dict.fromkeys(_HIGH_WORD.findall(sample)))[:_SAMPLE_WORDS]
    readable = []
    for encoding in _LEGACY:
        try:
            sample.decode(encoding)
        except UnicodeDecodeError:
            continue  # a byte this code page leaves undefined
        readable.append(encoding)
    if len(readable) < 2:
        return readable[0] if readable else "cp1252"
    costs = dict.fromkeys(readable, 0)
    for word in words:
        if word.translate(None, _DIFFERING) != word:
            for encoding, cost in _implausibility(word, readable).items():
                costs[encoding] += cost
    joined = b" ".join(words)
    for encoding in readable:
        costs[encoding] += _FOREIGN_LETTER * _foreign_letters(joined, encoding)
    for encoding in readable[1:]:
        costs[encoding] += _RARER
    return min(readable, key=costs.__getitem__)  # a tie goes to the first, cp1252


def _implausibility(word: bytes, encodings: list[str]) -> dict[str, int]:
    """How unlike each code page's languages `word` reads: the sum, over each byte the code pages
    read differently, of the rarity of the letter pairs it forms with its neighbours."""
    texts = {encoding: word.decode(encoding).replace("İ", "i").lower() for encoding in encodings}  # `İ` lowers to two characters
    if any(len(text) != len(word) for text in texts.values()):
        return dict.fromkeys(encodings, 0)
    costs = dict.fromkeys(encodings, 0)
    for at, byte in enumerate(word):
        if byte not in _DIFFERING:
            continue
        for encoding, text in texts.items():
            char = text[at]
            before = text[at - 1] if at else "_"
            after = text[at + 1] if at + 1 < len(text) else "_"
            if not char.isalpha() or char.upper() == char:  # a sign, or `ª`/`º`: a letter without case
                costs[encoding] += _sign_cost(char, at, text)
                continue
            left = (before if before.isalpha() else "_") + char
            right = char + (after if after.isalpha() else "_")
            weights = _WEIGHTS[encoding]
            costs[encoding] += weights.get(left, _UNSEEN) + weights.get(right, _UNSEEN)
    return costs


def _foreign_letters(words: bytes, encoding: str) -> int:
    """How many accented letters of `words` the likeliest language of `encoding` does not write."""
    letters = Counter(ch for ch in words.decode(encoding).replace("İ", "i").lower() if ch > "\x7f" and ch.upper() != ch)
    return min(sum(n for ch, n in letters.items() if ch not in alphabet) for alphabet in _ALPHABETS[encoding])


def _sign_cost(char: str, at: int, word: str) -> int:
    """A sign standing apart from letters (`£12`, `(£)`, `1½`) reads as common, one among a word's
    letters (`G³ówna`, `¯ABKA`: Polish read as cp1252) as worse than any letter. Punctuation may
    open a word (`¿Qué`, `¡Hola`), and an ordinal indicator, a letter without case, end one (`nº`,
    `1ª`)."""
    if not any(map(str.isalpha, word)):
        return 2 * _SIGN
    if at == 0 and unicodedata.category(char).startswith("P"):
        return 2 * _SIGN
    if char.isalpha() and (at + 1 == len(word) or not word[at + 1].isalpha()):
        return 2 * _SIGN
    return 2 * _UNSEEN + _FOREIGN_LETTER
