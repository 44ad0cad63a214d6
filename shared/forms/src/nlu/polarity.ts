import nlp from 'compromise';
import { backgroundSpans, mergeSpans } from './discourse.js';
import { morphemes, type Morpheme } from './japanese.js';
import { hasJapanese, normalizeText } from './text.js';

/**
 * Whether a reply to a yes/no question means yes or no, read from its
 * grammar rather than from a list of answers: a leading yes/no word settles
 * it ("Goodness, no - it was the weather", 「はい、お願いします」); otherwise
 * the predicate of the reply's first sentence is negative (「けが人はいません」,
 * 「飼う予定はないです」, "we haven't", "nothing to report") or affirmative
 * (「利用します」, 「高血圧で薬を飲んでいます」, "I'll need one"). A later sentence
 * that opens with a contrast (「でも」, "but", "however") overrides the first
 * one (「ぎっくり腰をやりまして。でももう治っていて、今は通院していません」 → no).
 *
 * Negation of knowing (「わかりません」, "I don't know", "not sure") is no
 * answer at all, and idioms built on a negative form (「かもしれません」,
 * 「しなければならない」, "no problem") are not negations. Background clauses
 * (「家が少し遠いので、」) are set aside first. Japanese is read with
 * kuromoji; English with compromise's negation tags.
 */

export type Polarity = 'yes' | 'no';

const LEAD_YES_JA = /^(?:はい|ええ|うん|そうです|もちろん|あります|あり|有り|有|お願いします)(?![\p{L}])/u;
const LEAD_NO_JA = /^(?:いいえ|いえ|ううん|いや|なし|無し|無|ないです|ありません|特にありません|特になし)(?![\p{L}])/u;
// Negative forms that do not negate: "might be", "must", "cannot be helped".
const JA_IDIOMS =
  /かもしれ(?:ない|ません)|(?:なければ|なくては|ないと|なきゃ)(?:なら|いけ|だめ)(?:ない|ません)?|しかた(?:が)?ない|仕方(?:が)?ない|(?:では|じゃ)ないでしょうか|ないかな/g;
const KNOWING = new Set(['わかる', '分かる', '解る', '知る', '覚える', '決まる', '決める', '確か', '思い出す', '存じる']);
// A negative denied: 「〜ないわけがない」「〜ないはずがありません」.
const DOUBLE_NEGATION_JA = /(?:ない|ん|ず)(?:わけ|訳|はず|筈)(?:が|は|も)?(?:ない|無い|ありません|ございません|あるまい)/;
// What can stand between declining and its negation: 「断る理由がない」「遠慮する必要はありません」.
const REASON_JA: ReadonlySet<string> = new Set(['理由', 'わけ', '訳', '必要', 'つもり']);
// Verbs and verbal nouns of declining an offer.
const DECLINING_JA = new Set(['やめる', '止める', '見送る', '控える', '断る', '遠慮', '辞退', '見合わせる']);
// "Might": 「かもしれない」, 「かも」 at the end.
const HEDGE_JA = /かもしれ|かも(?:です|ね|ですね)?$/;
const CONTRAST_JA = /^(?:でも|しかし|ただ|だけど|けど|けれど|ですが|とはいえ|ところが)/;
const SENTENCE_JA = /[。！？!?\n]+/;

const YES_WORDS_EN = /\b(?:yes|yeah|yep|yup|yea|sure|of course|certainly|definitely|absolutely|correct|indeed|affirmative)\b/i;
const NO_WORDS_EN =
  /\b(?:no|nope|nah|not really|not at all|never|negative|none|nothing|nobody|neither)\b(?!\s+(?:problem|worries|doubt|way|matter)\b)/i;
const KNOWING_EN =
  /\b(?:(?:don'?t|do not|didn'?t|did not|can'?t|cannot|haven'?t|have not) (?:know|remember|recall|tell|say|decided|made up my mind)|not (?:sure|certain|decided)(?: yet)?|unsure|undecided|no idea|no clue)\b/i;
