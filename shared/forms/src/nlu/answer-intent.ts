import { ENGLISH_COMMON_WORDS } from './english-words.js';
import { japaneseChars, latinWords, normalizeText } from './text.js';

/**
 * What a reply means before what it says: a refusal to answer (skip), an
 * admission of not knowing (non-answer), or "nothing / なし" — which is a real
 * answer to "any allergies?" and a refusal only where something must be named.
 */

// Politeness carries no content: "わかりません、すみません" is still "わかりません".
const POLITE = [
  /\b(?:please|thanks|thank you|sorry|i'm afraid|honestly|really|actually|well|hmm+|um+|uh+|er+m*)\b/g,
  /すみません|すいません|申し訳(?:ありません|ございません|ないです)|ごめんなさい|お願いします|お願いいたします|ください|ちょっと|よく|正直|えーと|えっと|あの|うーん|ですね|です|でした|ね|よ/g,
];

const NON_ANSWER = [
  new RegExp(
    [
      String.raw`\b(?:i (?:really )?)?(?:don'?t|do not) know\b`,
      String.raw`\bidk\b`,
      String.raw`\bdunno\b`,
      String.raw`\bno (?:idea|clue)\b`,
      String.raw`\b(?:i'm |i am )?not sure\b`,
      String.raw`\bunsure\b`,
      String.raw`\b(?:unknown|not known)\b`,
      String.raw`\b(?:can'?t|cannot|don'?t) (?:remember|recall)\b`,
      String.raw`\bcan'?t think of\b`,
      String.raw`\b(?:i )?forgot\b`,
      String.raw`\b(?:undecided|not decided(?: yet)?|tbd)\b`,
      String.raw`\b(?:can'?t|cannot|couldn'?t) (?:say|tell|give you)\b`,
      String.raw`\bno idea\b`,
      // Putting it off: "I'd have to check with my dad first", "can I send it later", "I'll get back to you".
      String.raw`\b(?:i'?d|i would|i'?ll|i will|i need to|i have to|let me)(?: have to)? (?:check|ask|confirm|find out|look it up)(?: with (?:my |our )?[a-z]+)?(?: first)?\b`,
      String.raw`\b(?:can|could|may) i (?:send|give|tell you|add)(?: (?:it|that|this|you))? later\b`,
      String.raw`\b(?:i'?ll|i will) (?:get back to you|send it later|let you know later)\b`,
    ].join('|'),
    'g',
  ),
  /(?:確認|相談)してから(?:連絡|お知らせ|回答|お答え)(?:します|いたします)|(?:後|あと)で(?:連絡|お知らせ|送り|回答)(?:します|いたします|してもいいですか|してもよろしいですか)/g,
  /わかりません|分かりません|解りません|わからない|分からない|わかんない|知りません|知らない|不明|覚えていません|覚えてない|覚えていない|思い出せ(?:ない|ません|なく)|忘れました|忘れた|未定|決まっていません|決めていません|何とも言えません|なんとも言えません|さあ/g,
];

const SKIP_ANYWHERE = new RegExp(
  [
    // "Skip", "let's skip it", "can we skip this one": a request; "the gears skip when I shift" describes something.
    String.raw`^\W*skip\b`,
    String.raw`\b(?:let'?s|let us|can we|could we|can i|could i|may i|please|i'?ll|i will|i'?d (?:like|rather|prefer) to|i want to|just|gonna|want to)\s+skip\b`,
    String.raw`\bskip\s+(?:it|this|that|the (?:question|rest)|for now|please|one)\b`,
    String.raw`\bprefer not to (?:say|answer|share|disclose)\b`,
    String.raw`\brather not (?:say|answer|share)\b`,
    String.raw`\b(?:don'?t|do not) want to (?:answer|say|share)\b`,
    String.raw`\bdecline to answer\b`,
    String.raw`\bno comment\b`,
    String.raw`\bpass on (?:this|that)\b`,
    'スキップ',
    '飛ばし',
    'とばし',
    '答えたくない',
    '回答したくない',
    '言いたくない',
    '答えません',
    '回答しません',
    '(?:回答|答え)を?控え',
    '控えさせて',
    '遠慮します',
    'パスします',
    'パスで',
  ].join('|'),
);

const SKIP_WHOLE = new Set([
  'pass',
  'next',
  'next question',
  'no thanks',
  'no thank you',
  'move on',
  'not now',
  'パス',
  '次',
  '次へ',
  '次の質問',
  '次に進んで',
  '結構',
  'いいえ結構',
]);

const NIL_WHOLE = new Set([
  'none',
  'nothing',
  'no',
  'nope',
  'n/a',
  'n a',
  'na',
  'nil',
  'not applicable',
  'nothing to add',
  'nothing else',
  'none at all',
  'no comments',
  'nothing in particular',
  'nothing special',
  'なし',
  '無し',
  'ない',
  'ありません',
  'ございません',
  '特になし',
  '特に無し',
  'とくになし',
  '特にない',
  '特にありません',
  '特にございません',
  '該当なし',
  '該当しません',
  '無い',
  'いいえ',
  'いえ',
  '特に',
]);

/**
 * True when the reply admits not knowing, or says nothing at all: "I don't
 * know", "not sure", "dunno", "?", "わかりません", "知りません", "不明", "未定" —
 * but only when that is all it says: "I don't know exactly, maybe 5 years"
 * is an answer.
 */
export function isNonAnswer(text: string): boolean {
  const normalized = normalizeText(text).toLowerCase();
  if (!/[\p{L}\p{N}]/u.test(normalized)) return true;
  let rest = normalized;
  let found = false;
  for (const pattern of NON_ANSWER) {
    rest = rest.replace(pattern, () => {
      found = true;
      return ' ';
    });
  }
  return found && isEmptyOfContent(stripPolite(rest));
}

/**
 * True when the respondent declines or wants to move on: "skip", "prefer not
 * to say", "スキップ", "答えたくない", "飛ばして" anywhere; "pass", "next",
 * "no thanks", "パス", "次へ" only as the whole reply ("next month" is an answer).
 */
export function isSkipRequest(text: string): boolean {
  const normalized = normalizeText(text).toLowerCase();
  if (SKIP_ANYWHERE.test(normalized)) return true;
  // Checked before and after removing politeness: "no thanks" must not shrink to "no".
  return SKIP_WHOLE.has(withoutPunctuation(normalized)) || SKIP_WHOLE.has(essence(normalized));
}

/**
 * True for "none", "nothing", "no", "n/a", "なし", "特にありません", "該当なし":
 * a complete answer to a question about whether something exists, and a way
 * of passing on an optional question; never a value for an email or a date.
 */
export function isNilAnswer(text: string): boolean {
  return NIL_WHOLE.has(essence(normalizeText(text).toLowerCase()));
}

/** The reply without punctuation, politeness and extra spaces. */
function essence(text: string): string {
  return withoutPunctuation(stripPolite(text));
}

function withoutPunctuation(text: string): string {
  return text
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(
      /(?<=\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}) (?=\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana})/gu,
      '',
    );
}

