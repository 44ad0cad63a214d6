import nlp from 'compromise';
import { isNilAnswer, isNonAnswer, isSkipRequest } from './answer-intent.js';
import { preferAsserted } from './discourse.js';
import { morphemes, type Morpheme } from './japanese.js';
import { hasJapanese, trimPunctuation } from './text.js';
import type { Extraction } from './typed-values.js';

/**
 * A person's name in a free-typed reply, English or Japanese, as written. The
 * rules read compromise's and IPADIC's lexicons, not lists of names:
 *
 * - Latin script: a run of words with only spaces between them (or an initial's
 *   full stop: "John F. Kennedy") holding a term compromise tags #Person in
 *   context, extended over capitalised neighbours and lower-case words its
 *   lexicon does not know ("taro yamada", "da Vinci"). Function words, places,
 *   organisations and dates end a run ("Hi", "We're", "the States"); a
 *   sentence's first word joins only if the lexicon does not know it, since a
 *   capital there says nothing. Without #Person, two capitalised nouns not after
 *   an article still make a name, and so does a whole reply of one to five.
 * - Titles and roles (#Honorific, #Actor: Mrs, Dr., Professor, "my husband")
 *   are left out and mark what follows as a name.
 * - Japanese: an IPADIC 人名 anchors a name, which runs over the following nouns
 *   up to a particle, auxiliary or honorific (様, さん): unknown given names come
 *   in pieces (浩+介, 心+愛). A proper noun read as a surname before さん (清水, an
 *   organisation alone) anchors one only with a given name after it (not 福岡出身).
 *   A kana given name split into other words (あや+か, まい) is the kana between
 *   the surname and です/と申します: nothing else can stand there.
 * - Choosing: retracted names lose (discourse.ts); one after a self-correction
 *   ("actually", 「いや」) beats those before; a full name beats a single word
 *   (a later nickname, 前田 before 前田恵子); evidence (#Person, a title, 人名, a
 *   bare reply) beats mere capitals; then text order.
 * - Emails, URLs and numbers are blanked first; refusals name nobody.
 *
 * Not handled: lower-case names in chat that compromise does not tag; unknown
 * capitalised organisations ("Acme Widgets"); a verb before a bare name ("Call
 * Jane Doe"); a role after a Japanese surname (田中部長); Japanese names with no
 * dictionary anchor (小鳥遊ゆかり); whose name it is when two are given in full.
 */

type Candidate = { value: string; start: number; end: number; words: number; evidence: boolean };

const NONE: Extraction = { value: null, rejected: null };

/**
 * The name in `text` (already normalizeText'ed) with at least `parts` words,
 * or the lone name word given when two were needed ('incomplete_name').
 */
export function extractPersonName(text: string, parts: 1 | 2): Extraction {
  if (isNonAnswer(text) || isSkipRequest(text) || isNilAnswer(text)) return NONE;
  // "Just Lucy", "Only Tom": an adverb that restricts a short answer is not part of the name (blanked, offsets kept).
  const plain = text.replace(CONTACT, (match) => '|'.repeat(match.length)).replace(RESTRICTING_LEAD, (match) => ' '.repeat(match.length));
  const best = rank(text, [...latinNames(plain), ...japaneseNames(plain)], parts)[0];
  if (!best) return NONE;
  if (best.words >= parts) return { value: best.value, rejected: null };
  return best.evidence ? { value: null, rejected: best.value, problem: 'incomplete_name' } : NONE;
}

// Tokens with an @, a digit, a slash or a lower-case domain are contact details or numbers. Blanked with a
// symbol of the same length, so offsets stay valid and no name run crosses them.
// (Each token from its start, the lookbehind: tried from each character of a long token without one, it was quadratic.)
const CONTACT = /(?<![\w.%+/:@-])[\w.%+/:@-]*(?:[@\d/]|\.[a-z]{2})[\w.%+/:@-]*/g;

const RESTRICTING_LEAD = /^\s*(?:just|only|simply)\s+(?=\p{Lu})/iu;
// Self-corrections: what follows replaces what came before. A closed class, like discourse.ts's patterns.
const CORRECTION = /\b(?:actually|i mean|sorry|correction|scratch that|make (?:that|it))\b|いや[、,]|訂正|間違え/gi;

function rank(text: string, found: Candidate[], parts: number): Candidate[] {
  const corrections = [...text.matchAll(CORRECTION)].map((match) => match.index);
  const key = (candidate: Candidate) => [
    candidate.words >= parts ? 1 : 0,
    corrections.filter((at) => at < candidate.start).length,
    candidate.evidence ? 1 : 0,
  ];
  const inOrder = [...found].sort((a, b) => a.start - b.start);
  // The sort is stable: equal keys keep preferAsserted's order (asserted before background, then text order).
  return preferAsserted(text, inOrder, (candidate) => [candidate.start, candidate.end] as const).sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    const differsAt = ka.findIndex((value, j) => value !== kb[j]);
    return differsAt < 0 ? 0 : (kb[differsAt] ?? 0) - (ka[differsAt] ?? 0);
  });
}

