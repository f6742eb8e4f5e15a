// Reference lists from iztro 2.6.0: decadalList(), yearlyList(k) and monthlyList(year).
//
// Reads JSON Lines of {"id", "date": "YYYY-M-D" (solar), "time": 0..12, "gender": "男"|"女",
// "decade": k, "year": lunar year} and writes one JSON line per input:
// {"input": …, "output": {"decadalList": […], "yearlyList": […], "monthlyList": […]}},
// each entry reduced to its fields (stars as [[name, type], …] per palace, iztro order).
//   node tools/iztro-oracle/lists.mjs < inputs.jsonl | gzip > lists.jsonl.gz
import { createRequire } from 'module';
import fs from 'fs';

const require = createRequire(import.meta.url);
const { astro } = require('iztro');

const stars = (palaces) => palaces.map((p) => p.map((s) => [s.name, s.type]));
const layer = (x) => ({
  index: x.index, heavenlyStem: x.heavenlyStem, earthlyBranch: x.earthlyBranch,
  palaceNames: x.palaceNames, mutagen: x.mutagen, stars: stars(x.stars),
});

for (const line of fs.readFileSync(0, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const input = JSON.parse(line);
  const chart = astro.bySolar(input.date, input.time, input.gender, true, 'zh-CN');
  const output = {
    decadalList: chart.decadalList().map((d) => ({ ...layer(d), ageRange: d.ageRange, yearRange: d.yearRange })),
    yearlyList: chart.yearlyList(input.decade).map((y) => ({ ...layer(y), age: y.age, year: y.year })),
    monthlyList: chart.monthlyList(input.year).map((m) => ({
      ...layer(m), month: m.month, isLeapMonth: m.isLeapMonth, part: m.part, dayRange: m.dayRange,
    })),
  };
  process.stdout.write(JSON.stringify({ input, output }) + '\n');
}