function stripPolite(text: string): string {
  return POLITE.reduce((acc, pattern) => acc.replace(pattern, ' '), text);
}

function isEmptyOfContent(text: string): boolean {
  const words = latinWords(text).filter((word) => !ENGLISH_COMMON_WORDS.has(word));
  return words.length === 0 && japaneseChars(text).length < 2;
}

/**
 * True when the reply says, anywhere in it, that the respondent does not know
 * or cannot say ("わかりません。検査を受けたことがないので…", "I'm not sure,
 * honestly. Sometime in the last few weeks?"), whatever else it adds.
 */
export function admitsNotKnowing(text: string): boolean {
  const normalized = normalizeText(text).toLowerCase();
  if (isUndecided(normalized)) return true;
  return (
    NON_ANSWER.some((pattern) => new RegExp(pattern.source, pattern.flags.replace('g', '')).test(normalized)) ||
    /よくわから|ちょっとわから|はっきりしない|覚えがない/.test(normalized)
  );
}

// "We haven't picked a venue yet", 「まだ相談中で、今は何とも言えない」: the answer does not exist yet.
const UNDECIDED =
  /\b(?:haven'?t|have not|hasn'?t|has not|not yet|yet to)\s+(?:\w+\s+){0,2}(?:decided|picked|chosen|booked|confirmed|settled|sorted|figured|found|worked out)\b|\bnot (?:decided|confirmed|settled)(?: yet)?\b|\bundecided\b|\btbd\b|\bstill (?:deciding|thinking|figuring|looking)\b|未定|検討中|相談中|決まっていな|決まっていま?せん|決めていな|決めていま?せん|決められな|決められま?せん|何とも言えな|なんとも言えな|まだわから/i;

/** True when the reply says the answer is not decided yet. */
export function isUndecided(text: string): boolean {
  return UNDECIDED.test(normalizeText(text));
}
