import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { tokenizeInPieces } from '@convo/text';
import { toHiragana } from 'wanakana';
import { kanjiGradeNamed } from '../subjects.js';
import { multipleChoice, placeAnswer, recordKey, seededRandom, shuffle, type GeneratedProblem, type GeneratorInput } from './random.js';

export type { GeneratedProblem, GeneratorInput } from './random.js';

/**
 * 漢字の読み: problems on the reading of two- and three-kanji common nouns.
 *
 * Words and readings come from IPADIC, the dictionary kuromoji ships (its
 * token info dictionary is walked entry by entry). A word's cost there is how
 * unlikely the analyser finds it (lower = more common), so difficulty is a band
 * of the words ranked by cost. Wrong choices are misreadings a learner makes:
 * another reading of one of the kanji (taken from other dictionary words, whose
 * readings are split over their kanji when only one split fits), voicing
 * (rendaku) added or dropped, a small っ added or dropped, a long vowel added
 * or dropped. None of them is a reading the dictionary gives the word.
 */

type ByteBuffer = { buffer: Uint8Array };
type KuromojiDictionaries = { token_info_dictionary: { dictionary: ByteBuffer; pos_buffer: ByteBuffer } };
type KuromojiToken = { surface_form: string; reading?: string };
type KuromojiTokenizer = { tokenize(text: string): KuromojiToken[] };

/** One part of a word's reading: the kana one kanji stands for, and its dictionary form if sound change altered it. */
export type Part = { char: string; kana: string; base: string; change: 'none' | 'rendaku' | 'sokuon' };

/**
 * A reading of a kanji: in how many dictionary words it was seen, and a common word that shows it
 * (null when only the kanji standing alone does).
 */
export type Evidence = { count: number; example: { surface: string; reading: string } | null; common: boolean };

export type KanjiWord = {
  surface: string;
  reading: string;
  /** 0 = most common candidate. */
  rank: number;
  /** The cost percentile the rank was sorted by (0 = commonest). */
  score: number;
  /** How the reading splits over the kanji, when exactly one split fits the known readings. */
  parts: Part[] | null;
};

export type KanjiData = {
  words: KanjiWord[];
  bySurface: Map<string, KanjiWord>;
  /** Every reading (hiragana) the dictionary gives each surface of one to three kanji, over all its entries. */
  readingsOf: Map<string, Set<string>>;
  /** Known readings of each kanji. */
  kanjiReadings: Map<string, Map<string, Evidence>>;
  /** In how many of the commonest candidate words each kanji appears. */
  familiarity: Map<string, number>;
  tokenizer: KuromojiTokenizer;
  loadMs: number;
};

const require = createRequire(import.meta.url);

const WORD = /^\p{Unified_Ideograph}{2,3}$/u;
const SHORT = /^\p{Unified_Ideograph}{1,3}$/u;
const OKURIGANA = /^(\p{Unified_Ideograph})(\p{Script=Hiragana}+)$/u;
const HIRAGANA = /^[ぁ-ゖ]+$/;

/** Kanji a school worksheet leaves out: sexual, excretory, violent, or used in slurs. */
const BLOCKED_KANJI = new Set([...'姦淫娼妓屍糞尿屎妾嫖媚痴狂殺乞聾啞唖盲癩跛穢膣睾肛勃淋梅毒麻薬賭屠']);
/** Words of otherwise harmless kanji left out for the same reason, alone or inside a longer word (連小便). */
const BLOCKED_WORDS = new Set([
  '死体',
  '死骸',
  '死刑',
  '自殺',
  '他殺',
  '心中',
  '強姦',
  '売春',
  '買春',
  '売女',
  '春画',
  '性交',
  '性器',
  '性欲',
  '性病',
  '陰部',
  '陰毛',
  '男根',
  '女陰',
  '精液',
  '射精',
  '自慰',
  '情婦',
  '愛人',
  '痴漢',
  '変態',
  '大麻',
  '阿片',
  '覚醒剤',
  '博徒',
  '暴力団',
  '極道',
  '切腹',
  '拷問',
  '虐待',
  '支那',
  '土人',
  '非人',
  '鮮人',
  '毛唐',
  '部落',
  '片輪',
  '不具',
  '白人',
  '黒人',
  '低能',
  '白痴',
  '気違',
  '下女',
  '女中',
  '淫売',
  '遊女',
  '裸体',
  '全裸',
  '乳房',
  '陰茎',
  '睾丸',
  '便所',
  '小便',
  '大便',
  '便器',
  '便意',
  '検便',
  '糞便',
  '排泄',
  '下痢',
  '嘔吐',
  '自害',
  '絞首',
  '斬首',
  '処刑',
  '遺体',
  '首吊',
  '爆弾',
  '戦死',
  '溺死',
  '焼死',
  '惨死',
]);

const NUMERALS = new Set([...'二三四五六七八九十百千万']);
const SMALL = new Set([...'ぁぃぅぇぉゃゅょゎっ']);
const VOICED: Record<string, string> = {};
const UNVOICED: Record<string, string> = {};
for (const pair of 'かが きぎ くぐ けげ こご さざ しじ すず せぜ そぞ ただ ちぢ つづ てで とど はば ひび ふぶ へべ ほぼ'.split(' ')) {
  VOICED[pair[0]!] = pair[1]!;
  UNVOICED[pair[1]!] = pair[0]!;
}
const SEMI_VOICED: Record<string, string> = { は: 'ぱ', ひ: 'ぴ', ふ: 'ぷ', へ: 'ぺ', ほ: 'ぽ' };
for (const [plain, semi] of Object.entries(SEMI_VOICED)) UNVOICED[semi] = plain;
/** Kana a small っ may stand before (k, s, t, p rows; h becomes p after it). */
const GEMINABLE = new Set([...'かきくけこさしすせそたちつてとぱぴぷぺぽ']);
const O_ROW = new Set([...'おこそとのほもよろをごぞどぼぽょ']);
const U_ROW = new Set([...'うくすつぬふむゆるぐずづぶぷゅ']);
const E_ROW = new Set([...'えけせてねへめれげぜでべぺ']);
/** U-row kana whose long form is a common reading (ゆ/ゆう, ふ/ふう, す/すう, つ/つう). */
const LENGTHENED_U = new Set([...'ゆゅふすつぬむ']);
const I_ROW = new Set([...'きしちにひみりぎじびぴぢ']);

