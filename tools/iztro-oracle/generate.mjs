#!/usr/bin/env node
// The iztro oracle: chart inputs with iztro 2.6.0 and write records in exactly the format of
// tests/fixtures/iztro-2.6.0/ (see the README there for the schema and normalization rules).
//
//   node generate.mjs [IN.jsonl] > OUT.jsonl        (no file, or "-": read standard input)
//
// Reads JSON Lines, one input object per line (blank lines are skipped); writes one
// {"input": ..., "output": ...} line per input, in input order.  Dev tool only: it is not
// part of the Python package.

// Dates without a time are read by dayjs/Date as local midnight; in a zone with a DST gap at
// midnight (Asia/Shanghai 1986-1991) that becomes 01:00 and changes the horoscope hour.
// The reference files were made in UTC.  Node re-reads TZ when it is assigned.
process.env.TZ = 'UTC';

import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const { astro } = require('iztro');
const IZTRO_VERSION = require('iztro/package.json').version;

const LANGUAGES = ['zh-CN', 'zh-TW', 'en-US', 'ja-JP', 'ko-KR', 'vi-VN'];
const GENDERS = ['男', '女', 'male', 'female'];
const ASTRO_TYPES = ['heaven', 'earth', 'human'];
const SCALAR_CONFIG = {
  yearDivide: ['normal', 'exact'],
  horoscopeDivide: ['normal', 'exact'],
  ageDivide: ['normal', 'birthday'],
  dayDivide: ['forward', 'current'],
  algorithm: ['default', 'zhongzhou'],
};
const INPUT_KEYS = new Set([
  'id', 'date', 'time', 'gender', 'by', 'leap', 'fix_leap', 'lang',
  'horoscope', 'horoscope_time', 'astro_type', 'config',
]);
const DATE_RE = /^\d{1,4}-\d{1,2}-\d{1,2}$/;

// iztro's config lives in module-level variables that config() only overwrites (scalars) or
// merges into (mutagens, brightness); there is no reset API.  Snapshot the defaults of this
// fresh process once, and restore them before every record.
const DEFAULTS = (() => {
  const c = astro.getConfig();
  const scalars = {};
  for (const key of Object.keys(SCALAR_CONFIG)) scalars[key] = c[key];
  return scalars;
})();

function resetConfig() {
  const c = astro.getConfig();
  // getConfig() hands out the module-level objects themselves, so clearing them resets them.
  for (const key of Object.keys(c.mutagens)) delete c.mutagens[key];
  for (const key of Object.keys(c.brightness)) delete c.brightness[key];
  astro.config({ ...DEFAULTS });
}

class InputProblem extends Error {}

function bad(field, message) {
  throw new InputProblem(`${field}: ${message}`);
}

function checkTimeIndex(field, value) {
  if (!Number.isInteger(value) || value < 0 || value > 12) {
    bad(field, `expected an integer 0..12, got ${JSON.stringify(value)}`);
  }
}

function checkDate(field, value) {
  if (typeof value !== 'string' || !DATE_RE.test(value)) {
    bad(field, `expected "YYYY-M-D", got ${JSON.stringify(value)}`);
  }
}

function checkBool(field, value) {
  if (value !== undefined && typeof value !== 'boolean') {
    bad(field, `expected true or false, got ${JSON.stringify(value)}`);
  }
}

function languagesOf(lang) {
  if (lang === undefined) return ['zh-CN'];
  const list = Array.isArray(lang) ? lang : [lang];
  for (const l of list) {
    if (!LANGUAGES.includes(l)) bad('lang', `unknown language ${JSON.stringify(l)} (one of ${LANGUAGES.join(', ')})`);
  }
  return list;
}

function validate(inp) {
  if (inp === null || typeof inp !== 'object' || Array.isArray(inp)) {
    bad('input', 'expected a JSON object');
  }
  for (const key of Object.keys(inp)) {
    if (!INPUT_KEYS.has(key)) bad(key, 'unknown input key');
  }
  checkDate('date', inp.date);
  checkTimeIndex('time', inp.time);
  if (!GENDERS.includes(inp.gender)) bad('gender', `expected one of ${GENDERS.join(', ')}, got ${JSON.stringify(inp.gender)}`);
  if (inp.by !== undefined && inp.by !== 'solar' && inp.by !== 'lunar') {
    bad('by', `expected "solar" or "lunar", got ${JSON.stringify(inp.by)}`);
  }
  checkBool('leap', inp.leap);
  checkBool('fix_leap', inp.fix_leap);
  languagesOf(inp.lang);
  if (inp.horoscope !== undefined) checkDate('horoscope', inp.horoscope);
  if (inp.horoscope_time !== undefined) {
    checkTimeIndex('horoscope_time', inp.horoscope_time);
    if (inp.horoscope === undefined) bad('horoscope_time', 'given without "horoscope"');
  }
  if (inp.astro_type !== undefined && !ASTRO_TYPES.includes(inp.astro_type)) {
    bad('astro_type', `expected one of ${ASTRO_TYPES.join(', ')}, got ${JSON.stringify(inp.astro_type)}`);
  }
  if (inp.config !== undefined) {
    const cfg = inp.config;
    if (cfg === null || typeof cfg !== 'object' || Array.isArray(cfg)) bad('config', 'expected an object');
    for (const [key, value] of Object.entries(cfg)) {
      if (key in SCALAR_CONFIG) {
        if (!SCALAR_CONFIG[key].includes(value)) {
          bad(`config.${key}`, `expected one of ${SCALAR_CONFIG[key].join(', ')}, got ${JSON.stringify(value)}`);
        }
      } else if (key === 'mutagens' || key === 'brightness') {
        if (value === null || typeof value !== 'object' || Array.isArray(value)) bad(`config.${key}`, 'expected an object');
        for (const [k, v] of Object.entries(value)) {
          if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) {
            bad(`config.${key}.${k}`, 'expected an array of names');
          }
        }
      } else {
        bad(`config.${key}`, 'unknown config key');
      }
    }
  }
}

