"""Draw the charts a :class:`~mingshu.web.query.ChartQuery` asks for, with the engines.

Engine errors (:class:`InputError`, which names its field) become :class:`FieldErrors`, so
the page shows the message next to the field and the API answers 422 naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mingshu.errors import InputError
from mingshu.web import cities
from mingshu.web.query import BAZI_SETTINGS, CHOICES, ChartQuery, FieldErrors

if TYPE_CHECKING:
    from mingshu.bazi import Annual, Chart
    from mingshu.birth import Birth
    from mingshu.ziwei import Horoscope, NatalChart

__all__ = [
    "Charts",
    "Place",
    "annual_of",
    "bazi_of",
    "draw",
    "horoscope_of",
    "place_of",
    "ziwei_of",
    "ziwei_settings",
]

# Form fields the engines' own field names map to (the engines say "longitude", the form
# "lon"; "settings" errors belong to the settings fields).
_FIELD: dict[str, str] = {
    "longitude": "lon",
    "birth_date": "date",
    "true_solar_time": "true_solar",
    "star_variants": "star",
    "late_rat_hour": "late_rat_hour",
}


def _field(e: InputError) -> str:
    return _FIELD.get(e.field, e.field)


@dataclass(frozen=True, slots=True)
class Place:
    tz: str | None
    longitude: str | None
    label: str


def place_of(q: ChartQuery) -> Place:
    """The time zone and longitude the query gives (a city fills both)."""
    tz = q.tz or None
    lon = q.lon or None
    label = ""
    if q.city:
        city = cities.by_id(int(q.city))
        if city is None:
            raise FieldErrors({"city": f"no city with id {q.city[:20]}"})
        tz = tz or city.timezone
        lon = lon or f"{city.longitude:.4f}"
        label = city.label
    if q.true_solar and lon is None:
        raise FieldErrors({"lon": "true solar time needs the birth longitude (pick a city)"})
    if q.true_solar and tz is None:
        raise FieldErrors({"tz": "true solar time needs the time zone (pick a city)"})
    return Place(tz, lon, label)


def ziwei_settings(q: ChartQuery) -> Any:
    return _ziwei_settings(q.settings, q.true_solar)


# The engines' settings are pure functions of the query's setting words: made once for
# each choice of them, not for every chart (a third of a new Zi Wei chart's API call).
@lru_cache(maxsize=256)
def _ziwei_settings(chosen: tuple[tuple[str, str], ...], true_solar: bool) -> Any:
    from mingshu.ziwei import ZiweiSettings

    q = ChartQuery(date="", gender="", settings=chosen, true_solar=true_solar)
    words: dict[str, Any] = {name: q.setting(name) for name in CHOICES}
    try:
        return ZiweiSettings(
            **words,
            true_solar_time=q.true_solar,
            equation_of_time=q.setting("equation_of_time") == "1",
        )
    except InputError as e:
        raise FieldErrors({_field(e): e.message}) from None


def _birth(
    q: ChartQuery,
    hour: str | int,
    tz: str | None,
    longitude: str | None,
    true_solar_time: bool,
    equation_of_time: bool,
) -> Birth:
    """The birth an engine draws, as its ``chart(...)`` reads the query's fields.  With a
    zone both engines ask for the same one (the same clock, zone, longitude and solar
    time settings): the last few are kept, so a page works it out once, not per engine.
    Without one they never do (BaZi reads the clock as Beijing's): nothing is kept."""
    args = (
        q.date, hour, q.gender, q.calendar == "lunar", q.leap, tz, longitude, q.fold,
        true_solar_time, equation_of_time,
    )  # fmt: skip
    return _birth_of(*args) if tz is not None else _birth_of.__wrapped__(*args)


@lru_cache(maxsize=4)
def _birth_of(
    date: str,
    hour: str | int,
    gender: str,
    lunar: bool,
    leap: bool,
    tz: str | None,
    longitude: str | None,
    fold: int,
    true_solar_time: bool,
    equation_of_time: bool,
) -> Birth:
    from mingshu.birth import Birth

    return Birth.of(
        date, hour, gender, lunar=lunar, leap=leap, tz=tz, longitude=longitude, fold=fold,
        true_solar_time=true_solar_time, equation_of_time=equation_of_time,
    )  # fmt: skip


def _hour(q: ChartQuery, time_index: int | None) -> str | int:
    if time_index is not None:
        return time_index
    return q.time


@lru_cache(maxsize=64)
def _check_place(tz: str | None, longitude: str | None) -> None:
    """The zone and longitude as a birth with a clock time checks them."""
    from mingshu.birth import parse_longitude, zone

    try:
        if tz is not None:
            zone(tz)
        if longitude is not None:
            parse_longitude(longitude)
            if tz is None:
                raise InputError("tz", "true solar time and longitude need the time zone (tz)")
    except InputError as e:
        raise FieldErrors({_field(e): e.message}) from None


def ziwei_of(q: ChartQuery, time_index: int | None = None) -> NatalChart:
    from mingshu import ziwei

    place = place_of(q)
    settings = ziwei_settings(q)
    tz, longitude = place.tz, place.longitude
    if time_index is not None:
        # A whole double hour has no clock time: no zone, daylight saving or solar time
        # applies (the engine refuses a time index with a zone).  The place is still
        # checked, as for a clock time: an unknown zone is refused, never ignored.
        _check_place(tz, longitude)
        tz = longitude = None
        settings = settings.replace(true_solar_time=False) if q.true_solar else settings
    try:
        birth = _birth(
            q, _hour(q, time_index), tz, longitude, settings.true_solar_time,
            settings.equation_of_time,
        )  # fmt: skip
        return ziwei.from_birth(birth, settings)
    except InputError as e:
        raise FieldErrors({_field(e): e.message}) from None


def bazi_of(q: ChartQuery) -> Chart:
    from mingshu import bazi

    place = place_of(q)
    try:
        settings = _bazi_settings(q.settings, q.stars, q.true_solar)
        # BaZi needs a zone: without one the clock is Beijing's (Zi Wei takes it as given).
        birth = _birth(
            q, q.time, place.tz or "Asia/Shanghai", place.longitude, settings.true_solar_time,
            settings.equation_of_time,
        )  # fmt: skip
        return bazi.from_birth(birth, settings)
    except InputError as e:
        raise FieldErrors({_field(e): e.message}) from None


@lru_cache(maxsize=256)
def _bazi_settings(
    chosen: tuple[tuple[str, str], ...], stars: tuple[tuple[str, str], ...], true_solar: bool
) -> Any:
    from mingshu import bazi

    q = ChartQuery(date="", gender="", settings=chosen, stars=stars, true_solar=true_solar)
    # The words were checked against the table; the settings type coerces them.
    words: dict[str, Any] = {s.name: q.setting(name) for name, s in BAZI_SETTINGS.items()}
    return bazi.BaziSettings(
        **words,
        star_variants=q.stars,
        true_solar_time=q.true_solar,
        equation_of_time=q.setting("equation_of_time") == "1",
        include_basis_pillar=q.setting("include_basis_pillar") == "1",
    )


def horoscope_of(chart: NatalChart, at: str) -> Horoscope:
    try:
        return chart.horoscope(at)
    except InputError as e:
        raise FieldErrors({"at": e.message}) from None


def annual_of(chart: Chart, year: str) -> Annual:
    try:
        return chart.annual(int(year))
    except InputError as e:
        raise FieldErrors({"year": e.message}) from None


@dataclass(frozen=True, slots=True)
class Charts:
    """Everything one chart page shows."""

    query: ChartQuery
    place: Place
    ziwei: NatalChart | None
    horoscope: Horoscope | None
    bazi: Chart | None
    annual: Annual | None
    unknown: tuple[NatalChart, ...]
    """The thirteen Zi Wei charts of the day, time index 0..12, for an unknown hour."""


def draw(q: ChartQuery) -> Charts:
    """Every chart the query asks for; :class:`FieldErrors` names each bad field."""
    place = place_of(q)
    errors: dict[str, str] = {}
    z = h = b = a = None
    unknown: tuple[NatalChart, ...] = ()
    if q.unknown_hour:
        try:
            unknown = tuple(ziwei_of(q, i) for i in range(13))
        except FieldErrors as e:
            errors.update(e.errors)
    else:
        try:
            z = ziwei_of(q)
            if q.at:
                h = horoscope_of(z, q.at)
        except FieldErrors as e:
            errors.update(e.errors)
        try:
            b = bazi_of(q)
            if q.year:
                a = annual_of(b, q.year)
        except FieldErrors as e:
            for k, v in e.errors.items():
                errors.setdefault(k, v)
    if errors:
        raise FieldErrors(errors)
    return Charts(q, place, z, h, b, a, unknown)