/** Whether a string of hiragana could be read aloud: no small kana, ん or っ where Japanese has none. */
function wellFormed(kana: string): boolean {
  if (!HIRAGANA.test(kana)) return false;
  const chars = [...kana];
  const first = chars[0]!;
  if (SMALL.has(first) || first === 'ん' || first === 'ゖ' || first === 'ゕ') return false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const prev = chars[i - 1];
    if (ch === 'っ') {
      const next = chars[i + 1];
      if (next === undefined || !GEMINABLE.has(next) || prev === 'っ' || prev === 'ん') return false;
    }
    if ((ch === 'ゃ' || ch === 'ゅ' || ch === 'ょ') && (prev === undefined || !I_ROW.has(prev))) return false;
    if ('ぁぃぅぇぉゎ'.includes(ch)) return false;
  }
  return true;
}

const hiraganaCache = new Map<string, string | null>();

/** An IPADIC reading (katakana) in hiragana, or null when it has none or is not plain kana. */
function hiragana(katakana: string | undefined): string | null {
  if (!katakana || katakana === '*') return null;
  let kana = hiraganaCache.get(katakana);
  if (kana === undefined) {
    const converted = toHiragana(katakana);
    kana = HIRAGANA.test(converted) ? converted : null;
    hiraganaCache.set(katakana, kana);
  }
  return kana;
}

/** The sorted costs of one group of entries, so a cost can be turned into a percentile within its group. */
class CostGroups {
  private readonly costs = new Map<number, number[]>();
  add(group: number, cost: number): void {
    const list = this.costs.get(group) ?? [];
    list.push(cost);
    this.costs.set(group, list);
  }
  freeze(): void {
    for (const list of this.costs.values()) list.sort((a, b) => a - b);
  }
  /** Share of the group's entries cheaper (more common) than `cost`: 0 = the most common. */
  percentile(group: number, cost: number): number {
    const list = this.costs.get(group);
    if (!list || list.length === 0) return 1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < cost) lo = mid + 1;
      else hi = mid;
    }
    return lo / list.length;
  }
}

type RawEntry = {
  surface: string;
  pos: string;
  pos1: string;
  ctype: string;
  base: string;
  reading: string | null;
  leftId: number;
  cost: number;
};

/**
 * Calls `visit` for every entry of the token info dictionary, in order: its left context id (one
 * per part of speech and conjugated form), its cost and its features (surface, POS…, base form,
 * reading, pronunciation). Entries are 10 bytes (left id, right id, cost: int16; feature offset:
 * int32), their feature strings written one after another, both buffers padded with zeros.
 */
function walkDictionary(dic: KuromojiDictionaries, visit: (leftId: number, cost: number, features: string) => void): void {
  const { dictionary, pos_buffer: posBuffer } = dic.token_info_dictionary;
  const bytes = dictionary.buffer;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 1;
  while ((count + 1) * 10 <= bytes.length && view.getInt32(count * 10 + 6, true) !== 0) count++;
  const features = posBuffer.buffer;
  let end = features.indexOf(0, view.getInt32((count - 1) * 10 + 6, true));
  if (end < 0) end = features.length;
  const strings = new TextDecoder().decode(features.subarray(0, end)).split('\0');
  if (strings.length !== count) throw new Error(`kuromoji dictionary: ${count} entries but ${strings.length} feature strings`);
  for (let i = 0; i < count; i++) visit(view.getInt16(i * 10, true), view.getInt16(i * 10 + 4, true), strings[i]!);
}

function loadKuromojiDictionaries(): Promise<{ dic: KuromojiDictionaries; tokenizer: KuromojiTokenizer }> {
  const dicPath = join(dirname(require.resolve('kuromoji/package.json')), 'dict');
  const Loader = require('kuromoji/src/loader/NodeDictionaryLoader.js') as new (path: string) => {
    load(callback: (err: unknown, dic: KuromojiDictionaries) => void): void;
  };
  const Tokenizer = require('kuromoji/src/Tokenizer.js') as new (dic: KuromojiDictionaries) => KuromojiTokenizer;
  return new Promise((resolve, reject) => {
    new Loader(dicPath).load((err, dic) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve({ dic, tokenizer: new Tokenizer(dic) }),
    );
  });
}

const NOUN_CANDIDATE = new Set(['一般', 'サ変接続']);
const NOUN_ALIGNABLE = new Set(['一般', 'サ変接続', '形容動詞語幹', '副詞可能']);

/** Candidate splits of `reading` into one part per kanji, each starting where a kanji reading can start. */
function splits(reading: string, n: number): string[][] {
  const chars = [...reading];
  const out: string[][] = [];
  const walk = (start: number, acc: string[]): void => {
    if (acc.length === n - 1) {
      const rest = chars.slice(start);
      if (rest.length >= 1 && rest.length <= 5 && canStart(rest[0]!)) out.push([...acc, rest.join('')]);
      return;
    }
    for (let end = start + 1; end <= Math.min(chars.length - (n - 1 - acc.length), start + 5); end++) {
      if (!canStart(chars[start]!)) return;
      walk(end, [...acc, chars.slice(start, end).join('')]);
    }
  };
  walk(0, []);
  return out;
}

function canStart(kana: string): boolean {
  return !SMALL.has(kana) && kana !== 'ん';
}

/** Readings of each kanji known so far. */
type Known = Map<string, Set<string>>;

