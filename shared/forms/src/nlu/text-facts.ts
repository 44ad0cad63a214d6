import type { FactDefinition } from '@convo/contract';
import { admitsNotKnowing, isNilAnswer, isNonAnswer, isSkipRequest, isUndecided } from './answer-intent.js';
import { contentWords } from './content.js';
import { acceptsNone, asksForDescription, asksForIdentifier, asksWhetherAny, type FactType } from './fact-type.js';
import { CONTENT_THRESHOLDS, contentUnits, distinctiveKeywords, keywordsOf, sharedKeyword } from './free-text.js';
import type { Verdict } from './review-messages.js';
import { withoutExamples } from './options.js';
import { hasJapanese, normalizeText, trimSentence } from './text.js';
import { contactSpans, stripSpans } from './typed-values.js';

/** A fact with its type and the words that describe it (its own, plus the field's when it is the only fact). */
export type FactSpec = {
  fact: FactDefinition;
  type: FactType;
  options: readonly string[];
  texts: string[];
  soft?: boolean;
  /** Descriptions the form gives for its options ("C = AI in production"). */
  aliases?: Record<string, string[]>;
  /** The question's own words, which pick no option. */
  echo?: string[];
  /** Asked only under a condition ("if reported", 「ある場合」): never the reason a field fails. */
  conditional?: boolean;
};

/** The decision on one fact. */
export type FactJudgement = { spec: FactSpec; verdict: Verdict; satisfied: boolean; value: string | null };

export type TextFactOptions = {
  /** Remove emails, URLs and phone numbers first: they belong to the field's typed facts, not to its prose. */
  stripContacts: boolean;
  country: string | null;
};

type Answer = { text: string; units: number; nil: boolean };
type State = { spec: FactSpec; threshold: number; answers: string[]; judgement: FactJudgement | null };

/**
 * Judges a field's free-text facts against the answers (oldest first).
 *
 * Skip requests and non-answers never count. One free-text fact: all
 * informative answers together must reach the fact's content threshold.
 * Several: an answer covers every fact it shares a distinctive keyword with
 * (and is long enough for); answers that matched no keyword then fill the
 * still-uncovered facts in order — the first answer the first fact, a
 * follow-up the next missing one. "None/なし" satisfies only a fact that asks
 * whether something exists.
 */
export function judgeTextFacts(specs: FactSpec[], rawAnswers: string[], options: TextFactOptions): { results: FactJudgement[] } {
  const answers = usableAnswers(rawAnswers, options);
  const states: State[] = specs.map((spec) => ({ spec, threshold: thresholdOf(spec), answers: [], judgement: null }));
  if (states.length === 1 && states[0]) judgeSingle(states[0], answers);
  else if (states.length > 1) judgeSeveral(states, answers);
  const results = states.map(
    (state): FactJudgement => state.judgement ?? { spec: state.spec, verdict: { code: 'missing' }, satisfied: false, value: null },
  );
  return { results };
}

function thresholdOf(spec: FactSpec): number {
  return asksForDescription(spec.texts) ? CONTENT_THRESHOLDS.descriptive : CONTENT_THRESHOLDS.short;
}

function usableAnswers(raw: string[], options: TextFactOptions): Answer[] {
  return raw
    .filter((answer) => !isSkipRequest(answer) && !isNonAnswer(answer) && !isUndecided(answer) && !opensWithNotKnowing(answer))
    .map((answer) => (options.stripContacts ? stripSpans(answer, contactSpans(answer, options.country)) : answer))
    .map((answer) => trimSentence(answer.replace(/\s+/g, ' ')))
    .filter((answer) => answer.length > 0)
    .map((text) => ({ text, units: contentUnits(text), nil: isNilAnswer(text) }))
    .filter((answer) => answer.nil || answer.units >= CONTENT_THRESHOLDS.short);
}

// "I don't have a title yet" opening a reply: the thing asked for does not exist yet ("…and I don't have a laptop yet" later is a reason).
const NOTHING_YET = /\b(?:don'?t|do not|doesn'?t|does not) have (?:a|an|the|one)\s+(?:\w+\s+){0,2}yet\b/i;

