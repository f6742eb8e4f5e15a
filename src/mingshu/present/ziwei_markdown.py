"""A Zi Wei chart as Markdown, for readers and for language models.

``to_markdown(chart, horoscope=None, lang="zh-CN")`` writes the birth, a table of the twelve
palaces (stars with brightness and 四化, the four god cycles, decade and small-limit ages),
each palace's 三方四正, 夹宫, 宫干飞化 and 自化, the patterns (格局) it forms with their verses,
and, with a horoscope, its layers and the patterns of the limits it forms.  Everything
comes from the chart's JSON export (``chart_to_dict``, ``analysis_to_dict``,
``horoscope_to_dict``), so the text and the JSON never disagree; names are those of
``locale_to_dict`` in ``lang`` (zh-CN, zh-TW, en-US, ja-JP, ko-KR, vi-VN or pinyin, and the
aliases ``hans``, ``hant``, ``english``).  Headings and labels are in 简体 for zh-CN, 繁體
for zh-TW and English for the other languages.

``mingshu ziwei … --markdown [--lang L] [--at …]`` prints it.
"""

from __future__ import annotations

from typing import Any, Final

from mingshu.arguments import check_type
from mingshu.cycles import Pillar
from mingshu.present.export import chart_to_dict, horoscope_to_dict
from mingshu.present.ziwei_analysis import analysis_to_dict
from mingshu.present.ziwei_locale import locale_to_dict
from mingshu.ziwei.chart import NatalChart
from mingshu.ziwei.horoscope import Horoscope
from mingshu.ziwei.locale import language

__all__ = ["to_markdown"]

# Label → (简体, 繁體, English).
_LABELS: Final = {
    "title": ("紫微斗数命盘", "紫微斗數命盤", "Zi Wei Dou Shu chart"),
    "birth": ("出生", "出生", "Birth"),
    "solar": ("阳历", "陽曆", "Solar date"),
    "lunar": ("农历", "農曆", "Lunar date"),
    "hour": ("时辰", "時辰", "Hour"),
    "gender": ("性别", "性別", "Gender"),
    "female": ("女", "女", "female"),
    "male": ("男", "男", "male"),
    "pillars": ("四柱", "四柱", "Four pillars"),
    "class": ("五行局", "五行局", "Five-element class"),
    "life": ("命宫", "命宮", "Life palace"),
    "body": ("身宫", "身宮", "Body palace"),
    "life_master": ("命主", "命主", "Life master"),
    "body_master": ("身主", "身主", "Body master"),
    "zodiac": ("生肖", "生肖", "Zodiac"),
    "sign": ("星座", "星座", "Sign"),
    "settings": ("设置", "設置", "Settings"),
    "palaces": ("十二宫", "十二宮", "The twelve palaces"),
    "palace": ("宫位", "宮位", "Palace"),
    "pillar": ("干支", "干支", "Pillar"),
    "major": ("主星", "主星", "Major stars"),
    "minor": ("辅星", "輔星", "Minor stars"),
    "adjective": ("杂曜", "雜曜", "Adjective stars"),
    "gods": ("长生 · 博士 · 将前 · 岁前", "長生 · 博士 · 將前 · 歲前", "12 gods (4 cycles)"),
    "decade": ("大限", "大限", "Decade"),
    "small": ("小限", "小限", "Small limit ages"),
    "analysis": ("三方四正与飞化", "三方四正與飛化", "Surrounding palaces and flights"),
    "surrounded": ("三方四正", "三方四正", "Opposite, wealth, career"),
    "flanking": ("夹宫", "夾宮", "Flanking"),
    "flies": ("宫干飞化 禄 权 科 忌", "宮干飛化 祿 權 科 忌", "Flights 禄 权 科 忌"),
    "self": ("自化", "自化", "Self-transform"),
    "horoscope": ("运限", "運限", "Horoscope"),
    "scope": ("层", "層", "Layer"),
    "mutagens": ("四化", "四化", "Four transformations"),
    "flowing": ("流耀", "流耀", "Flowing stars"),
    "notices": ("说明", "說明", "Notes"),
    "patterns": ("格局", "格局", "Patterns (格局)"),
    "none": ("本盘未成任何格局。", "本盤未成任何格局。", "This chart forms none of the patterns."),
    "broken_by": ("破格", "破格", "broken by"),
    "limit_patterns": ("运限格局", "運限格局", "Patterns of the limits (定杂局)"),
    "limit_none": (
        "此运限未成定杂局之限格。",
        "此運限未成定雜局之限格。",
        "This horoscope forms none of the limits patterns.",
    ),
    "group": ("类", "類", "group"),
    "body_mark": ("身", "身", "body"),
    "origin_mark": ("来因", "來因", "origin"),
    "age": ("虚岁", "虛歲", "nominal age"),
}
_COLUMN: Final = {"zh-CN": 0, "zh-TW": 1}
_NAME_FORM: Final = {"zh-CN": "hans", "zh-TW": "hant", "pinyin": "pinyin"}