/** How `kana` at position `index` of `n` is a known reading of `char`: as it is, voiced by rendaku, or cut short by a small っ. */
function matchPart(known: Known, char: string, kana: string, index: number, n: number, nextKana: string | undefined): Part | null {
  const readings = known.get(char);
  if (!readings) return null;
  if (readings.has(kana)) return { char, kana, base: kana, change: 'none' };
  const first = kana[0]!;
  if (index > 0 && UNVOICED[first]) {
    const base = UNVOICED[first] + kana.slice(1);
    if (readings.has(base)) return { char, kana, base, change: 'rendaku' };
  }
  if (index < n - 1 && kana.length >= 2 && kana.endsWith('っ') && nextKana && GEMINABLE.has(nextKana[0]!)) {
    for (const tail of ['つ', 'く', 'ち', 'き']) {
      const base = kana.slice(0, -1) + tail;
      if (readings.has(base)) return { char, kana, base, change: 'sokuon' };
    }
  }
  return null;
}

function addKnown(known: Known, char: string, reading: string): void {
  let readings = known.get(char);
  if (!readings) known.set(char, (readings = new Set()));
  readings.add(reading);
}

let loading: Promise<KanjiData> | null = null;

/** The word list, the kanji readings and the tokenizer, built once per process (about 2–3 s). */
export function loadKanjiData(): Promise<KanjiData> {
  loading ??= buildKanjiData();
  return loading;
}