/** "Sorry, still no idea - we're touring places": a reply whose first sentence says the answer is not known, without a "but". */
export function opensWithNotKnowing(answer: string): boolean {
  const first = answer.split(/(?<=[.!?。！？])\s*/)[0] ?? answer;
  // Said in its first few words ("Hmm, I'm not sure", "Sorry, still no idea"); "It pulls to the right on the highway,
  // not sure if that's related" opens with an answer and only doubts its relevance.
  const opening = hasJapanese(first) ? first.slice(0, 16) : first.split(/\s+/).slice(0, 8).join(' ');
  if ((admitsNotKnowing(opening) || NOTHING_YET.test(opening)) && !/\b(?:but|though|however)\b|けど|けれど|が、/i.test(first)) return true;
  return closesWithNotKnowingJa(answer);
}

/**
 * 「証券が見当たらなくて…今すぐには分かりません」: Japanese puts its main predicate last, so a reply whose last
 * sentence ends in not knowing gives reasons, not the answer — unless it doubts only a question inside it
 * (「関係あるかは分かりません」) or still guesses (「たぶん…」「3年くらい」).
 */
function closesWithNotKnowingJa(answer: string): boolean {
  const sentences = answer.split(/(?<=[。！？!?])\s*/).filter((piece) => piece.trim().length > 0);
  const sentence = sentences[0] ?? '';
  // One sentence only: 「頭痛がひどいです。原因は分かりません。」 answers first and doubts something else after.
  if (sentences.length !== 1 || !hasJapanese(sentence)) return false;
  const tail = sentence.replace(/(?<![。！？!?…\s])[。！？!?…\s]+$/u, '').slice(-12);
  if (!admitsNotKnowing(tail)) return false;
  // 「関係あるかは分かりません」 doubts a question inside the answer, 「原因は分かりません」 a thing it names.
  const before = sentence.slice(
    0,
    sentence.search(/(?:よく|ちょっと|はっきり(?:と)?)?(?:は)?(?:分|わ|解)か|知ら|知り|決ま|決め|未定|覚え|思い出/u),
  );
  if (/か(?:は|も|どうか(?:は)?)?\s*$|[\p{Script=Han}\p{Script=Katakana}ー]は\s*(?:まだ|よく)?$/u.test(before)) return false;
  // (「何で知ったんだったかな」 asks itself; 「3年前かな」 guesses.)
  return !/たぶん|多分|おそらく|恐らく|くらい|ぐらい|頃|ごろ|と思/u.test(answer) && !wondersAloud(answer);
}

const QUESTION_CHARS: ReadonlySet<string> = new Set('何いつどこ誰どうなぜ');

/**
 * A 「かな」 with none of 何いつどこ誰どうなぜ before it in its clause (what `(?<![何いつどこ誰どうなぜ][^、。]*)かな`
 * found): in one pass, where the lookbehind looked back to the clause's start from each 「かな」.
 */
function wondersAloud(text: string): boolean {
  let asked = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '、' || char === '。') asked = false;
    else if (char === 'か' && text[at + 1] === 'な' && !asked) return true;
    if (QUESTION_CHARS.has(char)) asked = true;
  }
  return false;
}

function judgeSingle(state: State, answers: Answer[]): void {
  const informative = answers.filter((answer) => !answer.nil);
  const nil = answers.filter((answer) => answer.nil).at(-1);
  const units = informative.reduce((sum, answer) => sum + answer.units, 0);
  const says = informative.some((answer) => saysSomething(answer, state.spec));
  if (informative.length > 0 && units >= state.threshold && says) {
    satisfy(
      state,
      informative.map((answer) => answer.text),
      { code: 'found', value: '' },
    );
  } else if (informative.length > 0 && !says && !nil) {
    const last = informative.at(-1)?.text ?? '';
    state.judgement = { spec: state.spec, verdict: { code: 'vague', text: last }, satisfied: false, value: null };
  } else if (nil) {
    judgeNil(state, nil);
  } else if (informative.length > 0) {
    const last = informative.at(-1)?.text ?? '';
    state.judgement = { spec: state.spec, verdict: { code: 'too_short', text: last }, satisfied: false, value: null };
  }
}