// ---- Latin script ----

type Kind = 'title' | 'person' | 'noun' | 'shape' | 'other';
type Word = {
  text: string;
  start: number;
  end: number;
  kind: Kind;
  capital: boolean;
  known: boolean;
  sentenceStart: boolean;
  article: boolean;
  /** Tagged a place or an organisation only: "Park" in "Susan Park" is a surname when the reply is just the name. */
  placeLike: boolean;
};
type Term = { text: string; tags: string[]; offset: { start: number; length: number } };

const WORD = /\p{Script=Latin}+(?:['-]\p{Script=Latin}+)*/gu;
// Never part of a name: function words and the other kinds of proper noun.
const NOT_NAME_TAGS = [
  'Pronoun',
  'Possessive',
  'Determiner',
  'Preposition',
  'Conjunction',
  'QuestionWord',
  'Expression',
  'Value',
  'Date',
  'Place',
  'Organization',
];
// What compromise sometimes guesses from a name's shape ("Turing" a gerund, "Hope" a verb).
const SHAPE_TAGS = ['Verb', 'Adverb', 'Adjective'];
const LEXICON = (nlp.model() as { one: { lexicon: Record<string, unknown> } }).one.lexicon;

function latinNames(text: string): Candidate[] {
  const words = latinWords(text);
  const out: Candidate[] = [];
  let run: Word[] = [];
  let titled = false;
  const close = () => {
    const candidate = fromRun(text, run, titled, words);
    if (candidate) out.push(candidate);
    run = [];
  };
  words.forEach((word, i) => {
    const prev = words[i - 1];
    const linked = prev !== undefined && joins(text, prev, word);
    if (!linked || !inName(word)) close();
    if (!inName(word)) return;
    if (!run.length) titled = linked && prev?.kind === 'title';
    run.push(word);
  });
  close();
  const bare = bareName(text, words);
  return bare ? [bare, ...out] : out;
}

/** The Latin words of `text` with compromise's tags read in context (Japanese blanked so it sees English only). */
function latinWords(text: string): Word[] {
  const english = text
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]/gu, ' ')
    .replace(/。/g, '.')
    .replace(/、/g, ',');
  const sentences = nlp(english).json({ offset: true }) as Array<{ terms: Term[] }>;
  const terms = sentences.flatMap((sentence) => sentence.terms);
  const starts = new Set(sentences.map((sentence) => sentence.terms.find((term) => term.text)?.offset.start));
  return [...text.matchAll(WORD)].map((match) => {
    const [start, end] = [match.index, match.index + match[0].length];
    const tags = new Set(
      terms
        .filter((term) => term.text && term.offset.start < end && term.offset.start + term.offset.length > start)
        .flatMap((term) => term.tags),
    );
    // "name's", "I'm": compromise puts an empty copula term after a contraction, so a verb is inside.
    if (terms.some((term) => !term.text && term.offset.start === end)) tags.add('Verb');
    const known = match[0].toLowerCase() in LEXICON;
    const placeLike =
      (tags.has('Place') || tags.has('Organization')) &&
      !NOT_NAME_TAGS.some((tag) => tag !== 'Place' && tag !== 'Organization' && tags.has(tag));
    return {
      text: match[0],
      start,
      end,
      kind: kindOf(match[0], tags),
      capital: /^\p{Lu}/u.test(match[0]),
      known,
      sentenceStart: starts.has(start),
      article: tags.has('Determiner'),
      placeLike,
    };
  });
}

function kindOf(word: string, tags: Set<string>): Kind {
  // In context compromise sometimes reads "Dr" as a first name; its lexicon still knows it as a title.
  if (tags.has('Honorific') || [LEXICON[word.toLowerCase()]].flat().includes('Honorific')) return 'title';
  if (NOT_NAME_TAGS.some((tag) => tags.has(tag))) return 'other';
  // "Aunt Carol", "Grandma Rose": a word the lexicon knows as a role is a title, even where the tagger calls it a person.
  if ([LEXICON[word.toLowerCase()]].flat().includes('Actor')) return 'title';
  if (tags.has('Person')) return 'person';
  // A role before a name works as a title: "Professor Alan Turing", "my husband Tom".
  if (tags.has('Actor')) return 'title';
  return SHAPE_TAGS.some((tag) => tags.has(tag)) ? 'shape' : 'noun';
}

