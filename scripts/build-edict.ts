import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO_ROOT } from '../test/support/processes.js';
import { eucJpArgument } from './build/euc-jp-source.js';

/**
 * Builds shared/text/data/edict-ja-en.tsv.gz, the Japanese–English word list the
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
  const text = eucJpArgument('npx tsx scripts/build-edict.ts <path to the EDICT file (EUC-JP)>');
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
  const out = path.join(REPO_ROOT, 'shared', 'text', 'data', 'edict-ja-en.tsv.gz');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, zlib.gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
  console.log(`${lines.length} headwords → ${path.relative(REPO_ROOT, out)} (${fs.statSync(out).size} bytes)`);
}

/**
 * The headword without its reading ("和室 [わしつ]" → "和室"), as `\s*\[.*\]$` cut it: from the first "[" with the
 * spaces before it, when the text ends with "]". The head of one line of an EUC-JP file holds no line break (EUC-JP
 * has no U+2028 or U+2029, and a CRLF's \r comes after the glosses), so nothing stops the regex's `.`. A scan: the
 * regex tried each "[" and each space with a scan to the end.
 */
function withoutReading(head: string): string {
  const open = head.indexOf('[');
  return open >= 0 && head.endsWith(']') ? head.slice(0, open).trimEnd() : head;
}

const CLOSING_MARK: Readonly<Record<string, string>> = { '(': ')', '{': '}' };

/**
 * The gloss with each note, "(…)" or "{…}" up to the next closing mark, replaced by a space, as
 * `/\([^)]*\)|\{[^}]*\}/g` did. A scan that remembers where the next closing mark is: the regex looked for it again
 * from each "(" of a long row without one.
 */
function withoutNotes(gloss: string): string {
  const next = new Map<string, number>();
  let out = '';
  let copied = 0;
  for (let at = 0; at < gloss.length; at++) {
    const closing = CLOSING_MARK[gloss[at]!];
    if (!closing) continue;
    let close = next.get(closing);
    if (close === undefined || (close >= 0 && close <= at)) next.set(closing, (close = gloss.indexOf(closing, at + 1)));
    if (close < 0) continue;
    out += `${gloss.slice(copied, at)} `;
    copied = close + 1;
    at = close;
  }
  return out + gloss.slice(copied);
}

/** `和室 [わしつ] /(n) Japanese-style room/(P)/` → the headword and its usable glosses, or null when not kept. */
export function parseLine(line: string): { head: string; glosses: string[] } | null {
  const slash = line.indexOf(' /');
  if (slash < 0 || line.startsWith('　')) return null;
  const head = withoutReading(line.slice(0, slash)).trim();
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
    const gloss = withoutNotes(raw.slice(tags.length)).replace(/\s+/g, ' ').trim().toLowerCase();
    if (!gloss || gloss.split(' ').length > MAX_GLOSS_WORDS || gloss.includes(';') || gloss.includes('\t')) continue;
    glosses.push(gloss);
  }
  return { head, glosses };
}

main();
