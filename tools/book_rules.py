"""紫微斗数全书 卷二, each placement rule written as its own small function from the verse.

This module is the *book* side of the conformance run (tools/book_conformance.py).  It is
written from the text of ../shared/sources/ziwei-quanshu.juan2.newdu-full.txt ("F") alone and
never imports the engine (nothing from ``mingshu.ziwei``): each function takes plain numbers
(branch 子 = 0 … 亥 = 11, stem 甲 = 0 … 癸 = 9, month 1..12, day 1..30, hour branch 0..11)
and says what the verse says.  The tables of the book (the 紫微 day tables, the 纳音 song,
the brightness table) are parsed from the file itself, so a reading error shows up as a
disagreement instead of being copied from the engine.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

F_NAME = "ziwei-quanshu.juan2.newdu-full.txt"
# The repository's excerpt of F (sources/, made by tools/build_sources.py from the full file,
# which a test keeps it equal to): it ships exactly the lines this module reads.
EXCERPT = Path(__file__).resolve().parents[1] / "sources" / f"{F_NAME}.excerpt"
READS = ((9, 9), (11, 16), (28, 28), (41, 43), (87, 87), (89, 90), (165, 307), (385, 433))
B = "子丑寅卯辰巳午未申酉戌亥"
S = "甲乙丙丁戊己庚辛壬癸"
ANIMALS = {
    "鼠": 0,
    "牛": 1,
    "虎": 2,
    "兔": 3,
    "免": 3,
    "龙": 4,
    "蛇": 5,
    "马": 6,
    "羊": 7,
    "猴": 8,
    "鸡": 9,
    "狗": 10,
    "猪": 11,
}  # 免 is F's misprint of 兔 (L28)
CLASS_OF_ELEMENT = {"水": 2, "木": 3, "金": 4, "土": 5, "火": 6}


@cache
def lines() -> dict[int, str]:
    """The lines of F this module reads, by line number, from the excerpt: a heading
    ``@@ L<first>-<last>`` (a page note may follow) and then those lines verbatim."""
    text = EXCERPT.read_text(encoding="utf-8").split("\n")
    out: dict[int, str] = {}
    for i, head in enumerate(text):
        m = re.match(r"@@ L(\d+)-(\d+)", head)
        if m:
            first, last = int(m[1]), int(m[2])
            out.update(zip(range(first, last + 1), text[i + 1 : i + 2 + last - first], strict=True))
    return out


def raw_line(n: int) -> str:
    """Line ``n`` of F as written; only the lines of ``READS`` are read (and shipped)."""
    if not any(first <= n <= last for first, last in READS):
        raise LookupError(f"F L{n} is not in READS (add it, then run tools/build_sources.py)")
    return lines()[n]


def line(n: int) -> str:
    return raw_line(n).strip()


def b(ch: str) -> int:
    return B.index(ch)


def group_of(branch: int) -> int:
    """The 三合 group: 申子辰 0, 巳酉丑 1, 寅午戌 2, 亥卯未 3 (branch mod 4)."""
    return branch % 4


# --------------------------------------------------------------------- 安身命例 F L3–4
def life_body(month: int, hour: int) -> tuple[int, int]:
    """「从寅上起正月，顺数至本生月止，又自人生月起子时逆至本生时安命，顺至本生时安身。」"""
    month_palace = (b("寅") + month - 1) % 12
    return (month_palace - hour) % 12, (month_palace + hour) % 12


def book_month(month: int, is_leap: bool) -> int:
    """「闰月正月生者要在二月内起安身命，凡有闰月具要依此为例」: a leap month counts, all of
    it, as the next month."""
    return month % 12 + 1 if is_leap else month


# --------------------------------------------------------------------- 安十二宫例 F L6–7
PALACE_ORDER = (
    "命宫",
    "兄弟",
    "妻妾",
    "子女",
    "财帛",
    "疾厄",
    "迁移",
    "奴仆",
    "官禄",
    "田宅",
    "福德",
    "父母",
)  # F L7, laid out 逆转 (backward) from the Life palace


def palace_names(life: int) -> dict[int, str]:
    return {(life - i) % 12: name for i, name in enumerate(PALACE_ORDER)}


# --------------------------------------------------------------------- 起五行寅例 F L9
@cache
def yin_stems() -> dict[int, int]:
    """「甲己之岁起丙寅 …」: the stem of the 寅 palace for each year stem."""
    found = re.findall(r"(.)(.)之岁起(.)寅", line(9))
    table = {}
    for a, c, start in found:
        table[S.index(a)] = table[S.index(c)] = S.index(start)
    return table


def palace_stem(year_stem: int, branch: int) -> int:
    """From 寅 the stems run on with the palaces: 丙寅 丁卯 … 乙亥 丙子 丁丑."""
    return (yin_stems()[year_stem] + (branch - b("寅")) % 12) % 10


# --------------------------------------------------------------------- 纳音歌 F L11–16
@cache
def nayin() -> dict[tuple[int, int], int]:
    """The class (局数) of every pillar, from the song: phrase k names pillars 2k and 2k+1
    of the sixty (the order, not the two characters, decides: F misprints 甲戌 as 甲戊 and
    己亥 as 已亥)."""
    phrases: list[str] = []
    for n in range(11, 17):
        phrases += [p for p in re.split(r"[，。]", line(n)) if p]
    assert len(phrases) == 30, phrases
    table = {}
    for k, phrase in enumerate(phrases):
        klass = CLASS_OF_ELEMENT[phrase[-1]]
        for i in (2 * k, 2 * k + 1):
            table[(i % 10, i % 12)] = klass
    return table


def five_elements_class(year_stem: int, life: int) -> int:
    return nayin()[(palace_stem(year_stem, life), life)]


# --------------------------------------------------------------------- 紫微 day tables F L165–307
_DIGITS = "一二三四五六七八九十"


def _day(top: str, bottom: str) -> int:
    if top == "初":
        return _DIGITS.index(bottom) + 1
    if bottom == "十":
        return {"二": 20, "三": 30}[top]
    return {"十": 10, "廿": 20}[top] + _DIGITS.index(bottom) + 1


@cache
def zi_wei_tables() -> dict[tuple[int, int], list[int]]:
    """(class, day) → the branches whose cell lists that day in the five tables of F.

    A cell holds its days written top-to-bottom in two rows (初/八 = 初八); the class is the
    label in the table's frame (水二局 …).  A day listed in no cell, or in two, shows up as a
    disagreement of the conformance run.
    """
    table: dict[tuple[int, int], list[int]] = {}
    klass = 0
    block: list[str] = []
    pending: list[tuple[int, int]] = []  # (day, branch) of the table being read

    def flush_block() -> None:
        rows = [r for r in block if r.replace("|", "").strip()]
        block.clear()
        if len(rows) < 2:
            return
        *digits, names = rows
        cells = [[c.strip() for c in r.split("|")] for r in (*digits, names)]
        top, bottom, labels = cells[0], cells[1], cells[-1]
        for t, u, label in zip(top, bottom, labels, strict=True):
            if label and label in B:
                for x, y in zip(t, u, strict=True):
                    pending.append((_day(x, y), b(label)))

    for raw in (raw_line(n) for n in range(165, 308)):
        s = raw.strip()
        if s.startswith("\\-"):
            flush_block()
            m = re.search(r"([水木金土火])[二三四五六]局", s)
            if m:
                klass = CLASS_OF_ELEMENT[m[1]]
        elif s.startswith("|"):
            block.append(s)
        elif s:  # a verse line starts the next table
            flush_block()
            for day, branch in pending:
                table.setdefault((klass, day), []).append(branch)
            pending.clear()
    flush_block()
    for day, branch in pending:
        table.setdefault((klass, day), []).append(branch)
    return table


# --------------------------------------------------------------------- 天府 F L317–319
def tian_fu(zi_wei: int) -> int:
    """「天府惟寅申二宫紫府同宫，余宫俱各填协作对如紫居丑则府居卯矣」: mirror across 寅–申."""
    return (2 * b("寅") - zi_wei) % 12


# --------------------------------------------------------------------- 安南北斗诸星诀 F L18–19
def majors(zi_wei: int) -> dict[str, int]:
    """「紫微天机逆行旁，隔一阳武天同当，又隔二位廉贞地」 / 「天府太阴与贪狼，巨门天相及天梁，
    七杀空三破军位，八星顺数」."""
    fu = tian_fu(zi_wei)
    back = {"天机": 1, "太阳": 3, "武曲": 4, "天同": 5, "廉贞": 8}
    ahead = {"太阴": 1, "贪狼": 2, "巨门": 3, "天相": 4, "天梁": 5, "七杀": 6, "破军": 10}
    out = {"紫微": zi_wei, "天府": fu}
    out |= {k: (zi_wei - v) % 12 for k, v in back.items()}
    out |= {k: (fu + v) % 12 for k, v in ahead.items()}
    return out


# --------------------------------------------------------------------- small rules
def wen_chang(hour: int) -> int:
    return (b("戌") - hour) % 12  # F L21 「子时戌上起文昌，逆到生时」


def wen_qu(hour: int) -> int:
    return (b("辰") + hour) % 12  # F L21 「文曲数从辰上起，顺到生时」


def zuo_fu(month: int) -> int:
    return (b("辰") + month - 1) % 12  # F L25 「左辅正月起于辰，顺逢生月」


def you_bi(month: int) -> int:
    # F L26 「右弼从戌宫逆转如正月便成戌宫安之，二月在酉宫」 (L25's 「逆至正月」 is garbled)
    return (b("戌") - month + 1) % 12


@cache
def kui_yue() -> dict[int, tuple[int, int]]:
    """F L28 「甲戊庚牛羊，乙己鼠猴乡，六辛逢虎马，壬癸免蛇藏，丙丁猪狗位」: (天魁, 天钺) of
    each stem.  The verse does not say which animal is which star; read in its order, first
    天魁 then 天钺, as in every other phrase it gives the pair the tradition gives (牛 丑 魁,
    羊 未 钺 …): so 「六辛逢虎马」 is 魁 寅, 钺 午."""
    out = {}
    for stems, animals in re.findall(r"([甲乙丙丁戊己庚辛壬癸六]+)[逢]?(..)", line(28)):
        pair = (ANIMALS[animals[0]], ANIMALS[animals[1]])
        for st in stems.replace("六", ""):
            out[S.index(st)] = pair
    return out


def tian_ma(year_branch: int) -> int:
    """F L31 「寅午戍人马居申，申子辰人马居寅，巳酉丑人马居亥，亥卯未人马居巳」 (戍 = 戌)."""
    return {2: b("申"), 0: b("寅"), 1: b("亥"), 3: b("巳")}[group_of(year_branch)]


def lu_cun(year_stem: int) -> int:
    """F L34 「甲生禄存在寅宫，乙生在卯丙戊巳，丁己禄存停午方，庚禄居申辛禄酉，壬禄在亥癸禄子」."""
    return b("寅卯巳午巳午申酉亥子"[year_stem])


def qing_yang_tuo_luo(year_stem: int) -> tuple[int, int]:
    """F L36–37 「禄前擎羊后陀罗 … 癸禄在子，丑宫安擎羊，亥宫安陀罗」."""
    lu = lu_cun(year_stem)
    return (lu + 1) % 12, (lu - 1) % 12


def huo_ling_start(year_branch: int) -> tuple[int, int]:
    """F L39 「寅午戌人丑卯方，申子辰人寅戌扬，巳酉丑人卯戌位，亥卯未人酉戌房」: where 火 and
    铃 stand at the 子 hour."""
    huo, ling = {2: "丑卯", 0: "寅戌", 1: "卯戌", 3: "酉戌"}[group_of(year_branch)]
    return b(huo), b(ling)


def huo_ling(year_branch: int, hour: int) -> tuple[int, int]:
    """The verse gives no direction; read (as the usual practice) forward by the hour."""
    huo, ling = huo_ling_start(year_branch)
    return (huo + hour) % 12, (ling + hour) % 12


SIHUA_CHARS = {
    "廉": "廉贞",
    "破": "破军",
    "武": "武曲",
    "阳": "太阳",
    "日": "太阳",
    "机": "天机",
    "梁": "天梁",
    "紫": "紫微",
    "月": "太阴",
    "阴": "太阴",
    "同": "天同",
    "昌": "文昌",
    "巨": "巨门",
    "贪": "贪狼",
    "弼": "右弼",
    "辅": "左辅",
    "曲": "文曲",
    "府": "天府",
}


@cache
def sihua() -> dict[int, tuple[str, str, str, str]]:
    """F L41–43 「甲廉破武阳为伴，乙机梁紫月交侵 …」: 禄 权 科 忌 for each stem."""
    text = line(41) + line(42) + line(43)
    out = {}
    for stem, stars in re.findall(r"([甲乙丙丁戊己庚辛壬癸])(.{4})", text):
        out[S.index(stem)] = tuple(SIHUA_CHARS[c] for c in stars)
    assert len(out) == 10, out
    return out  # type: ignore[return-value]


def di_jie(hour: int) -> int:
    return (b("亥") + hour) % 12  # F L46 「亥上起子顺安劫」


def tian_kong_hour(hour: int) -> int:
    return (b("亥") - hour) % 12  # F L46 「逆向便是天空乡」 (the engine's 地空)


BO_SHI = (
    "博士",
    "力士",
    "青龙",
    "小耗",
    "将军",
    "奏书",
    "蜚廉",
    "喜神",
    "病符",
    "大耗",
    "伏兵",
    "官府",
)  # F L52: 「…天耗伏兵至宫府」 (天耗 = 大耗)


def bo_shi(year_stem: int, male: bool) -> dict[int, int]:
    """F L53 「寻禄存星起，阳男阴女顺推轮，阴男阳女逆流行」: branch → god index."""
    step = 1 if (year_stem % 2 == 0) == male else -1
    return {(lu_cun(year_stem) + step * i) % 12: i for i in range(12)}


def tian_xing(month: int) -> int:
    return (b("酉") + month - 1) % 12  # F L57


def tian_yao(month: int) -> int:
    return (b("丑") + month - 1) % 12  # F L57


def san_tai(month: int, day: int) -> int:
    return (zuo_fu(month) + day - 1) % 12  # F L59 「三台寻左辅将初一日加在左辅宫，顺数」


def ba_zuo(month: int, day: int) -> int:
    return (you_bi(month) - day + 1) % 12  # F L59 「八座寻右弼将初一加右弼宫逆数」


def tian_ku(year_branch: int) -> int:
    return (b("午") - year_branch) % 12  # F L61 「午宫起子 … 哭逆」


def tian_xu(year_branch: int) -> int:
    return (b("午") + year_branch) % 12  # F L61 「虚顺」


def long_chi(year_branch: int) -> int:
    return (b("辰") + year_branch) % 12  # F L63 「龙池子顺辰」


def feng_ge(year_branch: int) -> int:
    return (b("戌") - year_branch) % 12  # F L63 「凤阁子戌逆」


def tai_fu(hour: int) -> int:
    return (b("午") + hour) % 12  # F L65


def feng_gao(hour: int) -> int:
    return (b("寅") + hour) % 12  # F L67


CHANG_SHENG_START = {6: "寅", 3: "亥", 2: "申", 4: "巳", 5: "申"}  # F L69


def chang_sheng(klass: int, male: bool) -> dict[int, int]:
    """F L68–69 「男命顺数、女命逆数」: branch → stage index (长生 = 0), by gender alone."""
    step = 1 if male else -1
    return {(b(CHANG_SHENG_START[klass]) + step * i) % 12: i for i in range(12)}


def hong_luan(year_branch: int) -> int:
    return (b("卯") - year_branch) % 12  # F L71 「卯上起子逆数之」


def tian_xi(year_branch: int) -> int:
    return (hong_luan(year_branch) + 6) % 12  # 「对宫天喜」


def four_flying(year_branch: int) -> dict[str, int]:
    """F L74 「流年太岁前二位是丧门，后二位是吊客，丧门对照安白虎，吊客对照安官府」."""
    sang, diao = (year_branch + 2) % 12, (year_branch - 2) % 12
    return {"丧门": sang, "吊客": diao, "白虎": (sang + 6) % 12, "官府": (diao + 6) % 12}


def dou_jun(flow_year_branch: int, month: int, hour: int) -> int:
    """F L77 「于流年太岁宫起正月逆至本生月，又从本生月起子顺数至本生时安斗君」."""
    return (flow_year_branch - (month - 1) + hour) % 12


def tian_de(year_branch: int) -> int:
    return (b("酉") + year_branch) % 12  # F L80 「天德星从酉上起子，顺数」


def yue_de(year_branch: int) -> int:
    return (b("子") + year_branch) % 12  # F L80 「月德星从子上起子，顺数」


def jie_shen(year_branch: int) -> int:
    return (b("戌") - year_branch) % 12  # F L81 「解神从戌上起子，逆数」


def fei_tian_san_sha(year_branch: int) -> dict[str, int]:
    """F L83–85 「寅午戍年飞入亥卯未宫 …」 「即奏书、将军、直符」: the three palaces of the next
    三合 group; the verse names no order, read as listed (奏书, 将军, 直符)."""
    target = {2: "亥卯未", 0: "巳酉丑", 3: "申子辰", 1: "寅午戌"}[group_of(year_branch)]
    return dict(zip(("奏书", "将军", "直符"), (b(c) for c in target), strict=True))


@cache
def jie_lu_kong_wang() -> dict[int, frozenset[int]]:
    """F L87 「甲己申酉宫，乙庚午未宫 …」: one item, 截路空亡, on two palaces."""
    out = {}
    for a, c, x, y in re.findall(r"(.)(.)(.)(.)宫", line(87)):
        for st in (a, c):
            out[S.index(st)] = frozenset((b(x), b(y)))
    return out


@cache
def xun_kong() -> dict[int, frozenset[int]]:
    """F L89–90 「甲子旬中空戌亥 …」: the decade's two void palaces, by the decade's first
    pillar (甲子 = 0, 甲戌 = 10 …)."""
    out = {}
    for head, x, y in re.findall(r"甲(.)旬中空(.)(.)", line(89) + line(90)):
        first = next(i for i in range(0, 60, 10) if i % 12 == b(head))  # the pillar 甲<head>
        out[first] = frozenset((b(x), b(y)))
    return out


def xun_kong_of(pillar: int) -> frozenset[int]:
    return xun_kong()[pillar - pillar % 10]


def decade_start(life: int, yang_year: bool, male: bool) -> tuple[int, int]:
    """F L92 「阳男阴女从命前一宫起顺行 是父母宫。阴男阳女从命后一宫起逆行 是兄弟宫」, reading
    A: the decades start on the Life palace and go on, 顺 (forward) to the palace before it,
    the 父母宫, or 逆 to the one after it, the 兄弟宫; the note names the second decade's
    palace.  (The 道藏 紫微斗数 起大限例 says it plainly: 「陽男隂女從命宫順數十年行一宫」.)
    Returns (palace of the first decade, direction)."""
    forward = yang_year == male
    return life, 1 if forward else -1


def decade_start_literal(life: int, yang_year: bool, male: bool) -> tuple[int, int]:
    """F L92 read literally, reading B: the first decade itself stands on the palace before
    (父母宫) or after (兄弟宫) the Life palace."""
    forward = yang_year == male
    return ((life + 1) % 12, 1) if forward else ((life - 1) % 12, -1)


def small_limit(year_branch: int, male: bool) -> tuple[int, int]:
    """F L93–94: age 1's palace and the step (男 forward, 女 backward, 不论阴阳)."""
    start = {2: "辰", 0: "戌", 1: "未", 3: "丑"}[group_of(year_branch)]
    return b(start), 1 if male else -1