/** Whether a word can be part of a name in running text (see the header). */
function inName(word: Word): boolean {
  if (word.kind === 'person') return true;
  if (word.capital && !word.sentenceStart) return word.kind === 'noun' || word.kind === 'shape';
  return word.kind === 'noun' && !word.known;
}

/** Words are one name when only spaces separate them, or an initial's or title's full stop ("F. Kennedy"). */
function joins(text: string, before: Word, after: Word): boolean {
  const gap = text.slice(before.end, after.start);
  return /^\s+$/.test(gap) || ((before.text.length === 1 || before.kind === 'title') && /^\.\s*$/.test(gap));
}

function fromRun(text: string, run: Word[], titled: boolean, words: Word[]): Candidate | null {
  // Lower-case ends of a capitalised name are chat ("Jane Doe btw"); inside it they are particles ("de la").
  let [from, to] = [0, run.length];
  if (run.some((word) => word.capital)) {
    while (from < to && !run[from]!.capital) from++;
    while (to > from && !run[to - 1]!.capital) to--;
  }
  const name = run.slice(from, to);
  const [first, last] = [name[0], name[name.length - 1]];
  if (!first || !last) return null;
  const person = name.some((word) => word.kind === 'person');
  // A capitalised verb or adjective is a name only beside one ("Alan Turing"), not in Title Case chat ("I Love Pizza").
  if (!person && name.some((word) => word.kind === 'shape')) return null;
  if (!person && !titled) {
    const before = words[words.indexOf(first) - 1];
    const article = before !== undefined && before.article && joins(text, before, first);
    if (name.length < 2 || !name.every((word) => word.capital) || article) return null;
  }
  return { value: text.slice(first.start, last.end), start: first.start, end: last.end, words: name.length, evidence: person || titled };
}

/** A reply that is only a name, typed in any case: one to five words, none a function word. */
function bareName(text: string, words: Word[]): Candidate | null {
  const [first, last] = [words[0], words[words.length - 1]];
  if (!first || !last || words.length > 5) return null;
  if (trimPunctuation(text.slice(0, first.start)) || trimPunctuation(text.slice(last.end))) return null;
  if (!words.every((word, i) => i === 0 || joins(text, words[i - 1]!, word))) return null;
  const fits = (word: Word) =>
    word.kind === 'person' || word.kind === 'noun' || (word.capital && (word.kind === 'shape' || word.placeLike));
  // Capitalised words on their own read as a place by compromise ("Susan Park") are a name when asked for one.
  const capitalised = words.length >= 2 && words.every((word) => word.capital) && words.some((word) => word.placeLike || !word.known);
  const named = words.some((word) => word.kind === 'person') || words.every((word) => !word.known) || capitalised;
  if (!words.every(fits) || !named) return null;
  return { value: text.slice(first.start, last.end), start: first.start, end: last.end, words: words.length, evidence: true };
}

// ---- Japanese ----