async function buildKanjiData(): Promise<KanjiData> {
  const started = performance.now();
  const { dic, tokenizer } = await loadKuromojiDictionaries();

  const costs = new CostGroups();
  const readingsOf = new Map<string, Set<string>>();
  const properNouns = new Set<string>();
  const unreadable = new Set<string>();
  const nouns: RawEntry[] = [];
  const seeds: RawEntry[] = [];
  const okurigana: RawEntry[] = [];
  /** Surfaces of three or more characters, proper nouns left out: a word that recurs inside them is a building block of the vocabulary. */
  const longer = new Set<string>();
  walkDictionary(dic, (leftId, cost, features) => {
    costs.add(leftId, cost);
    const surface = features.slice(0, features.indexOf(','));
    if (surface.length >= 3 && !features.includes(',固有名詞,')) longer.add(surface);
    const short = SHORT.test(surface);
    if (!short && !(surface.length <= 6 && OKURIGANA.test(surface))) return;
    const fields = features.split(',');
    const entry: RawEntry = {
      surface,
      pos: fields[1]!,
      pos1: fields[2]!,
      ctype: fields[5]!,
      base: fields[7]!,
      reading: hiragana(fields[8]),
      leftId,
      cost,
    };
    if (!short) {
      if ((entry.pos === '動詞' || entry.pos === '形容詞') && entry.surface === entry.base && entry.reading) okurigana.push(entry);
      return;
    }
    if (entry.pos1 === '固有名詞') properNouns.add(surface);
    if (!entry.reading) {
      if (entry.pos !== '記号') unreadable.add(surface);
      return;
    }
    let set = readingsOf.get(surface);
    if (!set) readingsOf.set(surface, (set = new Set()));
    set.add(entry.reading);
    const single = surface.length === 1;
    if (single && (entry.pos === '名詞' || entry.pos === '接頭詞') && entry.pos1 !== '固有名詞') seeds.push(entry);
    if (!single && entry.pos === '名詞' && NOUN_ALIGNABLE.has(entry.pos1)) nouns.push(entry);
  });
  costs.freeze();
  const score = (entry: RawEntry): number => costs.percentile(entry.leftId, entry.cost);

  // Readings of single kanji to start from: kanji standing alone as nouns or prefixes, and the
  // stems of verbs and adjectives written with okurigana (高い → たか).
  const known: Known = new Map();
  const alone = new Set<string>();
  for (const entry of seeds) {
    addKnown(known, entry.surface, entry.reading!);
    alone.add(`${entry.surface}:${entry.reading}`);
  }
  /** The commonest verb or adjective showing a reading before okurigana, by `kanji:reading`. */
  const stems = new Map<string, { surface: string; reading: string; score: number }>();
  for (const entry of okurigana) {
    const [, char, tail] = OKURIGANA.exec(entry.surface)!;
    const reading = entry.reading!;
    // じる/ずる/する verbs (感じる, 信ずる) hang okurigana on an on'yomi.
    if (entry.ctype.startsWith('サ変') || /^[じず]る$/.test(tail!) || !reading.endsWith(tail!) || reading.length <= tail!.length) continue;
    // Only plain okurigana (書く, 食べる, 高い, 美しい); 人なつこい or 乗あわせる are compounds half in kana.
    const plain =
      entry.pos === '動詞'
        ? tail!.length === 1 || (tail!.length === 2 && tail!.endsWith('る') && entry.ctype.startsWith('一段'))
        : tail === 'い' || tail === 'しい';
    if (!plain) continue;
    const stem = reading.slice(0, reading.length - tail!.length);
    if (!wellFormed(stem)) continue;
    addKnown(known, char!, stem);
    const key = `${char}:${stem}`;
    const seen = stems.get(key);
    if (!seen || score(entry) < seen.score) stems.set(key, { surface: entry.surface, reading, score: score(entry) });
  }

  // Nouns with one reading only, by surface, with their best (most common) entry.
  const nounBySurface = new Map<string, RawEntry>();
  for (const entry of nouns) {
    if (readingsOf.get(entry.surface)!.size !== 1 || unreadable.has(entry.surface)) continue;
    const seen = nounBySurface.get(entry.surface);
    if (!seen || score(entry) < score(seen)) nounBySurface.set(entry.surface, entry);
  }

  // Split compound readings over their kanji; a split that fits all but one kanji teaches that
  // kanji a new reading once two words agree. Three rounds reach most words.
  const align = (surface: string, reading: string): { full: Part[][]; partial: Part[][] } => {
    const chars = [...surface];
    const full: Part[][] = [];
    const partial: Part[][] = [];
    for (const split of splits(reading, chars.length)) {
      const parts: Part[] = [];
      let misses = 0;
      for (let i = 0; i < chars.length; i++) {
        const match = matchPart(known, chars[i]!, split[i]!, i, chars.length, split[i + 1]);
        if (match) parts.push(match);
        else {
          misses++;
          parts.push({ char: chars[i]!, kana: split[i]!, base: split[i]!, change: 'none' });
        }
      }
      if (misses === 0) full.push(parts);
      else if (misses === 1) partial.push(parts);
    }
    return { full, partial };
  };
  for (let round = 0; round < 3; round++) {
    const learned = new Map<string, { char: string; reading: string; words: number }>();
    for (const entry of nounBySurface.values()) {
      const { full, partial } = align(entry.surface, entry.reading!);
      if (full.length > 0 || partial.length !== 1) continue;
      const parts = partial[0]!;
      const miss = parts.find((part, i) => !matchPart(known, part.char, part.kana, i, parts.length, parts[i + 1]?.kana))!;
      if (!wellFormed(miss.kana) || miss.kana.endsWith('っ')) continue;
      const key = `${miss.char}:${miss.kana}`;
      const item = learned.get(key) ?? { char: miss.char, reading: miss.kana, words: 0 };
      item.words++;
      learned.set(key, item);
    }
    let added = 0;
    for (const { char, reading, words } of learned.values()) {
      if (words < 2) continue;
      addKnown(known, char, reading);
      added++;
    }
    if (added === 0) break;
  }
  // Final split of every noun; the words that use each reading as it is (not voiced or cut short) are its examples.
  const alignment = new Map<string, Part[] | null>();
  const uses = new Map<string, { count: number; examples: RawEntry[] }>();
  for (const entry of nounBySurface.values()) {
    const { full } = align(entry.surface, entry.reading!);
    const parts = full.length === 1 ? full[0]! : null;
    alignment.set(entry.surface, parts);
    if (!parts) continue;
    for (const part of parts) {
      const key = `${part.char}:${part.base}`;
      const use = uses.get(key) ?? { count: 0, examples: [] };
      use.count++;
      if (part.change === 'none') use.examples.push(entry);
      uses.set(key, use);
    }
  }

  // Candidates: common nouns (一般, サ変接続) of two or three kanji with exactly one reading, no proper-noun use.
  const candidates: { entry: RawEntry; score: number }[] = [];
  for (const entry of nounBySurface.values()) {
    if (!WORD.test(entry.surface) || !NOUN_CANDIDATE.has(entry.pos1) || properNouns.has(entry.surface)) continue;
    if ([...BLOCKED_WORDS].some((blocked) => entry.surface.includes(blocked)) || [...entry.surface].some((char) => BLOCKED_KANJI.has(char)))
      continue;
    const reading = entry.reading!;
    if (!wellFormed(reading) || reading.length < entry.surface.length) continue;
    // A numeral and a counter (二分: にぶん, or にふん for two minutes) may be read more ways than the dictionary lists.
    if (entry.surface.length === 2 && NUMERALS.has(entry.surface[0]!)) continue;
    candidates.push({ entry, score: score(entry) });
  }
  // IPADIC often gives a whole set of homophones one cost (思考 試行 指向 伺候 祗候 all cost the
  // same): such a cost says how common the sound is, not the word. A kanji is as common as the
  // commonest word with a cost of its own that uses it, and a word no more common than its rarest kanji.
  const sharing = new Map<string, number>();
  const costKey = (entry: RawEntry): string => `${entry.leftId}|${entry.reading}|${entry.cost}`;
  for (const { entry } of candidates) sharing.set(costKey(entry), (sharing.get(costKey(entry)) ?? 0) + 1);
  const kanjiScore = new Map<string, number>();
  const familiarity = new Map<string, number>();
  for (const { entry, score: s } of candidates) {
    if (sharing.get(costKey(entry))! > 1) continue;
    for (const char of entry.surface) {
      kanjiScore.set(char, Math.min(kanjiScore.get(char) ?? 1, s));
      if (s <= COMMON_PERCENTILE) familiarity.set(char, (familiarity.get(char) ?? 0) + 1);
    }
  }
  // サ変接続 costs follow the sound more than the word (告解 costs less than most nouns, as 国会
  // does): such a word counts as common only if longer dictionary words contain it (運転 → 運転手).
  const compounds = new Map<string, number>(candidates.map(({ entry }) => [entry.surface, 0]));
  for (const surface of longer) {
    const seen = new Set<string>();
    for (let length = 2; length <= 3; length++) {
      for (let i = 0; i + length <= surface.length; i++) {
        const part = surface.slice(i, i + length);
        if (part === surface || seen.has(part) || !compounds.has(part)) continue;
        seen.add(part);
        compounds.set(part, compounds.get(part)! + 1);
      }
    }
  }
  for (const candidate of candidates) {
    for (const char of candidate.entry.surface) candidate.score = Math.max(candidate.score, kanjiScore.get(char) ?? 1);
    // A shared cost ranks a word after those whose cost is their own.
    if (sharing.get(costKey(candidate.entry))! > 1) candidate.score += SHARED_COST_PENALTY;
    else if (candidate.entry.pos1 === 'サ変接続' && compounds.get(candidate.entry.surface) === 0)
      candidate.score += LONE_VERBAL_NOUN_PENALTY;
    candidate.score = Math.min(0.999, candidate.score);
  }
  const familiar = (surface: string): number => Math.min(...[...surface].map((char) => familiarity.get(char) ?? 0));
  candidates.sort(
    (a, b) => a.score - b.score || familiar(b.entry.surface) - familiar(a.entry.surface) || (a.entry.surface < b.entry.surface ? -1 : 1),
  );
  const words: KanjiWord[] = [];
  for (const { entry, score: s } of candidates) {
    // Every kanji must appear in some common word, or the word is a curiosity, not an exercise.
    if (s >= 1 || familiar(entry.surface) < MIN_FAMILIARITY) continue;
    words.push({
      surface: entry.surface,
      reading: entry.reading!,
      rank: words.length,
      score: s,
      parts: alignment.get(entry.surface) ?? null,
    });
  }
  const rankOf = new Map(words.map((word) => [word.surface, word.rank]));

  // A kanji's readings, each with the word a learner most likely knows that shows it: a common
  // compound, else a verb or adjective with okurigana, else any compound. Voiced variants
  // (心: ごころ beside こころ) are the same reading, not another one.
  const kanjiReadings = new Map<string, Map<string, Evidence>>();
  for (const [char, readings] of known) {
    const map = new Map<string, Evidence>();
    for (const reading of readings) {
      const devoiced = UNVOICED[reading[0]!] ? UNVOICED[reading[0]!] + reading.slice(1) : null;
      if ((devoiced && readings.has(devoiced)) || reading.endsWith('っ')) continue;
      const key = `${char}:${reading}`;
      const use = uses.get(key);
      const stem = stems.get(key);
      const count = (use?.count ?? 0) + (stem ? 1 : 0) + (alone.has(key) ? 1 : 0);
      if (count === 0) continue;
      const compound = (use?.examples ?? [])
        .map((entry) => ({ entry, rank: rankOf.get(entry.surface) ?? words.length + score(entry) * 1e6 }))
        .sort((a, b) => a.rank - b.rank || (a.entry.surface < b.entry.surface ? -1 : 1))[0];
      const commonCompound = compound && compound.rank < COMMON_EXAMPLE_RANK;
      const example =
        commonCompound || !stem
          ? compound
            ? { surface: compound.entry.surface, reading: compound.entry.reading! }
            : null
          : { surface: stem.surface, reading: stem.reading };
      map.set(reading, { count, example, common: Boolean(commonCompound || stem) });
    }
    if (map.size > 0) kanjiReadings.set(char, map);
  }

  return {
    words,
    bySurface: new Map(words.map((word) => [word.surface, word])),
    readingsOf,
    kanjiReadings,
    familiarity,
    tokenizer,
    loadMs: performance.now() - started,
  };
}