CHILD = ("命宫", "财帛", "疾厄", "妻妾", "福德", "官禄")  # F L96 「一命二财三疾厄，四妻五福六官禄」

LIFE_MASTER = {
    "子": "贪狼",
    "丑": "巨门",
    "亥": "巨门",
    "寅": "禄存",
    "戌": "禄存",
    "卯": "文曲",
    "酉": "文曲",
    "辰": "廉贞",
    "申": "廉贞",
    "巳": "武曲",
    "未": "武曲",
    "午": "破军",
}
# F L98 (廉真 = 廉贞)
BODY_MASTER = {
    "子": "火星",
    "午": "火星",
    "丑": "天相",
    "未": "天相",
    "寅": "天梁",
    "申": "天梁",
    "卯": "天同",
    "酉": "天同",
    "辰": "文昌",
    "戌": "文昌",
    "巳": "天机",
    "亥": "天机",
}
# F L101 (「子午人火玲星」 read as 火星)


def jin_suo_tie_she(year_branch: int, month: int, day: int, hour: int) -> int:
    """F L103–104 「从戌上起年顺行至本生年，年上起月逆数至本生月，月上起日，… 逆至本生时」
    (the verse: 「日又顺数时逆转」)."""
    at = (b("戌") + year_branch) % 12
    at = (at - (month - 1)) % 12
    at = (at + day - 1) % 12
    return (at - hour) % 12