// What closes a self-introduction after a name: the copula, と申します/と言います, でお願いします, or punctuation.
const INTRO_END = String.raw`(?=です|でございます|と申|と言|といい|って|でお願い|[、。,.!?\s]|$)`;
const KANA_GIVEN_NAME = new RegExp(String.raw`^[\p{Script=Hiragana}ー]{1,6}?${INTRO_END}`, 'u');
const KANA = /^[\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u;

function japaneseNames(text: string): Candidate[] {
  if (!hasJapanese(text)) return [];
  const ms = morphemes(text);
  if (!ms) return japaneseFallback(text);
  const out: Candidate[] = [];
  for (let i = 0; i < ms.length; i++) {
    const anchor = ms[i]!;
    if (!isPersonAnchor(anchor)) continue;
    const tagged = anchor.pos2 === '人名';
    // After a surname, a word the dictionary files as a place (拓海, 大和) is the given name when the introduction ends there.
    // So is a one-kanji common noun (湊, 翼) right after a surname and right before the end of the introduction.
    // The last kanji of a given name the dictionary split (陽+向) may be filed as a place too.
    const givenAsPlace = (k: number) =>
      isSurname(anchor) &&
      endsIntro(ms[k + 1]) &&
      (k === i + 1 || /^\p{Script=Han}$/u.test(ms[k]?.surface ?? '')) &&
      ((ms[k]?.pos1 === '固有名詞' && ms[k]?.pos2 === '地域') ||
        (ms[k]?.pos === '名詞' && ms[k]?.pos1 === '一般' && /^\p{Script=Han}$/u.test(ms[k]?.surface ?? '')));
    const more = (morpheme: Morpheme | undefined, k: number) =>
      morpheme !== undefined &&
      ((continuesName(morpheme) && (tagged || morpheme.pos2 === '人名' || KANA.test(morpheme.surface))) || givenAsPlace(k));
    let j = i + 1;
    while (more(ms[j], j) || (ms[j] !== undefined && isSeparator(ms[j]!) && more(ms[j + 1], j + 1))) j++;
    const tokens = ms.slice(i, j);
    let [end, pieces] = [tokens[tokens.length - 1]!.end, namePieces(tokens)];
    // A kana given name the dictionary split into other words ("あや"+"か", "まい"): the kana up to the copula.
    const tail = KANA_GIVEN_NAME.exec(text.slice(anchor.end))?.[0] ?? '';
    const head = ms.find((morpheme) => morpheme.start === anchor.end);
    if (
      isSurname(anchor) &&
      anchor.end + tail.length > end &&
      tokens.slice(1).every((token) => KANA.test(token.surface)) &&
      head &&
      startsGivenName(head)
    ) {
      [end, pieces] = [anchor.end + tail.length, 2];
    }
    if (tagged || pieces > 1) out.push({ value: text.slice(anchor.start, end), start: anchor.start, end, words: pieces, evidence: true });
    i = j - 1;
  }
  return out;
}

function isPersonAnchor(morpheme: Morpheme): boolean {
  return (
    morpheme.pos === '名詞' &&
    morpheme.pos1 === '固有名詞' &&
    hasJapanese(morpheme.surface) &&
    (morpheme.pos2 === '人名' || readsAsSurname(morpheme))
  );
}

/** 清水 alone is an organisation to IPADIC, but 「清水さん」 is a person: the dictionary also knows it as a surname. */
function readsAsSurname(morpheme: Morpheme): boolean {
  const probe = morphemes(`${morpheme.surface}さん`);
  return probe?.length === 2 && probe[0]?.surface === morpheme.surface && probe[0].pos2 === '人名' && probe[0].pos3 === '姓';
}

function isSurname(morpheme: Morpheme): boolean {
  return morpheme.pos3 === '姓' || (morpheme.pos2 !== '人名' && readsAsSurname(morpheme));
}

/** A noun that can continue a name. Given names the dictionary does not know come in pieces (心+愛, 一+颯, 浩+介). */
function continuesName(morpheme: Morpheme): boolean {
  if (morpheme.pos !== '名詞' || !hasJapanese(morpheme.surface) || ['代名詞', '非自立', '副詞可能'].includes(morpheme.pos1)) return false;
  if (morpheme.pos1 === '接尾') return morpheme.pos2 === '一般';
  return !(morpheme.pos1 === '固有名詞' && (morpheme.pos2 === '地域' || morpheme.pos2 === '組織'));
}

/** What may follow a name in an introduction: nothing, punctuation, a particle or the copula. */
function endsIntro(morpheme: Morpheme | undefined): boolean {
  return morpheme === undefined || morpheme.pos === '記号' || morpheme.pos === '助詞' || morpheme.pos === '助動詞';
}

function isSeparator(morpheme: Morpheme): boolean {
  return morpheme.pos === '記号' && (morpheme.pos1 === '空白' || morpheme.surface === '・');
}

/** A kana given name may begin with whatever the dictionary took it for, except a particle, honorific or the copula. */
function startsGivenName(morpheme: Morpheme): boolean {
  if (morpheme.pos === '名詞') return morpheme.pos1 !== '接尾';
  if (morpheme.pos === '助動詞') return !['です', 'だ', 'ます'].includes(morpheme.base);
  return morpheme.pos === '動詞' || morpheme.pos === 'フィラー';
}

/** Family and given name: pieces written apart (山田 太郎, ジョン・スミス), or a surname and what follows it. */
function namePieces(tokens: Morpheme[]): number {
  const separated = tokens.filter(isSeparator).length;
  if (separated > 0) return separated + 1;
  const people = tokens.filter((token) => token.pos2 === '人名').length;
  return tokens.length >= 2 && (isSurname(tokens[0]!) || people >= 2) ? 2 : 1;
}

// Before the dictionary has loaded: a kanji-led word (kanji or katakana after it, or a kana given name)
// right after a clause boundary or は/が and right before the copula, an introduction or punctuation.
const JA_NAME_FALLBACK = new RegExp(
  String.raw`(?<=^|[、。,.!?\s「」|はが])\p{Script=Han}{1,4}[ ・]?(?:[\p{Script=Han}\p{Script=Katakana}ー]{0,5}?|[\p{Script=Hiragana}ー]{1,5}?)${INTRO_END}`,
  'gu',
);

function japaneseFallback(text: string): Candidate[] {
  return [...text.matchAll(JA_NAME_FALLBACK)]
    .filter((match) => match[0].length >= 2)
    .map((match) => ({
      value: match[0],
      start: match.index,
      end: match.index + match[0].length,
      words: match[0].length >= 3 || /[ ・]/.test(match[0]) ? 2 : 1,
      evidence: true,
    }));
}
