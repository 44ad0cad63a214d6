import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO_ROOT } from '../test/support/processes.js';

/**
 * Builds shared/forms/data/edict-ja-en.tsv.gz, the Japanese–English word list the
 * interview reads when a respondent answers a choice in the other language
 * ("A compact car" for コンパクト, 「一般で」 for "General").
 *
 * Source: EDICT (Electronic Dictionary Research and Development Group,
 * CC BY-SA 4.0), as Debian ships it in the `edict` package:
 *
 *   apt-get download edict && dpkg-deb -x edict_*.deb edict
 *   npx tsx scripts/build-edict.ts edict/usr/share/edict/edict
 *
 * Kept: entries marked common ((P)) and loanwords written in katakana, which
 * are how English words enter Japanese answers. Senses marked archaic,
 * obsolete, rare, vulgar or slang are dropped, as are glosses longer than
 * five words (definitions, not translations). One line per headword:
 * `headword<TAB>gloss; gloss; …`, headwords sorted.
 */

const DROPPED_SENSES = /\((?:arch|obs|obsc|rare|vulg|sl|X|male|fem|hum|joc|derog|poet|euph)\)/;
const MAX_GLOSS_WORDS = 5;

function main(): void {
  const source = process.argv[2];
  if (!source) {
    console.error('usage: npx tsx scripts/build-edict.ts <path to the EDICT file (EUC-JP)>');
    process.exit(2);
  }
  const text = new TextDecoder('euc-jp').decode(fs.readFileSync(source));
  const byHead = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const entry = parseLine(line);
    if (!entry) continue;
    const glosses = byHead.get(entry.head) ?? [];
    for (const g of entry.glosses) if (!glosses.includes(g)) glosses.push(g);
    byHead.set(entry.head, glosses);
  }
  const lines = [...byHead]
    .filter(([, g]) => g.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([head, glosses]) => `${head}\t${glosses.join('; ')}`);
  const out = path.join(REPO_ROOT, 'shared', 'forms', 'data', 'edict-ja-en.tsv.gz');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, zlib.gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
  console.log(`${lines.length} headwords → ${path.relative(REPO_ROOT, out)} (${fs.statSync(out).size} bytes)`);
}

/** `和室 [わしつ] /(n) Japanese-style room/(P)/` → the headword and its usable glosses, or null when not kept. */
export function parseLine(line: string): { head: string; glosses: string[] } | null {
  const slash = line.indexOf(' /');
  if (slash < 0 || line.startsWith('　')) return null;
  const head = line.slice(0, slash).replace(/\s*\[.*\]$/, '').trim();
  const common = line.includes('/(P)/');
  const loanword = /^[\p{Script=Katakana}ー・]+$/u.test(head);
  if (!head || (!common && !loanword)) return null;
  const glosses: string[] = [];
  let dropped = false;
  for (const raw of line.slice(slash + 2).split('/')) {
    if (!raw || raw === '(P)' || raw.startsWith('EntL')) continue;
    // A sense number ("(2)") starts a new sense: its own tags decide whether it is kept.
    const tags = raw.match(/^(?:\s*(?:\([^)]*\)|\{[^}]*\}))+/)?.[0] ?? '';
    if (/\(\d+\)/.test(tags)) dropped = false;
    if (DROPPED_SENSES.test(tags)) dropped = true;
    if (dropped) continue;
    const gloss = raw
      .slice(tags.length)
      .replace(/\([^)]*\)|\{[^}]*\}/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase();
    if (!gloss || gloss.split(' ').length > MAX_GLOSS_WORDS || gloss.includes(';') || gloss.includes('\t')) continue;
    glosses.push(gloss);
  }
  return { head, glosses };
}

main();