GRADE_COLUMNS = ("庙", "旺", "得", "利", "平", "不", "陷")  # 庙 旺 得地 利益 平和 不得地 落陷
BRIGHT_CHARS = {
    "紫": "紫微",
    "机": "天机",
    "日": "太阳",
    "武": "武曲",
    "同": "天同",
    "廉": "廉贞",
    "府": "天府",
    "月": "太阴",
    "贪": "贪狼",
    "巨": "巨门",
    "相": "天相",
    "梁": "天梁",
    "杀": "七杀",
    "破": "破军",
    "昌": "文昌",
    "曲": "文曲",
    "禄": "禄存",
    "羊": "擎羊",
    "陀": "陀罗",
    "火": "火星",
    "铃": "铃星",
}


@cache
def brightness() -> dict[tuple[str, int], str]:
    """The table of F L383–433: (star, branch) → grade, for every cell the book fills."""
    out: dict[tuple[str, int], str] = {}
    rows: list[list[str]] = []

    def flush() -> None:
        if not rows:
            return
        cols = ["".join(r[i] for r in rows) for i in range(len(rows[0]))]
        rows.clear()
        branch = b(cols[0])
        for grade, chars in zip(GRADE_COLUMNS, cols[1:], strict=True):
            for c in chars:
                key = (BRIGHT_CHARS[c], branch)
                assert key not in out, key
                out[key] = grade

    for n in range(385, 434):
        s = line(n)
        if s.startswith("\\-"):
            flush()
        elif s.startswith("|"):
            rows.append([c.strip() for c in s.split("|")[1:-1]])
    flush()
    return out
