import { ENGLISH_COMMON_WORDS } from '../nlu/english-words.js';
import { normalizeWithMap, originalSpan } from './text-map.js';

/**
 * Tone rules for what an interviewer says to an applicant: rude or
 * demeaning words, pressure, overly casual wording, and shouting. Words the
 * interviewer quotes (an applicant's answer in 'quotes' or 「かぎ括弧」) are
 * someone else's and are not judged.
 */

export type ToneKind = 'rude' | 'pressuring' | 'casual' | 'shouting';

/** One tone problem; `start`/`end` index the original text. */
export type ToneIssue = { kind: ToneKind; match: string; start: number; end: number };

function en(...alternatives: string[]): RegExp {
  return new RegExp(String.raw`\b(?:${alternatives.join('|')})\b`, 'gi');
}

function ja(...alternatives: string[]): RegExp {
  return new RegExp(alternatives.join('|'), 'g');
}

/** A katakana word standing alone: "バカ" but not "バカンス", "マジ" but not "マジック". */
function katakana(word: string): string {
  return `(?<![ァ-ヶー])${word}(?![ァ-ヶー])`;
}

// A Japanese clause ends here: after a plain imperative this makes "書け。" a command and "書けますか" a question.
const JA_END = '(?=よ|って|[。！!？?、,\\s」』]|$)';

const RULES: ReadonlyArray<readonly [ToneKind, RegExp]> = [
  [
    'rude',
    en(
      'stupid',
      'idiot(?:ic|s)?',
      'dumb',
      'moron(?:ic|s)?',
      'incompetent',
      'useless',
      'lazy(?![ -](?:load|loading|loaded|evaluation|init|initiali[sz]ation))',
      'pathetic',
      'ridiculous',
      'nonsense',
      'losers?',
      'shut up',
      "what'?s wrong with you",
      'are you (?:serious|kidding|stupid|deaf|dense|an idiot)',
      'obviously',
      'of course you (?:know|should|must)',
      'even a child',
      'any idiot',
      'you people',
      'come on(?=\\s*[,.!?]|\\s*$)',
      'duh',
      "(?:don'?t|do not) waste (?:my|our) time",
      'waste of (?:my|our) time',
      '(?:as )?i (?:already )?told you',
      'so slow',
      'seriously(?=\\s*\\?)',
      'ugh',
      'whatever(?=\\s*[,.!]|\\s*$)',
      "(?:you )?clearly (?:you )?(?:didn'?t|did not|don'?t|do not|can'?t|cannot)",
      "you (?:didn'?t|did not) even",
      'how many times (?:do|must|should|have) i',
      'are you even',
      'damn',
      'hell',
      'crap',
      'shit\\w*',
      'fuck\\w*',
      'bloody',
    ),
  ],
  [
    'rude',
    ja(
      'お前',
      'おまえ',
      'てめえ',
      'てめー',
      '貴様',
      '馬鹿',
      'ばか(?!り)',
      '間抜け',
      'まぬけ',
      '無能',
      '役立たず',
      katakana('バカ'),
      katakana('アホ'),
      katakana('クズ'),
      katakana('カス'),
      katakana('テメエ'),
      'ふざけ(?:るな|んな|てる|ないで)',
      'ちゃんと[^。！？!?]{0,8}?(?:答え|回答|読|書)',
      'なんで(?:わから|分から|でき|答えられ)ない',
      'うるさい',
      '黙れ',
      katakana('ボケ'),
      '使えない(?:奴|やつ|人)',
      '常識(?:でしょ|だろ|もない|がない|ないの)',
      'そんなことも(?:わから|分から|知らない|できない)',
      '当たり前(?:でしょ|だろ)',
      // 命令形: plain imperatives at the end of a clause.
      `(?:答え|教え|見せ|決め|続け|やめ|調べ)ろ${JA_END}`,
      `(?:言え|書け|話せ|出せ|送れ|しろ|せよ|来い|よこせ|急げ)${JA_END}`,
      `(?:答え|書き|し|言い|教え)なさい${JA_END}`,
    ),
  ],
  [
    'pressuring',
    en(
      'hurry(?: up)?',
      '(?:answer|reply|respond|tell me|answer me) (?:now|immediately|right now|quickly|at once|already)',
      'you (?:must|have to|need to) answer',
      'just answer',
      'answer the (?:damn |bloody )?question(?=\\s*[.!]|\\s*$)',
      'no excuses',
      'last chance',
      'or else',
      "i (?:don'?t|do not) have all day",
      'without delay',
      'right this minute',
    ),
  ],
  [
    'pressuring',
    ja(
      'さっさと',
      'とっとと',
      '早く(?:答え|しろ|して|書け|言え|教え|回答)',
      '急いで(?:答え|ください|くれ|回答)',
      '今すぐ(?:答え|回答|教え|書)',
      'いい加減に',
      '必ず答え(?:ろ|なさい|て)',
      '答えないと',
      '答えてくれないと',
      '時間の無駄',
      'いつまで(?:待たせ|かかって)',
    ),
  ],
  [
    'casual',
    en(
      'yo',
      'dude',
      'bro',
      'sup',
      'wanna',
      'gonna',
      'gotta',
      'lol',
      'lmao',
      'omg',
      'ur',
      'whatcha',
      "ain'?t",
      'nah',
      'kinda',
      'sorta',
      'cuz',
      'coz',
      'tho',
      'thx',
      'plz',
      'pls',
      'see ya',
      'ya know',
      'hey you',
    ),
  ],
  // "u" for "you", but not the U of "U.S.".
  ['casual', /(?<![\p{L}\p{N}.'])u(?![\p{L}\p{N}.'])/giu],
  [
    'casual',
    ja(
      katakana('マジ'),
      'まじで',
      'ヤバ(?:い|っ)',
      'やば(?:い|っ)',
      'ウケる',
      'じゃん(?!け)',
      'っしょ',
      'っす(?=[。！!？?、\\s]|$|か|ね|よ)',
      'だよね',
      'だよな',
      'だろ[？?]',
      'じゃねえ',
      '(?:^|(?<=[。！!？?\\s]))(?:おい|ねえ)(?=[、,！!])',
      '教えて(?!ください|下さい|いただ|頂|もらえ|くださ|くれませ|ほしい|欲しい)',
    ),
  ],
  ['shouting', /[!！]{2,}|[?？]{2,}|[!！][?？]|[?？][!！]/g],
];