/** Candidates whose cost is in the commonest share of their group count towards a kanji's familiarity. */
const COMMON_PERCENTILE = 0.12;
const MIN_FAMILIARITY = 2;
const SHARED_COST_PENALTY = 0.3;
const LONE_VERBAL_NOUN_PENALTY = 0.15;
/** An example compound ranked this common beats a verb or adjective with okurigana. */
const COMMON_EXAMPLE_RANK = 3000;

/** Which ranks each difficulty draws from (0 = the most common word). */
const BANDS: Record<GeneratorInput['difficulty'], [number, number]> = {
  easy: [0, 500],
  normal: [500, 2000],
  hard: [2000, 6000],
};

/** The frequency rank of a word (0 = the commonest candidate), or null when it is not a candidate. */
export async function kanjiWordRank(surface: string): Promise<number | null> {
  return (await loadKanjiData()).bySurface.get(surface)?.rank ?? null;
}

/**
 * How hard a word is to read, for comparing two: the school grade of its
 * hardest kanji first (kanjiGradeOf), then its frequency rank; null when it is
 * not a candidate.
 */
export async function kanjiDifficulty(surface: string): Promise<number | null> {
  const rank = await kanjiWordRank(surface);
  return rank === null ? null : kanjiGradeOf(surface) * 100_000 + rank;
}

let grades: Map<string, number> | null = null;

/**
 * The school grade a word's kanji are all taught by: 1–6 for the 教育漢字 of
 * each elementary year, 8 for the rest of the 常用漢字, 9 when one is outside
 * them (KANJIDIC, shared/workbench/data/kanji-grades.json).
 */
export function kanjiGradeOf(surface: string): number {
  if (!grades) {
    const byGrade = JSON.parse(readFileSync(new URL('../../data/kanji-grades.json', import.meta.url), 'utf8')) as Record<string, string>;
    grades = new Map(Object.entries(byGrade).flatMap(([grade, kanji]) => [...kanji].map((char) => [char, Number(grade)] as const)));
  }
  return Math.max(...[...surface].map((char) => grades!.get(char) ?? 9));
}

/** The hardest grade each level draws from: lower elementary, all of elementary, all 常用漢字. */
const GRADE_LIMIT: Record<GeneratorInput['difficulty'], number> = { easy: 3, normal: 6, hard: 8 };

type Reason =
  | { kind: 'swap'; part: Part; alt: string; evidence: Evidence }
  | { kind: 'voiced' | 'unvoiced'; part: Part | null }
  | { kind: 'addSokuon' | 'dropSokuon'; part: Part | null }
  | { kind: 'lengthened' | 'shortened'; part: Part | null };

type Distractor = { kana: string; reason: Reason; weight: number };

function partAt(parts: Part[] | null, offset: number): Part | null {
  if (!parts) return null;
  let at = 0;
  for (const part of parts) {
    if (offset < at + part.kana.length) return part;
    at += part.kana.length;
  }
  return null;
}

