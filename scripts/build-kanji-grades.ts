import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../test/support/processes.js';
import { eucJpArgument } from './build/euc-jp-source.js';

/**
 * Builds shared/workbench/data/kanji-grades.json, the school grade of each
 * 常用漢字: 1–6 for the 教育漢字 taught in each year of elementary school,
 * 8 for the rest of the 常用漢字 (secondary school).
 *
 * Source: KANJIDIC (Electronic Dictionary Research and Development Group,
 * CC BY-SA 4.0), its `G` field, as Debian ships it in the `kanjidic` package:
 *
 *   apt-get download kanjidic && dpkg-deb -x kanjidic_*.deb kanjidic
 *   npx tsx scripts/build-kanji-grades.ts kanjidic/usr/share/edict/kanjidic
 *
 * One string of kanji per grade: `{"1": "一右雨…", …, "8": "亜哀…"}`.
 */

function main(): void {
  const text = eucJpArgument('npx tsx scripts/build-kanji-grades.ts <path to the KANJIDIC file (EUC-JP)>');
  const grades: Record<string, string[]> = {};
  for (const line of text.split('\n')) {
    const grade = / G([1-8]) /.exec(line)?.[1];
    if (!grade || line.startsWith('#')) continue;
    (grades[grade] ??= []).push([...line][0]!);
  }
  const out = path.join(REPO_ROOT, 'shared', 'workbench', 'data', 'kanji-grades.json');
  fs.writeFileSync(
    out,
    `${JSON.stringify(Object.fromEntries(Object.entries(grades).map(([grade, list]) => [grade, list.join('')])), null, 1)}\n`,
  );
  console.log(
    `wrote ${out}: ${Object.entries(grades)
      .map(([grade, list]) => `grade ${grade} ${list.length}`)
      .join(', ')}`,
  );
}

main();