function judgeSeveral(states: State[], answers: Answer[]): void {
  const keywords = distinctiveKeywords(states.map((state) => keywordsOf(state.spec.texts)));
  const used = new Set<Answer>();
  for (const answer of answers) {
    if (answer.nil) continue;
    states.forEach((state, i) => {
      const keyword = sharedKeyword(answer.text, keywords[i] ?? []);
      if (!keyword || state.judgement?.satisfied) return;
      used.add(answer);
      if (answer.units >= state.threshold && saysSomething(answer, state.spec)) satisfy(state, [answer.text], { code: 'covered', keyword });
      else
        state.judgement = {
          spec: state.spec,
          verdict: { code: saysSomething(answer, state.spec) ? 'too_short' : 'vague', text: answer.text },
          satisfied: false,
          value: null,
        };
    });
  }
  for (const answer of answers) {
    if (used.has(answer)) continue;
    const next = states.find((state) => !state.judgement?.satisfied);
    if (!next) break;
    if (answer.nil) judgeNil(next, answer);
    else if (answer.units >= next.threshold && saysSomething(answer, next.spec))
      satisfy(next, [answer.text], { code: 'covered', keyword: null });
    else
      next.judgement = {
        spec: next.spec,
        verdict: { code: saysSomething(answer, next.spec) ? 'too_short' : 'vague', text: answer.text },
        satisfied: false,
        value: null,
      };
  }
}

/** The answer has a content word the fact's own words do not already contain ("a little" to "what volunteering" has none). */
function saysSomething(answer: Answer, spec: FactSpec): boolean {
  // The form's own example ("e.g. Toyota Prius") may well be the respondent's true answer: it is no echo of the question.
  return contentWords(answer.text, spec.texts.map(withoutExamples)).length > 0;
}

/** A token shaped like a code: digits with something ("4701234/25", "MC-2025-118734", 「品川 300」), or a run of capitals ("QXKZRT"). */
function hasCode(text: string): boolean {
  const normalized = normalizeText(text);
  // (Each run from its start, the lookbehind: tried from each character of a long run without a digit, it was quadratic.)
  return (
    (normalized.match(/(?<![A-Za-z0-9/-])[A-Za-z0-9/-]*\d[A-Za-z0-9/-]*/g) ?? []).some((word) => word.length >= 2) ||
    /\b[A-Z]{4,}\b/.test(normalized)
  );
}

const CODE_RUN = /(?<![A-Za-z0-9])[A-Za-z0-9][A-Za-z0-9/.-]*(?: [A-Za-z0-9/.-]+)*/g;

/**
 * The code an identifier answer gives, as the clerk copies it: "It's 5CG3214XKQ" → "5CG3214XKQ", 「1207 3365 49 って
 *書いてあります」 → "1207336549". Null when the latest answer with a code holds more than one run of it (a plate
 * 「品川 300 あ 12-34」 keeps its words).
 */
function codeIn(answers: readonly string[]): string | null {
  const latest = [...answers].reverse().find(hasCode);
  if (!latest) return null;
  const runs = (normalizeText(latest).match(CODE_RUN) ?? [])
    .map((codeRun) =>
      codeRun
        .split(' ')
        .map((word) => word.replace(/(?<![.-])[.-]+$/, ''))
        .filter((word) => /\d/.test(word) || /^[A-Z]{3,}$/.test(word))
        .join(' '),
    )
    .filter((codeRun) => hasCode(codeRun));
  if (runs.length !== 1 || !runs[0]) return null;
  const run = runs[0];
  // Digits grouped for reading ("1207 3365 49") are one number; words between codes stay apart.
  return /^[\d ]+$/.test(run) ? run.replace(/ /g, '') : run;
}

function judgeNil(state: State, nil: Answer): void {
  if (asksWhetherAny(state.spec.texts) || acceptsNone(state.spec.fact.doneCriteria))
    satisfy(state, [nil.text], { code: 'nil_ok', text: nil.text });
  else state.judgement = { spec: state.spec, verdict: { code: 'nil_not_enough', text: nil.text }, satisfied: false, value: null };
}

function satisfy(state: State, texts: string[], verdict: Verdict): void {
  // "The sticker has worn off, so I can't look it up" says plenty, but a serial number is a code or nothing.
  const identifier = asksForIdentifier(state.spec.texts);
  if (verdict.code !== 'nil_ok' && identifier && ![...state.answers, ...texts].some(hasCode)) {
    state.judgement = { spec: state.spec, verdict: { code: 'no_code', text: texts.at(-1) ?? '' }, satisfied: false, value: null };
    return;
  }
  state.answers.push(...texts);
  const value = (identifier ? codeIn(state.answers) : null) ?? state.answers.join('\n');
  const stored: Verdict = verdict.code === 'found' ? { code: 'found', value } : verdict;
  state.judgement = { spec: state.spec, verdict: stored, satisfied: true, value };
}