/** Every misreading the rules produce for a word, before filtering. */
function misreadings(word: KanjiWord, data: KanjiData): Distractor[] {
  const out: Distractor[] = [];
  const { reading, parts } = word;
  const chars = [...reading];
  const starts: number[] = [];
  if (parts) {
    let at = 0;
    for (const part of parts) {
      starts.push(at);
      at += part.kana.length;
    }
  }
  const replaceAt = (index: number, length: number, text: string): string =>
    chars.slice(0, index).join('') + text + chars.slice(index + length).join('');

  // Another reading of one kanji (世界 → よかい: 世 is よ in 世の中).
  if (parts) {
    parts.forEach((part, i) => {
      const readings = data.kanjiReadings.get(part.char);
      if (!readings) return;
      for (const [alt, evidence] of readings) {
        if (alt === part.base || alt === part.kana || evidence.count < 2) continue;
        // Not merely the same reading voiced or cut short: those are the other rules' business.
        if (UNVOICED[alt[0]!] && UNVOICED[alt[0]!] + alt.slice(1) === part.base) continue;
        if (UNVOICED[part.base[0]!] && UNVOICED[part.base[0]!] + part.base.slice(1) === alt) continue;
        if (
          alt.length >= 2 &&
          part.base.startsWith(alt.slice(0, -1)) &&
          alt.length === part.base.length &&
          (alt.endsWith('っ') || part.base.endsWith('っ'))
        )
          continue;
        // A reading a learner may know: one a common word shows.
        if (!evidence.common) continue;
        // Sound changes the replaced reading caused go with it (立法 りっぽう → たてほう, not たてぽう).
        const kana = parts
          .map((p, j) => {
            if (j === i) return alt;
            if (j === i - 1 && p.change === 'sokuon') return p.base;
            if (j === i + 1 && p.change === 'rendaku' && SEMI_VOICED[p.base[0]!] === p.kana[0]) return p.base;
            return p.kana;
          })
          .join('');
        out.push({ kana, reason: { kind: 'swap', part, alt, evidence }, weight: 8 + Math.min(evidence.count, 8) });
      }
    });
  }

  // Voicing added or dropped where two kanji meet (or anywhere inside an unsplit reading).
  const voicingAt = parts ? starts.slice(1) : chars.map((_, i) => i).slice(1);
  for (const index of voicingAt) {
    const kana = chars[index]!;
    const part = partAt(parts, index);
    if (UNVOICED[kana]) out.push({ kana: replaceAt(index, 1, UNVOICED[kana]), reason: { kind: 'unvoiced', part }, weight: 1 });
    if (VOICED[kana]) out.push({ kana: replaceAt(index, 1, VOICED[kana]), reason: { kind: 'voiced', part }, weight: 1 });
    if (SEMI_VOICED[kana]) out.push({ kana: replaceAt(index, 1, SEMI_VOICED[kana]), reason: { kind: 'voiced', part }, weight: 1 });
  }

  // A small っ dropped (がっこう → がくこう, がこう) or added (せかい → せっかい).
  chars.forEach((kana, index) => {
    if (kana !== 'っ') return;
    const part = partAt(parts, index);
    const restored = part && part.change === 'sokuon' ? part.base.slice(-1) : null;
    if (restored) out.push({ kana: replaceAt(index, 1, restored), reason: { kind: 'dropSokuon', part }, weight: 2 });
    out.push({ kana: replaceAt(index, 1, ''), reason: { kind: 'dropSokuon', part }, weight: 1 });
  });
  const sokuonAt = parts ? starts.slice(1) : chars.map((_, i) => i).slice(1);
  for (const index of sokuonAt) {
    const next = chars[index]!;
    const prev = chars[index - 1]!;
    // Not after ん or a long vowel: とうっしゅ is no slip anyone makes.
    if (!GEMINABLE.has(next) || 'っんーうい'.includes(prev)) continue;
    const part = partAt(parts, index - 1);
    if ('つくちき'.includes(prev) && index >= 2)
      out.push({ kana: replaceAt(index - 1, 1, 'っ'), reason: { kind: 'addSokuon', part }, weight: 2 });
    out.push({ kana: replaceAt(index, 0, 'っ'), reason: { kind: 'addSokuon', part }, weight: 1 });
  }

  // A long vowel dropped (こう → こ, しょう → しょ, せい → せ) or added (こ → こう), on the one-syllable
  // (on'yomi-like) reading of a kanji; not on readings a split could not find.
  if (parts) {
    starts.forEach((start, i) => {
      const part = parts[i]!;
      const syllable = [...part.kana];
      const last = start + syllable.length - 1;
      const longVowel =
        syllable.length >= 2 &&
        ((syllable.at(-1) === 'う' && (O_ROW.has(syllable.at(-2)!) || U_ROW.has(syllable.at(-2)!))) ||
          (syllable.at(-1) === 'い' && E_ROW.has(syllable.at(-2)!)));
      const core = longVowel ? syllable.slice(0, -1) : syllable;
      const oneSyllable = core.length === 1 || (core.length === 2 && 'ゃゅょ'.includes(core[1]!));
      if (!oneSyllable) return;
      if (longVowel) out.push({ kana: replaceAt(last, 1, ''), reason: { kind: 'shortened', part }, weight: 1 });
      else {
        const kana = core.at(-1)!;
        const next = chars[last + 1];
        if (next === 'う' || next === 'い') return;
        if (O_ROW.has(kana) || LENGTHENED_U.has(kana))
          out.push({ kana: replaceAt(last + 1, 0, 'う'), reason: { kind: 'lengthened', part }, weight: 1 });
        else if (E_ROW.has(kana)) out.push({ kana: replaceAt(last + 1, 0, 'い'), reason: { kind: 'lengthened', part }, weight: 1 });
      }
    });
  }
  return out;
}

