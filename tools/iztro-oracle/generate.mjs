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

// iztro's kot() (a display name back to its i18n key) scans every translation of every
// language on each call; the analysis methods call it thousands of times per chart.  It is
// a pure function of its two arguments (the translation tables never change), so a cache
// gives the same answers in a fraction of the time.  iztro calls it through the module's
// exports object, so replacing the export reaches every caller.
const i18n = require('iztro/lib/i18n');
const kotUncached = i18n.kot;
const kotCache = new Map();
i18n.kot = (value, k) => {
  const key = `${typeof value}\u0000${value}\u0000${k}`;
  if (!kotCache.has(key)) kotCache.set(key, kotUncached(value, k));
  return kotCache.get(key);
};
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
  'horoscope', 'horoscope_time', 'astro_type', 'config', 'analysis',
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
  checkBool('analysis', inp.analysis);
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

// ---- analysis (input "analysis": true): iztro's answers to the chart questions ----

const MUTAGENS = ['禄', '权', '科', '忌'];
const SCOPES = ['origin', 'decadal', 'age', 'yearly', 'monthly', 'daily', 'hourly'];
const PALACE_NAMES = ['命宫', '兄弟', '夫妻', '子女', '财帛', '疾厄', '迁移', '仆役', '官禄', '田宅', '福德', '父母'];
const ASKED_PALACES = ['命宫'];

// Per natal palace, keyed by its branch: surroundedPalaces, flankingPalaces, mutagedPlaces
// and the mutagens selfMutaged(m) is true for.  Branches are iztro's zh-CN names.
function natalAnalysis(a) {
  const out = {};
  for (const p of a.palaces) {
    const s = a.surroundedPalaces(p.index);
    const f = a.flankingPalaces(p.index);
    const palace = a.palace(p.index);
    out[p.earthlyBranch] = {
      surrounded: {
        target: s.target.earthlyBranch,
        opposite: s.opposite.earthlyBranch,
        wealth: s.wealth.earthlyBranch,
        career: s.career.earthlyBranch,
      },
      flanking: { previous: f.previous.earthlyBranch, next: f.next.earthlyBranch },
      flies: palace.mutagedPlaces().map((q) => (q ? q.earthlyBranch : null)),
      self_mutagens: MUTAGENS.filter((m) => palace.selfMutaged(m)),
      has_mutagen: MUTAGENS.filter((m) => palace.hasMutagen(m)),
      is_empty: palace.isEmpty(),
    };
  }
  return out;
}

// Per scope and palace name: the branch of horoscope.palace(name, scope); the mutagens
// hasHoroscopeMutagen is true for; for a few palace names, the decadal and yearly flowing
// stars hasHoroscopeStars(name, scope, [star]) is true for.
function horoscopeAnalysis(h) {
  const flowing = [...h.decadal.stars.flat(), ...h.yearly.stars.flat()].map((s) => s.name);
  const out = { agePalace: h.agePalace().earthlyBranch, scopes: {} };
  for (const scope of SCOPES) {
    const rows = {};
    for (const name of PALACE_NAMES) {
      const row = { palace: h.palace(name, scope).earthlyBranch };
      if (scope !== 'origin') row.mutagens = MUTAGENS.filter((m) => h.hasHoroscopeMutagen(name, scope, m));
      if (ASKED_PALACES.includes(name)) row.stars = flowing.filter((star) => h.hasHoroscopeStars(name, scope, [star]));
      rows[name] = row;
    }
    out.scopes[scope] = rows;
  }
  return out;
}

// The palaces iztro's role names find (getPalace: the palace flagged isBodyPalace or
// isOriginalPalace), on the natal chart and through horoscope.palace(role, 'origin'), with
// surroundedPalaces of each; null for a role no palace holds (来因 on 子 or 丑).
function roleAnalysis(a, h) {
  const out = {};
  for (const role of ['身宫', '来因']) {
    const palace = a.palace(role);
    if (palace === undefined) {
      out[role] = null;
      continue;
    }
    const s = a.surroundedPalaces(role);
    out[role] = {
      palace: palace.earthlyBranch,
      surrounded: [s.target, s.opposite, s.wealth, s.career].map((p) => p.earthlyBranch),
    };
    if (h !== undefined) out[role].origin = h.palace(role, 'origin').earthlyBranch;
  }
  return out;
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
  let horoscope;
  if (inp.horoscope !== undefined) {
    horoscope = astrolabe.horoscope(inp.horoscope, inp.horoscope_time);
    out.horoscope = horoscopeRecord(horoscope);
  }
  if (inp.analysis && language === 'zh-CN') {
    out.analysis = { palaces: natalAnalysis(astrolabe) };
    if (horoscope !== undefined) out.analysis.horoscope = horoscopeAnalysis(horoscope);
    out.analysis.roles = roleAnalysis(astrolabe, horoscope);
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