const SINGLE_QUOTED = /(?<![\p{L}\p{N}])'[^'\n]{1,200}'(?![\p{L}\p{N}])/uy;
const CLOSING_MARK: Readonly<Record<string, string>> = { '「': '」', '『': '』', '“': '”' };

/**
 * The text with each quotation blanked to spaces of the same length: 「…」, 『…』 and “…” to the next closing mark,
 * "…" on one line, '…' of up to 200 characters between non-letters. What replacing
 * `「[^」]*」|『[^』]*』|“[^”]*”|"[^"\n]*"|'…'` did, as a scan that remembers where the next closing mark is: the regex
 * looked for it again from each of a long row of opening marks.
 */
function blankQuotations(text: string): string {
  const next = new Map<string, number>();
  /** The first `mark` at or after `from`, or -1; `from` only grows, so each mark's search goes through the text once. */
  const nextOf = (mark: string, from: number): number => {
    const known = next.get(mark);
    if (known !== undefined && (known < 0 || known >= from)) return known;
    const found = text.indexOf(mark, from);
    next.set(mark, found);
    return found;
  };
  let out = '';
  let copied = 0;
  for (let at = 0; at < text.length; at++) {
    const mark = text[at]!;
    let end = -1;
    const closing = CLOSING_MARK[mark];
    if (closing) {
      const close = nextOf(closing, at + 1);
      if (close >= 0) end = close + 1;
    } else if (mark === '"') {
      const close = nextOf('"', at + 1);
      const lineEnd = nextOf('\n', at + 1);
      if (close >= 0 && (lineEnd < 0 || lineEnd > close)) end = close + 1;
    } else if (mark === "'") {
      SINGLE_QUOTED.lastIndex = at;
      if (SINGLE_QUOTED.test(text)) end = SINGLE_QUOTED.lastIndex;
    }
    if (end > at) {
      out += text.slice(copied, at) + ' '.repeat(end - at);
      copied = end;
      at = end - 1;
    }
  }
  return out + text.slice(copied);
}
const CAPS_RUN = /\b[A-Z][A-Z']+(?:[\s,.!?-]+[A-Z][A-Z']+)+\b/g;

/**
 * Every tone problem in the text, in order. Shouting is two or more
 * exclamation or question marks in a row ("!!", "？？", "?!"), three
 * exclamation marks in all, a run of capitals with at least two common
 * words ("ANSWER THE QUESTION"; "AWS GCP" is acronyms), or a text of 12+
 * letters that is 80% capitals.
 */
export function findToneIssues(text: string): ToneIssue[] {
  const unquoted = blankQuotations(text);
  const mapped = normalizeWithMap(unquoted);
  const issues: ToneIssue[] = [];
  const add = (kind: ToneKind, from: number, to: number) => {
    const span = originalSpan(mapped, from, to);
    // One issue per place and kind: "早く答えろ" is both pressuring and a rude imperative.
    if (!issues.some((issue) => issue.kind === kind && issue.start < span.end && issue.end > span.start))
      issues.push({ kind, match: text.slice(span.start, span.end), ...span });
  };
  for (const [kind, rule] of RULES) {
    rule.lastIndex = 0;
    for (const match of mapped.text.matchAll(rule)) if (match[0].length > 0) add(kind, match.index, match.index + match[0].length);
  }
  const marks = [...mapped.text.matchAll(/!/g)];
  const first = marks[0];
  const last = marks.at(-1);
  if (marks.length >= 3 && first && last) add('shouting', first.index, last.index + 1);
  for (const match of mapped.text.matchAll(CAPS_RUN)) {
    const common = match[0].split(/[^A-Z']+/).filter((word) => ENGLISH_COMMON_WORDS.has(word.toLowerCase()));
    if (common.length >= 2) add('shouting', match.index, match.index + match[0].length);
  }
  const letters = mapped.text.match(/\p{Script=Latin}/gu) ?? [];
  const upper = letters.filter((char) => char !== char.toLowerCase()).length;
  if (letters.length >= 12 && upper / letters.length >= 0.8 && (mapped.text.match(/\p{Script=Latin}+/gu) ?? []).length >= 3) {
    const at = mapped.text.search(/\p{Script=Latin}/u);
    add('shouting', at, mapped.text.length);
  }
  return issues.sort((a, b) => a.start - b.start);
}

const KIND_TEXT: Readonly<Record<ToneKind, string>> = {
  rude: 'rude or demeaning wording',
  pressuring: 'pressuring wording',
  casual: 'overly casual wording',
  shouting: 'shouting',
};

/** `rude or demeaning wording: "stupid"`. */
export function describeToneIssue(issue: ToneIssue): string {
  const match = issue.match.length > 60 ? `${issue.match.slice(0, 57)}...` : issue.match;
  return `${KIND_TEXT[issue.kind]}: "${match}"`;
}