/** Three misreadings, each a different kind of mistake where possible, none a reading of the word. */
function pickDistractors(
  word: KanjiWord,
  data: KanjiData,
  random: () => number,
  avoid: ReadonlySet<string> = new Set(),
): Distractor[] | null {
  const valid = data.readingsOf.get(word.surface) ?? new Set([word.reading]);
  const seen = new Set<string>([word.reading, ...avoid]);
  const groups = new Map<string, Distractor[]>();
  for (const distractor of misreadings(word, data)) {
    if (valid.has(distractor.kana) || !wellFormed(distractor.kana) || seen.has(distractor.kana)) continue;
    seen.add(distractor.kana);
    const group =
      distractor.reason.kind === 'swap'
        ? 'swap'
        : distractor.reason.kind.endsWith('oiced')
          ? 'voicing'
          : distractor.reason.kind.endsWith('Sokuon')
            ? 'sokuon'
            : 'length';
    const list = groups.get(group) ?? [];
    list.push(distractor);
    groups.set(group, list);
  }
  // Within a kind, well-attested readings and the likelier slips first, ties in seeded order.
  for (const [group, list] of groups) {
    const order = new Map(shuffle(list, random).map((item, i) => [item, i]));
    groups.set(
      group,
      [...list].sort((a, b) => b.weight - a.weight || order.get(a)! - order.get(b)!),
    );
  }
  const kinds = ['swap', ...shuffle(['voicing', 'sokuon', 'length'], random)];
  const picked: Distractor[] = [];
  const usedChars = new Set<string>();
  while (picked.length < 3) {
    let progress = false;
    for (const kind of kinds) {
      if (picked.length === 3) break;
      const list = groups.get(kind);
      if (!list || list.length === 0) continue;
      // Two swaps should concern different kanji.
      let index = kind === 'swap' ? list.findIndex((d) => d.reason.kind === 'swap' && !usedChars.has(d.reason.part.char)) : 0;
      if (index < 0) index = 0;
      const [item] = list.splice(index, 1);
      if (item!.reason.kind === 'swap') usedChars.add(item!.reason.part.char);
      picked.push(item!);
      progress = true;
    }
    if (!progress) break;
  }
  return picked.length === 3 ? picked : null;
}

function quote(text: string, language: 'ja' | 'en'): string {
  return language === 'ja' ? `『${text}』` : `“${text}”`;
}

function breakdown(word: KanjiWord, language: 'ja' | 'en'): string {
  if (!word.parts) return '';
  const items = word.parts.map((part) => {
    if (part.change === 'none') return `${part.char}＝${part.kana}`;
    if (language === 'en')
      return `${part.char}＝${part.kana} (${part.base}, ${part.change === 'rendaku' ? 'voiced' : 'shortened with っ'})`;
    return `${part.char}＝${part.kana}（${part.base}が${part.change === 'rendaku' ? '濁る' : '詰まる'}）`;
  });
  return language === 'ja' ? `（${items.join('、')}）` : ` (${items.join(', ')})`;
}

function explainDistractor(word: KanjiWord, distractor: Distractor, language: 'ja' | 'en'): string {
  const { reason, kana } = distractor;
  const ja = language === 'ja';
  const head = ja ? `『${kana}』は誤り：` : `“${kana}” is wrong: `;
  switch (reason.kind) {
    case 'swap': {
      const { part, alt, evidence } = reason;
      const { example } = evidence;
      if (ja) {
        const shown = example ? `『${example.surface}（${example.reading}）』のように` : '';
        return `${head}『${part.char}』は${shown}『${alt}』とも読みますが、『${word.surface}』では『${part.kana}』と読みます。`;
      }
      const shown = example ? ` (as in ${example.surface}, ${example.reading})` : '';
      return `${head}${part.char} can be read ${alt}${shown}, but in ${word.surface} it is read ${part.kana}.`;
    }
    case 'voiced':
      return ja
        ? `${head}${reason.part ? `『${reason.part.char}』の『${reason.part.kana[0]}』は` : ''}濁りません。`
        : `${head}${reason.part ? `the ${reason.part.kana[0]} of ${reason.part.char}` : 'the sound'} is not voiced here.`;
    case 'unvoiced': {
      const part = reason.part;
      if (!part) return ja ? `${head}濁点が抜けています。` : `${head}a voiced sound has lost its voicing.`;
      // Only a split that found rendaku may say the sound is voiced by this word.
      if (part.change === 'rendaku')
        return ja
          ? `${head}『${part.char}』はこの語では『${part.kana}』と濁ります。`
          : `${head}${part.char} is voiced to ${part.kana} in this word.`;
      return ja
        ? `${head}『${part.char}』は『${part.kana}』で、濁点が付きます。`
        : `${head}${part.char} is ${part.kana}, with the voiced ${part.kana[0]}.`;
    }
    case 'addSokuon':
      return ja ? `${head}小さい『っ』は入りません。` : `${head}there is no small っ in this word.`;
    case 'dropSokuon':
      return ja
        ? `${head}${reason.part ? `『${reason.part.char}』は『${reason.part.kana}』と詰まって読みます。` : '小さい『っ』が抜けています。'}`
        : `${head}${reason.part ? `${reason.part.char} is shortened to ${reason.part.kana} here.` : 'the small っ is missing.'}`;
    case 'shortened':
      return ja
        ? `${head}${reason.part ? `『${reason.part.char}』は『${reason.part.kana}』とのばして読みます。` : 'のばす音（長音）が抜けています。'}`
        : `${head}${reason.part ? `${reason.part.char} is read with a long vowel, ${reason.part.kana}.` : 'the long vowel is missing.'}`;
    case 'lengthened':
      return ja
        ? `${head}${reason.part ? `『${reason.part.char}』は『${reason.part.kana}』で、のばしません。` : 'のばす音（長音）は入りません。'}`
        : `${head}${reason.part ? `${reason.part.char} is ${reason.part.kana}, without a long vowel.` : 'there is no long vowel.'}`;
  }
}

/** The reading kuromoji's tokenizer gives the surface, in hiragana (the answer a reader of the text would meet). */
function tokenizerReading(data: KanjiData, surface: string): string | null {
  const tokens = tokenizeInPieces(data.tokenizer, surface).map((placed) => placed.token);
  if (tokens.some((token) => !token.reading || token.reading === '*')) return null;
  return toHiragana(tokens.map((token) => token.reading!).join(''));
}