def to_markdown(
    chart: NatalChart, horoscope: Horoscope | None = None, lang: object = "zh-CN"
) -> str:
    """``chart`` (and ``horoscope``) as a Markdown document in ``lang``."""
    check_type(chart, NatalChart, "chart", "a Zi Wei chart (ziwei.chart(...))")
    if horoscope is not None:
        check_type(horoscope, Horoscope, "horoscope", "a horoscope (ziwei.horoscope(...))")
    code = language(lang)
    return _Writer(chart, horoscope, code).document()


class _Writer:
    def __init__(self, chart: NatalChart, horoscope: Horoscope | None, code: str) -> None:
        self.code = code
        self.data = chart_to_dict(chart)
        self.analysis = analysis_to_dict(chart)
        self.names = locale_to_dict(chart, code, horoscope)
        self.horoscope = None if horoscope is None else horoscope_to_dict(horoscope)
        self.palace_at = {p["branch"]: p["name"]["key"] for p in self.data["palaces"]}

    # Names --------------------------------------------------------------------------------

    def label(self, key: str) -> str:
        return _LABELS[key][_COLUMN.get(self.code, 2)]

    def form(self, named: dict[str, Any]) -> str:
        """A named object's name where ``locale_to_dict`` has no table for it."""
        return str(named.get(_NAME_FORM.get(self.code, "english")) or named.get("hans"))

    def star(self, key: str) -> str:
        return str(self.names["stars"].get(key, key))

    def palace(self, key: str) -> str:
        return str(self.names["palaces"][key])

    def branch(self, key: str) -> str:
        return str(self.names["branches"][key])

    def pillar(self, text: str) -> str:
        if self.chinese:
            return text
        p = Pillar.parse(text)
        stem, branch = self.names["stems"][p.stem.key], self.names["branches"][p.branch.key]
        # Words are spaced (Yang Water Rat, guǐ mǎo); characters are not (壬子 in ja-JP).
        return f"{stem}{branch}" if len(stem) == len(branch) == 1 else f"{stem} {branch}"

    @property
    def chinese(self) -> bool:
        return self.code in ("zh-CN", "zh-TW")

    def transformed(self, star: str, mutagen: str) -> str:
        """破军化禄 in Chinese, "Army Breaker (Prosperity)" otherwise."""
        m = self.names["mutagens"][mutagen]
        return f"{self.star(star)}化{m}" if self.chinese else f"{self.star(star)} ({m})"

    def placed(self, s: dict[str, Any]) -> str:
        marks = [self.names["brightness"][s["brightness"]]] if s.get("brightness") else []
        if s.get("mutagen"):
            marks.append(self.names["mutagens"][s["mutagen"]])
        text = self.star(s["key"])
        return f"{text} ({', '.join(marks)})" if marks else text

    # The document -------------------------------------------------------------------------

    def document(self) -> str:
        parts = [f"# {self.label('title')}", self.birth(), self.palaces(), self.flights()]
        parts.append(self.patterns())
        if self.horoscope is not None:
            parts.append(self.layers())
            parts.append(self.limit_patterns())
        notices = self.data.get("notices") or []
        if notices:
            lines = [f"## {self.label('notices')}", ""]
            lines += [f"- {n['code']}: {n['message']}" for n in notices]
            parts.append("\n".join(lines))
        return "\n\n".join(parts) + "\n"

    def birth(self) -> str:
        d = self.data
        b, lunar = d["birth"], d["lunar_date"]
        solar = b["solar_date"] + (f" {b['clock_time']}" if b.get("clock_time") else "")
        if self.chinese:
            lunar_text = lunar["chinese"] + ("（闰月）" if lunar["is_leap"] else "")
        else:
            leap = " (leap month)" if lunar["is_leap"] else ""
            lunar_text = f"{lunar['year']}, month {lunar['month']}{leap}, day {lunar['day']}"
        body = d["body_branch"]
        sep = " " if self.chinese else ", "
        pillars = sep.join(self.pillar(d["pillars"][k]) for k in ("year", "month", "day", "hour"))
        rows = [
            ("solar", solar),
            ("lunar", lunar_text),
            ("hour", f"{self.names['hour']} ({d['hour']['range']})"),
            ("gender", self.label(b["gender"])),
            ("pillars", pillars),
            ("class", str(self.names["five_elements_class"])),
            ("life", f"{self.branch(d['life_branch'])}"),
            ("body", f"{self.branch(body)} ({self.palace(self.palace_at[body])})"),
            ("life_master", self.star(d["life_master"]["key"])),
            ("body_master", self.star(d["body_master"]["key"])),
            ("zodiac", str(self.names["zodiac"])),
            ("sign", str(self.names["sign"])),
            ("settings", _settings_line(d["settings"])),
        ]
        return "\n".join(
            [f"## {self.label('birth')}", ""] + [f"- {self.label(k)}: {v}" for k, v in rows]
        )

    def palaces(self) -> str:
        head = ["palace", "pillar", "major", "minor", "adjective", "gods", "decade", "small"]
        lines = [
            f"## {self.label('palaces')}",
            "",
            _row(self.label(h) for h in head),
            _rule(len(head)),
        ]
        for p in self.data["palaces"]:
            name = self.palace(p["name"]["key"])
            marks = [self.label("body_mark")] * p["is_body"] + [self.label("origin_mark")] * p[
                "is_original"
            ]
            if marks:
                name += f" ({', '.join(marks)})"
            gods = " · ".join(self.names["gods"][f"{c}:{g['key']}"] for c, g in p["gods"].items())
            decade = f"{p['decadal']['start']}–{p['decadal']['end']}"
            cells = [
                name,
                self.pillar(p["pillar"]),
                ", ".join(self.placed(s) for s in p["major_stars"]) or "—",
                ", ".join(self.placed(s) for s in p["minor_stars"]) or "—",
                ", ".join(self.placed(s) for s in p["adjective_stars"]) or "—",
                gods,
                decade,
                ", ".join(str(a) for a in p["ages"][:6]) + ", …",
            ]
            lines.append(_row(cells))
        return "\n".join(lines)

    def flights(self) -> str:
        head = ["palace", "surrounded", "flanking", "flies", "self"]
        lines = [
            f"## {self.label('analysis')}",
            "",
            _row(self.label(h) for h in head),
            _rule(len(head)),
        ]
        for p in self.data["palaces"]:
            a = self.analysis[p["branch"]]
            s = a["surrounded"]
            flies = " / ".join(
                self.palace(self.palace_at[b]) if b else "—" for b in a["flies"].values()
            )
            selves = ", ".join(self.names["mutagens"][m] for m in a["self_mutagens"]) or "—"
            cells = [
                self.palace(p["name"]["key"]),
                ", ".join(
                    self.palace(self.palace_at[s[k]]) for k in ("opposite", "wealth", "career")
                ),
                ", ".join(
                    self.palace(self.palace_at[a["flanking"][k]]) for k in ("previous", "next")
                ),
                flies,
                selves,
            ]
            lines.append(_row(cells))
        return "\n".join(lines)

    def patterns(self) -> str:
        """Each pattern the chart forms: its name, group, palaces, the verse as the book
        writes it with its file and line, and any rule that breaks it."""
        from mingshu.ziwei.patterns import GROUPS

        lines = [f"## {self.label('patterns')}", ""]
        found = self.data.get("patterns") or []
        if not found:
            return "\n".join([*lines, self.label("none")])
        for p in found:
            group = self.form({**_named(GROUPS[p["group"]]), "key": p["group"]})
            where = ", ".join(self.palace(self.palace_at[b]) for b in p["palaces"])
            lines.append(
                f"- **{self.form(p)}** ({group}; {where}): 「{p['verse']}」 ({p['verse_at']})"
            )
            for b in p["broken"]:
                verse = f"「{b['verse']}」 ({b['verse_at']})"
                lines.append(f"  - {self.label('broken_by')}: {self.form(b)}: {verse}")
        return "\n".join(lines)

    def layers(self) -> str:
        h = self.horoscope
        assert h is not None
        lines = [
            f"## {self.label('horoscope')}: {h['date']} ({self.label('age')} {h['nominal_age']})",
            "",
        ]
        head = ["scope", "palace", "pillar", "mutagens", "flowing"]
        lines += [_row(self.label(x) for x in head), _rule(len(head))]
        for layer in h["layers"]:
            mutagens = ", ".join(self.transformed(k, m) for m, k in layer["mutagens"].items())
            flowing = ", ".join(
                f"{self.star(s['key'])} ({self.branch(s['branch'])})" for s in layer["stars"]
            )
            # The layer's life palace sits on its branch; name it by the natal palace there.
            where = (
                f"{self.branch(layer['branch'])} ({self.palace(self.palace_at[layer['branch']])})"
            )
            cells = [
                self.form(layer["name"]),
                where,
                self.pillar(layer["pillar"]),
                mutagens,
                flowing or "—",
            ]
            lines.append(_row(cells))
        return "\n".join(lines)

    def limit_patterns(self) -> str:
        """Each limits pattern the horoscope forms: its name, the limits and palaces that
        form it, its stars and the verse with its file and line."""
        h = self.horoscope
        assert h is not None
        lines = [f"### {self.label('limit_patterns')}", ""]
        if not h["patterns"]:
            return "\n".join([*lines, self.label("limit_none")])
        scopes = {layer["scope"]: self.form(layer["name"]) for layer in h["layers"]}
        for p in h["patterns"]:
            limits = ", ".join(scopes[s] for s in p["scopes"])
            where = ", ".join(self.palace(self.palace_at[b]) for b in p["palaces"])
            stars = ", ".join(self.star(k) for k in p["stars"])
            lines.append(
                f"- **{self.form(p)}** ({limits}; {where}; {stars}): 「{p['verse']}」 "
                f"({p['verse_at']})"
            )
        return "\n".join(lines)


def _named(names: Any) -> dict[str, str]:
    return {
        "hans": names.hans,
        "hant": names.hant,
        "pinyin": names.pinyin,
        "english": names.english,
    }


def _settings_line(settings: dict[str, Any]) -> str:
    words = [f"{k}={v}" for k, v in settings.items() if v not in ({}, False, [], None)]
    return ", ".join(words)


def _row(cells: Any) -> str:
    return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"


def _rule(n: int) -> str:
    return "|" + "---|" * n