const DONT_KNOW_AT_END = /\b(?:(?:don'?t|do not) know|no idea|not sure|unsure)\s*(?:[,.!?;]|$)/i;
const HEDGE_EN = /\b(?:maybe|perhaps|possibly|might)\b/i;
const CONTRAST_EN = /^(?:but|however|though|although|yet|that said)\b/i;

// Saying yes to a reading put to one ("Just to check: …?"): an answer word, not a statement that happens to be affirmative.
const AFFIRM_EN =
  /\b(?:yes|yeah|yep|yup|yea|sure|of course|certainly|definitely|absolutely|correct|indeed|affirmative|right|exactly|ok|okay|that'?s it|spot on|sounds good|perfect)\b/i;
const AFFIRM_JA =
  /はい|ええ|うん|そう(?:です|だ|よ|ね)|その(?:通り|とおり)|合って(?:い)?ます|間違い(?:ありません|ない)|大丈夫|結構です|OKです|オーケー/u;

/**
 * The reply says yes to a reading it was asked to confirm: it reads as yes
 * and says so in an answer word ("Yes", "That's right", 「はい」, 「そうです」).
 * A statement that is merely affirmative (「空き巣に入られました」) repeats an
 * answer; it confirms nothing.
 */
export function affirms(raw: string): boolean {
  const text = normalizeText(raw);
  if (answerPolarity(text) !== 'yes') return false;
  return hasJapanese(text) ? AFFIRM_JA.test(text) : AFFIRM_EN.test(text);
}

/** 'yes', 'no', or null when the reply says neither (or only that the respondent does not know). */
export function answerPolarity(raw: string): Polarity | null {
  const text = normalizeText(raw);
  if (!text) return null;
  return hasJapanese(text) ? japanesePolarity(text) : englishPolarity(text);
}

function japanesePolarity(text: string): Polarity | null {
  const stripped = text.replace(/^[\s、,。！!]+/, '');
  if (LEAD_NO_JA.test(stripped)) return 'no';
  if (LEAD_YES_JA.test(stripped)) return 'yes';
  // The answer word said outright after the reasons (「…不安でして。…ので、いいえでお願いします」) is the answer.
  const outright = [...withoutBackground(stripped).matchAll(/(?:^|[、,。！？!?\s])(はい|いいえ)(?:で|です|[、,。！!]|$)/g)].at(-1);
  if (outright) return outright[1] === 'はい' ? 'yes' : 'no';
  const sentences = withoutBackground(stripped)
    .split(SENTENCE_JA)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  let answer: Polarity | null = null;
  for (const [i, sentence] of sentences.entries()) {
    // A concessive clause ("…ないんですが、…ですか") ends at が/けど; a question after it asks, it does not answer.
    const clauses = sentence
      .split(/(?<=[たすいんだ])(?:が|けど|けれど|けれども)[、,]/)
      .filter((clause) => !/(?:か|かな|でしょうか)$/.test(clause.trim()));
    // Any clause of not knowing makes the sentence "I don't know"; a hedged clause (「入っているかもしれない」) says neither.
    const ps = clauses.map(japaneseClause);
    // After a concession the main clause answers (「アレルギーは特にないんですけど、小児喘息があって」 → yes).
    const definite = ps.findLast((verdict) => verdict === 'yes' || verdict === 'no') ?? null;
    const polarity = ps.includes('unknown') || (definite === null && ps.includes('hedged')) ? 'unknown' : definite;
    // Opening with "I don't know" (「わかりません。検査を受けたことがないので…」) leaves the question open.
    if (polarity === 'unknown') {
      if (i === 0) return null;
      continue;
    }
    if (polarity === null) continue;
    if (answer === null || (i > 0 && CONTRAST_JA.test(sentence))) answer = polarity;
  }
  return answer;
}

function japaneseClause(clause: string): Polarity | 'unknown' | 'hedged' | null {
  if (HEDGE_JA.test(clause)) return 'hedged';
  // 「行かないわけがない」「来ないはずがありません」: a negative denied is a yes.
  if (DOUBLE_NEGATION_JA.test(clause)) return 'yes';
  const plain = clause.replace(JA_IDIOMS, '');
  // 「不可」「不可能です」「無理です」: a noun negated by its own prefix, said as the whole answer.
  if (/^(?:不|無|非)\p{Script=Han}{1,2}(?:です|だ|で)?$/u.test(plain.trim())) return 'no';
  if (/(?:^|[、,\s])(?:なし|無し|特になし)(?:です)?$/.test(plain) || /不要|結構です/.test(plain)) return 'no';
  const ms = morphemes(plain);
  if (!ms) return /ません|ないです|ない$|なかった|なし|無し/.test(plain) ? 'no' : /ます|です|した|ある|いる/.test(plain) ? 'yes' : null;
  let predicate = false;
  let negative = false;
  let unknown = false;
  for (const [i, morpheme] of ms.entries()) {
    if (morpheme.pos === '動詞' || morpheme.pos === '形容詞' || (morpheme.pos === '助動詞' && /^(?:です|ます|だ|た)$/.test(morpheme.base)))
      predicate = true;
    if (isNegation(morpheme)) {
      if (negatesKnowing(ms, i)) unknown = true;
      else negative = true;
    }
  }
  if (unknown) return 'unknown';
  // Declining said affirmatively (「今回はやめておきます」「遠慮します」「見送ります」) answers no; declining negated is yes.
  const decline = ms.findLastIndex((morpheme) => DECLINING_JA.has(morpheme.base));
  // (「断る理由がありません」: a reason to decline denied is declining denied.)
  if (decline >= 0) {
    const after = ms.slice(decline + 1);
    const reason = after.findIndex((morpheme) => REASON_JA.has(morpheme.base));
    const span = reason >= 0 && reason <= 1 ? after.slice(0, reason + 5) : after.slice(0, 3);
    return span.some(isNegation) ? 'yes' : 'no';
  }
  if (negative) return 'no';
  return predicate || ms.some((morpheme) => morpheme.pos === '名詞' && morpheme.pos1 !== '非自立') ? 'yes' : null;
}

/** ない / ん / ぬ / ず as auxiliaries, ない as an adjective (「けがはない」), 無い, なし. */
function isNegation(morpheme: Morpheme): boolean {
  if (morpheme.pos === '助動詞' && /^(?:ない|ぬ|ん|ず)$/.test(morpheme.base)) return true;
  return morpheme.pos === '形容詞' && /^(?:ない|無い)$/.test(morpheme.base);
}

/** The negation belongs to a verb of knowing (わかりません, 覚えていない): not knowing, not "no". */
function negatesKnowing(ms: readonly Morpheme[], at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - 4); i--) {
    const morpheme = ms[i]!;
    if (morpheme.pos === '動詞' && morpheme.pos1 === '自立') return KNOWING.has(morpheme.base);
    if (morpheme.pos === '名詞' || morpheme.pos === '形容詞') return KNOWING.has(morpheme.base);
  }
  return false;
}

function englishPolarity(text: string): Polarity | null {
  const sentences = withoutBackground(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  let answer: Polarity | null = null;
  for (const [i, sentence] of sentences.entries()) {
    const polarity = englishSentence(sentence);
    // Opening with "No, sorry, I genuinely don't know" leaves the question open, whatever the reasons after it say.
    if (polarity === 'unknown') {
      if (i === 0) return null;
      continue;
    }
    if (polarity === null) continue;
    if (answer === null || (i > 0 && CONTRAST_EN.test(sentence))) answer = polarity;
  }
  return answer;
}

function englishSentence(sentence: string): Polarity | 'unknown' | null {
  if ((KNOWING_EN.test(sentence) || HEDGE_EN.test(sentence)) && !/^\s*(?:yes|no)\b/i.test(sentence)) return null;
  // "No, sorry, I genuinely don't know": the "no" refuses the question; "No, I don't know of any" still answers it.
  if (/^\s*(?:yes|no)\b/i.test(sentence) && DONT_KNOW_AT_END.test(sentence)) return 'unknown';
  const yes = YES_WORDS_EN.exec(sentence);
  const no = NO_WORDS_EN.exec(sentence);
  if (yes || no) {
    if (yes && (!no || yes.index < no.index)) return 'yes';
    if (no) return 'no';
  }
  const doc = nlp(sentence);
  if (doc.has('#Negative') || doc.verbs().isNegative().found) return 'no';
  return doc.terms().found && (doc.has('#Verb') || doc.has('#Noun')) ? 'yes' : null;
}

function withoutBackground(text: string): string {
  // Spans may overlap (「素敵ですけれど、…ので、」 both start at the sentence): merged first, cut from the end.
  let out = text;
  for (const [start, end] of mergeSpans(backgroundSpans(text)).reverse())
    out = out.slice(0, start) + out.slice(end).replace(/^[、,]\s*/, '');
  return out.trim() || text;
}

// Being and having: 「いません」「ありません」「飼っていません」「持っていない」.
const EXISTENCE_VERBS: ReadonlySet<string> = new Set(['ある', '有る', 'いる', '居る', 'おる', '持つ', '飼う', '抱える']);

/**
 * Whether a Japanese reply says that none exist or are had (「いません」「ありません」「ないです」「飼っていません」), as opposed to
 * negating some other verb (「勤務がまだ出てなくて」 says a schedule is not out, not that there are none).
 * Without the dictionary: the existence words themselves.
 */
export function deniesExistenceJa(text: string): boolean {
  const ms = morphemes(text);
  if (!ms) return /(?:いません|ありません|いない|ない(?:です)?$|なし|無し)/.test(text);
  return ms.some((morpheme, i) => {
    const prev = ms[i - 1];
    if (morpheme.pos === '形容詞' && /^(?:ない|無い)$/.test(morpheme.base))
      return !(prev && (prev.pos === '動詞' || (prev.pos === '助詞' && /^[てで]$/.test(prev.surface))));
    if (morpheme.pos === '助動詞' && /^(?:ない|ぬ|ん)$/.test(morpheme.base)) {
      const verb = ms
        .slice(0, i)
        .reverse()
        .find((previous) => previous.pos === '動詞' && previous.pos1 === '自立');
      return verb !== undefined && EXISTENCE_VERBS.has(verb.base);
    }
    return false;
  });
}