/**
 * The problem on one word: its distractors and their order are seeded by the
 * word and `variant`, not by the sheet, so the same word gives the same
 * problem in either language (a translation keeps its choices) and another
 * variant gives other misreadings.
 */
function kanjiProblem(
  word: KanjiWord,
  data: KanjiData,
  type: GeneratorInput['type'],
  language: GeneratorInput['language'],
  variant: number,
  avoid: ReadonlySet<string> = new Set(),
): GeneratedProblem | null {
  const ja = language === 'ja';
  const random = seededRandom(`kanji.reading|${word.surface}|${variant}`);
  const source = { generator: 'kanji.reading', params: { surface: word.surface, reading: word.reading }, ...(variant ? { variant } : {}) };
  const answerLine = ja
    ? `『${word.surface}』は『${word.reading}』と読みます${breakdown(word, language)}。`
    : `${word.surface} is read ${quote(word.reading, language)}${breakdown(word, language)}.`;
  if (type === 'written') {
    return {
      type,
      prompt: ja ? `『${word.surface}』の読みをひらがなで書きなさい。` : `Write the reading of 『${word.surface}』 in hiragana.`,
      choices: null,
      correctChoiceIndex: null,
      modelAnswer: word.reading,
      rubric: ja
        ? ['ひらがなで書けている', `「${word.reading}」と正しく読めている`]
        : ['Written in hiragana', `Read correctly as 「${word.reading}」`],
      explanation: answerLine,
      source,
    };
  }
  const distractors = pickDistractors(word, data, random, avoid);
  if (!distractors) return null;
  const { choices, correctIndex } = placeAnswer(
    word.reading,
    distractors.map((d) => d.kana),
    random,
  );
  const byKana = new Map(distractors.map((d) => [d.kana, d]));
  const notes = choices.filter((choice) => byKana.has(choice)).map((choice) => explainDistractor(word, byKana.get(choice)!, language));
  return multipleChoice({
    prompt: ja ? `次の漢字の読みとして正しいものを選びなさい：『${word.surface}』` : `Choose the correct reading of 『${word.surface}』.`,
    choices,
    correctChoiceIndex: correctIndex,
    explanation: [answerLine, ...notes].join('\n'),
    source,
  });
}

let bySound: Map<string, string[]> | null = null;

/**
 * The words of one to three kanji the dictionary reads as `kana` (くだもの →
 * 果物), commonest first by IPADIC's ordering of surfaces: how a topic written
 * in kana finds its word.
 */
export async function surfacesReadAs(kana: string): Promise<string[]> {
  const data = await loadKanjiData();
  if (!bySound) {
    bySound = new Map();
    for (const [surface, readings] of data.readingsOf)
      for (const reading of readings) bySound.set(reading, [...(bySound.get(reading) ?? []), surface]);
  }
  return bySound.get(toHiragana(kana)) ?? [];
}

/**
 * Other common words that read each kanji of `surface` the same way (学 as
 * がく: 科学, 大学), at most `perKanji` each, commonest first, as a line per
 * kanji in `language`; null when the word's reading does not split over its
 * kanji (then which reading belongs to which kanji is not known).
 */
export async function kanjiExamples(surface: string, language: GeneratorInput['language'], perKanji = 2): Promise<string | null> {
  const data = await loadKanjiData();
  const parts = data.bySurface.get(surface)?.parts;
  if (!parts) return null;
  const lines = parts.flatMap((part) => {
    const examples = data.words
      .filter((word) => word.surface !== surface && word.parts?.some((other) => other.char === part.char && other.base === part.base))
      .slice(0, perKanji);
    if (examples.length === 0) return [];
    return language === 'ja'
      ? [`『${part.char}』を「${part.base}」と読む語: ${examples.map((word) => `${word.surface}（${word.reading}）`).join('、')}`]
      : [`${part.char} is read ${part.base} also in ${examples.map((word) => `${word.surface} (${word.reading})`).join(', ')}.`];
  });
  return lines.length > 0 ? lines.join('\n') : null;
}

/**
 * The problem on a recorded word (`source.params.surface`), or null when the
 * word is no longer a candidate; `avoid`: misreadings not to offer (other
 * wrong choices than the ones it has).
 */
export async function kanjiProblemFor(
  surface: string,
  type: GeneratorInput['type'],
  language: GeneratorInput['language'],
  variant = 0,
  avoid: ReadonlySet<string> = new Set(),
): Promise<GeneratedProblem | null> {
  const data = await loadKanjiData();
  const word = data.bySurface.get(surface);
  return word ? kanjiProblem(word, data, type, language, variant, avoid) : null;
}

export async function generateKanjiProblems(input: GeneratorInput & { topic?: string | null }): Promise<GeneratedProblem[]> {
  const data = await loadKanjiData();
  const { count, difficulty, language, seed, type } = input;
  const random = seededRandom(`kanji.reading|${difficulty}|${type}|${seed}`);
  const [from, to] = BANDS[difficulty];
  // The level's frequency band, kept to the kanji its grades teach; on a grade topic, the commonest words whose hardest
  // kanji is of that grade.
  const grade = input.topic ? kanjiGradeNamed(input.topic) : null;
  const words =
    grade !== null
      ? data.words.filter((word) => kanjiGradeOf(word.surface) === grade).slice(0, 400)
      : data.words.slice(from, to).filter((word) => kanjiGradeOf(word.surface) <= GRADE_LIMIT[difficulty]);
  const pool = shuffle(words, random);
  const problems: GeneratedProblem[] = [];
  for (const word of pool) {
    if (problems.length >= count) break;
    // The answer must be the reading the analyser gives the word as written.
    if (tokenizerReading(data, word.surface) !== word.reading) continue;
    const problem = kanjiProblem(word, data, type, language, 0);
    if (problem && !input.exclude?.has(recordKey(problem.source))) problems.push(problem);
  }
  return problems;
}