// ---- normalization (tests/fixtures/iztro-2.6.0/README.md, "Normalization rules") ----

const blank = (v) => (v === undefined || v === null ? '' : v);
const natalStar = (s) => [s.name, s.type, blank(s.brightness), blank(s.mutagen)];
const flowStar = (s) => [s.name, s.type];

function chartRecord(a) {
  const l = a.rawDates.lunarDate;
  return {
    gender: a.gender,
    solarDate: a.solarDate,
    lunarDate: a.lunarDate,
    lunar: [l.lunarYear, l.lunarMonth, l.lunarDay, l.isLeap],
    chineseDate: a.chineseDate,
    time: a.time,
    timeRange: a.timeRange,
    sign: a.sign,
    zodiac: a.zodiac,
    soul: a.soul,
    body: a.body,
    fiveElementsClass: a.fiveElementsClass,
    earthlyBranchOfSoulPalace: a.earthlyBranchOfSoulPalace,
    earthlyBranchOfBodyPalace: a.earthlyBranchOfBodyPalace,
    palaces: a.palaces.map((p) => ({
      index: p.index,
      name: p.name,
      isBodyPalace: p.isBodyPalace,
      isOriginalPalace: p.isOriginalPalace,
      heavenlyStem: p.heavenlyStem,
      earthlyBranch: p.earthlyBranch,
      majorStars: p.majorStars.map(natalStar),
      minorStars: p.minorStars.map(natalStar),
      adjectiveStars: p.adjectiveStars.map(natalStar),
      changsheng12: p.changsheng12,
      boshi12: p.boshi12,
      jiangqian12: p.jiangqian12,
      suiqian12: p.suiqian12,
      decadal: [p.decadal.range[0], p.decadal.range[1], p.decadal.heavenlyStem, p.decadal.earthlyBranch],
      ages: [...p.ages],
    })),
  };
}

function layer(item, extra) {
  const out = {
    index: item.index,
    name: item.name,
    heavenlyStem: item.heavenlyStem,
    earthlyBranch: item.earthlyBranch,
    palaceNames: [...item.palaceNames],
    mutagen: [...item.mutagen],
  };
  if (item.stars !== undefined) out.stars = item.stars.map((palace) => palace.map(flowStar));
  return Object.assign(out, extra);
}

function horoscopeRecord(h) {
  return {
    solarDate: h.solarDate,
    lunarDate: h.lunarDate,
    decadal: layer(h.decadal),
    age: layer(h.age, { nominalAge: h.age.nominalAge }),
    yearly: layer(h.yearly, {
      yearlyDecStar: {
        jiangqian12: [...h.yearly.yearlyDecStar.jiangqian12],
        suiqian12: [...h.yearly.yearlyDecStar.suiqian12],
      },
    }),
    monthly: layer(h.monthly),
    daily: layer(h.daily),
    hourly: layer(h.hourly),
  };
}

// Chart one input in one language.  The language is process-global in iztro (i18next), and
// horoscope() translates with whatever is current, so it is set right before both calls.
function chartIn(inp, language) {
  const astrolabe = astro.withOptions({
    type: inp.by === 'lunar' ? 'lunar' : 'solar',
    dateStr: inp.date,
    timeIndex: inp.time,
    gender: inp.gender,
    isLeapMonth: inp.leap,
    fixLeap: inp.fix_leap,
    language,
    astroType: inp.astro_type,
  });
  const out = { chart: chartRecord(astrolabe) };
  if (inp.horoscope !== undefined) {
    out.horoscope = horoscopeRecord(astrolabe.horoscope(inp.horoscope, inp.horoscope_time));
  }
  return out;
}

function configEcho() {
  const c = astro.getConfig();
  return JSON.parse(JSON.stringify({
    yearDivide: c.yearDivide,
    horoscopeDivide: c.horoscopeDivide,
    ageDivide: c.ageDivide,
    dayDivide: c.dayDivide,
    algorithm: c.algorithm,
    mutagens: c.mutagens,
    brightness: c.brightness,
  }));
}

function recordFor(inp) {
  const id = inp !== null && typeof inp === 'object' && inp.id !== undefined ? inp.id : null;
  try {
    validate(inp);
    resetConfig();
    const out = { id, ok: true, iztro: IZTRO_VERSION };
    if (inp.config !== undefined) {
      astro.config(inp.config);
      out.config = configEcho();
    }
    Object.assign(out, chartIn(inp, 'zh-CN'));
    for (const language of languagesOf(inp.lang)) {
      if (language !== 'zh-CN') out[language] = chartIn(inp, language);
    }
    return out;
  } catch (err) {
    return { id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

function generateLine(line) {
  let inp;
  try {
    inp = JSON.parse(line);
  } catch (err) {
    // The input is not JSON: echo the raw line so the record still says what came in.
    return JSON.stringify({ input: line, output: { id: null, ok: false, error: `bad JSON: ${err.message}` } });
  }
  return JSON.stringify({ input: inp, output: recordFor(inp) });
}

async function main() {
  const path = process.argv[2];
  const input = path === undefined || path === '-' ? process.stdin : createReadStream(path, 'utf8');
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const text = generateLine(line);
    if (!process.stdout.write(text + '\n')) {
      await new Promise((resolve) => process.stdout.once('drain', resolve));
    }
  }
}

await main();
