#!/usr/bin/env node
// Build src/mingshu/ziwei/data/locales.toml from iztro 2.6.0's locale tables (MIT).
//
//   node tools/build_locales.mjs > src/mingshu/ziwei/data/locales.toml
//
// Needs `npm ci` in tools/iztro-oracle (iztro is read from its node_modules).  Copies the
// names as they are, keyed by iztro's i18n keys, one table per category and language; the
// Python side (mingshu.ziwei.locale) finds our objects in them.  Dev tool only.
import { createRequire } from 'node:module';

const require = createRequire(new URL('./iztro-oracle/package.json', import.meta.url));
const VERSION = require('iztro/package.json').version;
const LANGUAGES = ['zh-CN', 'zh-TW', 'en-US', 'ja-JP', 'ko-KR', 'vi-VN'];
const CATEGORIES = [
  'star', 'palace', 'brightness', 'mutagen', 'heavenlyStem', 'earthlyBranch',
  'fiveElementsClass', 'gender',
];
const base = 'iztro/lib/i18n/locales';
const str = (s) => JSON.stringify(s); // a JSON string is a TOML basic string

const lines = [
  `# Names in iztro ${VERSION}'s six languages, copied by tools/build_locales.mjs from the iztro`,
  '# npm package (MIT): lib/i18n/locales/<language>/{star,palace,brightness,mutagen,heavenlyStem,',
  '# earthlyBranch,fiveElementsClass,gender}.js and common.json.  Do not edit by hand: rebuild.',
  '# Keys are iztro\'s i18n keys; mingshu.ziwei.locale maps our objects onto them.',
  '',
  '[source]',
  `title = "iztro ${VERSION} src/i18n/locales"`,
  `url = "https://github.com/SylarLong/iztro/tree/v${VERSION}/src/i18n/locales"`,
  'license = "MIT"',
  `languages = [${LANGUAGES.map(str).join(', ')}]`,
];
const tables = {};
for (const language of LANGUAGES) {
  for (const category of CATEGORIES) {
    const entries = require(`${base}/${language}/${category}`).default;
    for (const [key, name] of Object.entries(entries)) {
      ((tables[category] ??= {})[key] ??= {})[language] = name;
    }
  }
  for (const [key, name] of Object.entries(require(`${base}/${language}/common.json`))) {
    ((tables.common ??= {})[key] ??= {})[language] = name;
  }
}
for (const category of [...CATEGORIES, 'common']) {
  for (const [key, names] of Object.entries(tables[category])) {
    lines.push('', `[${category}.${key}]`);
    for (const language of LANGUAGES) {
      if (names[language] !== undefined) lines.push(`${str(language)} = ${str(names[language])}`);
    }
  }
}
process.stdout.write(lines.join('\n') + '\n');
