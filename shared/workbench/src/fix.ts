import type { Problem, ProblemFixes } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import { isKana } from 'wanakana';
import { checkProblem, choiceKind, normalizeChoice, type CheckFacts } from './check.js';
import { hiragana } from './kana.js';
import { answerValue, formatNumber, numberStyleOf, sameNumber } from './numbers.js';

/**
 * The AutoFixer (docs/seeds/003): a fix for what the checker found, without
 * applying it. It fixes what it can work out: a wrong mark, a missing or
 * doubled correct answer, a duplicate, empty or off-topic choice (a wrong
 * answer of the same kind and format takes its place), an explanation that
 * leads elsewhere (rewritten from the working), choices and explanation left
 * behind by a changed prompt (recomputed), a model answer that misses.
 * Confidence is lowest when the answer itself had to be inferred.
 */
import { changesTo, problemLanguage, rebuildFromRecord } from './remake.js';

export type FixResult = { fixes: ProblemFixes; confidence: number; fixed: string[] };

export async function autoFix(problem: Problem, language: 'ja' | 'en', known?: CheckFacts): Promise<FixResult> {
  const facts = known ?? (await checkProblem(problem, language));
  if (facts.issues.some((issue) => issue.severity === 'error')) {
    const whole = await fixFromRecord(problem, language);
    if (whole) return whole;
  }
  return withinTextBudget(() => fixChecked(problem, language, facts));
}

/**
 * A generated problem whose record still describes its prompt (the record
 * follows the numbers a teacher typed into it) is repaired as a whole: built
 * again from the record, every part that depends on the prompt — the
 * choices, the mark, the explanation's working, the model answer, the
 * rubric — is rewritten together, not the marked choice alone. Only when the
 * rebuilt problem asks the same prompt and passes the checker.
 */
async function fixFromRecord(problem: Problem, language: 'ja' | 'en'): Promise<FixResult | null> {
  if (!problem.source) return null;
  const rebuilt = await rebuildFromRecord(problem.source, problem.type, problemLanguage(problem) ?? language);
  if (!rebuilt || rebuilt.prompt.normalize('NFKC').trim() !== problem.prompt.normalize('NFKC').trim()) return null;
  // The record is the same and so is the prompt: what changes is every part built from them.
  const changes = changesTo(problem, { ...rebuilt, prompt: problem.prompt, source: problem.source }).filter(
    (change) => change.value !== null,
  );
  if (changes.length === 0) return null;
  const fixes = Object.fromEntries(changes.map((change) => [change.field, change.value])) as ProblemFixes;
  const after = await checkProblem({ ...problem, ...fixes }, language);
  if (after.issues.some((issue) => issue.severity === 'error')) return null;
  return { fixes, confidence: 0.95, fixed: ['rebuilt_from_record'] };
}

function fixChecked(problem: Problem, language: 'ja' | 'en', facts: CheckFacts): FixResult {
  const kinds = new Set(facts.issues.map((issue) => issue.kind));
  const fixes: ProblemFixes = {};
  const fixed: string[] = [];
  const confidences: number[] = [];
  const expectedText = expectedAnswerText(problem, facts);

  if (problem.type === 'written') {
    if (kinds.has('written_missing_answer') && expectedText !== null) {
      const working = facts.expected.solution?.working;
      fixes.modelAnswer = working ? `${working}${language === 'ja' ? '。答え: ' : '. Answer: '}${expectedText}` : expectedText;
      fixed.push('written_missing_answer');
      confidences.push(0.85);
    }
    // The working in the explanation, redone with the answer the prompt makes.
    if (kinds.has('explanation_contradicts') && expectedText !== null && facts.expected.solution?.working) {
      fixes.explanation = explanationFor(problem, facts, expectedText, language);
      fixed.push('explanation_contradicts');
      confidences.push(0.8);
    }
    return finish(fixes, fixed, confidences);
  }

  const choices = [...(problem.choices ?? [])];
  let marked = problem.correctChoiceIndex ?? 0;
  const template = choiceTemplate(choices, marked);
  const replaceAt = new Set<number>();
  const seen = new Map<string, number>();
  choices.forEach((choice, index) => {
    const key = normalizeChoice(choice);
    if (key === '') replaceAt.add(index);
    else if (seen.has(key)) replaceAt.add(index === marked ? seen.get(key)! : index);
    else seen.set(key, index);
  });
  if (kinds.has('off_topic_choice')) {
    const kindsOf = choices.map(choiceKind);
    const majority = mostCommon(kindsOf);
    kindsOf.forEach((kind, index) => {
      if (kind !== majority && index !== marked) replaceAt.add(index);
    });
  }

  if (kinds.has('number_mismatch') && facts.expected.solution && expectedText !== null) {
    // The prompt changed: every choice is worked out again from it, the answer where the mark is.
    const recomputed = numericDistractors(facts.expected.solution.value, 3).map((value) => template(value));
    const next = [...choices];
    next[marked] = expectedText;
    let cursor = 0;
    for (let index = 0; index < next.length; index++) if (index !== marked) next[index] = recomputed[cursor++]!;
    fixes.choices = next;
    fixes.explanation = explanationFor(problem, facts, expectedText, language);
    fixed.push('number_mismatch');
    confidences.push(0.7);
    return finish(fixes, fixed, confidences);
  }

  if (facts.correctIndices.length === 0 && expectedText !== null && (kinds.has('no_correct_choice') || kinds.has('wrong_answer'))) {
    choices[marked] = expectedText;
    fixed.push('no_correct_choice');
    confidences.push(0.8);
  } else if (facts.correctIndices.length >= 1 && !facts.correctIndices.includes(marked)) {
    marked = facts.correctIndices[0]!;
    fixes.correctChoiceIndex = marked;
    fixed.push('wrong_answer');
    confidences.push(0.95);
  }
  if (facts.correctIndices.length > 1) {
    for (const index of facts.correctIndices) if (index !== marked) replaceAt.add(index);
    fixed.push('multiple_correct');
  }

  if (replaceAt.size > 0) {
    const fresh = freshDistractors(facts, choices, marked, replaceAt.size, template);
    if (fresh.length === replaceAt.size) {
      [...replaceAt].forEach((index, position) => (choices[index] = fresh[position]!));
      for (const kind of ['duplicate_choice', 'empty_choice', 'off_topic_choice'] as const) if (kinds.has(kind)) fixed.push(kind);
      confidences.push(facts.expected.value !== null || facts.expected.reading !== null ? 0.85 : 0.6);
    }
  }
  if (choices.some((choice, index) => choice !== (problem.choices ?? [])[index])) fixes.choices = choices;

  if (
    kinds.has('explanation_names_other') ||
    kinds.has('explanation_contradicts') ||
    (fixed.includes('wrong_answer') && !kinds.has('explanation_names_other'))
  ) {
    const answer = choices[marked] ?? '';
    const rewritten = explanationFor({ ...problem, choices, correctChoiceIndex: marked }, facts, answer, language);
    if (rewritten !== problem.explanation) {
      fixes.explanation = rewritten;
      fixed.push(kinds.has('explanation_contradicts') ? 'explanation_contradicts' : 'explanation_names_other');
      confidences.push(facts.expected.solution ? 0.8 : 0.55);
    }
  }
  return finish(fixes, fixed, confidences);
}

function finish(fixes: ProblemFixes, fixed: string[], confidences: number[]): FixResult {
  const clean = Object.fromEntries(Object.entries(fixes).filter(([, value]) => value !== undefined)) as ProblemFixes;
  const confidence = confidences.length === 0 ? 0 : Math.round(Math.min(...confidences) * 100) / 100;
  return { fixes: clean, confidence, fixed: [...new Set(fixed)] };
}

function mostCommon<T>(items: T[]): T {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].sort((left, right) => right[1] - left[1])[0]![0];
}

/** The expected answer written like the problem's choices ("x = 5", "12 cm²", "3/4", a reading). */
function expectedAnswerText(problem: Problem, facts: CheckFacts): string | null {
  if (facts.expected.reading !== null) return facts.expected.reading;
  const solution = facts.expected.solution;
  if (!solution) return null;
  const choices = problem.choices ?? [];
  const template = choiceTemplate(choices, problem.correctChoiceIndex ?? 0);
  const value =
    solution.alternatives.length > 0 && choices.some((choice) => /3\.14|\.\d/.test(choice)) ? solution.alternatives[0]! : solution.value;
  return template(value);
}

/** How the choices write a number: a prefix ("x = "), a suffix (" cm²", "%"), fractions or decimals. */
function choiceTemplate(choices: readonly string[], marked: number): (value: number) => string {
  const model = [choices[marked], ...choices].find((choice) => choice !== undefined && answerValue(choice) !== null) ?? '';
  const [prefix, , suffix] = aroundNumber(model) ?? ['', '', ''];
  const style = numberStyleOf(choices);
  return (value: number) => `${prefix}${formatNumber(value, style)}${suffix}`;
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * The text split around its first number as `^(.*?)(number)(.*)$` splits it:
 * [before, number, after], where neither before nor after crosses a line;
 * null when there is none. Run by run, not split by split: the regex retried
 * every split of a long row of digits.
 */
function aroundNumber(text: string): [string, string, string] | null {
  const firstBreak = text.search(LINE_BREAK);
  let lastBreak = text.length - 1;
  while (lastBreak >= 0 && !LINE_BREAK.test(text[lastBreak]!)) lastBreak--;
  const number = /-?\d+(?:\.\d+)?(?:\s*\/\s*\d+)?/y;
  // A number read from inside a run of digits ends where the one read from its start does: one try per run.
  for (const run of text.matchAll(/-?\d+/g)) {
    if (firstBreak >= 0 && run.index > firstBreak) return null;
    number.lastIndex = run.index;
    const written = number.exec(text)![0];
    const end = run.index + written.length;
    if (end > lastBreak) return [text.slice(0, run.index), written, text.slice(end)];
  }
  return null;
}

function numericDistractors(value: number, count: number): number[] {
  const candidates = [value * 2, value + 1, value - 1, value / 2, value + 10, value * 10, value - 10, value + 2].filter((candidate) =>
    Number.isFinite(candidate),
  );
  const kept: number[] = [];
  for (const candidate of candidates) {
    if (kept.length < count && !sameNumber(candidate, value) && !kept.some((other) => sameNumber(other, candidate))) kept.push(candidate);
  }
  return kept;
}

/** Wrong answers of the choices' own kind that are not yet among them. */
function freshDistractors(
  facts: CheckFacts,
  choices: string[],
  marked: number,
  count: number,
  template: (value: number) => string,
): string[] {
  const taken = new Set(
    choices.filter((_, index) => index === marked || !problemChoiceNeedsReplacing(choices, index, marked)).map(normalizeChoice),
  );
  const out: string[] = [];
  const offer = (candidate: string) => {
    const key = normalizeChoice(candidate);
    if (out.length < count && key !== '' && !taken.has(key)) {
      taken.add(key);
      out.push(candidate);
    }
  };
  const reading =
    facts.expected.reading ?? (isKana(normalizeChoice(choices[marked] ?? '')) ? hiragana(normalizeChoice(choices[marked] ?? '')) : null);
  if (reading) for (const variant of misreadings(reading)) offer(variant);
  const base = facts.expected.value ?? answerValue(choices[marked] ?? '');
  if (base !== null) for (const value of numericDistractors(base, 8)) offer(template(value));
  return out;
}

function problemChoiceNeedsReplacing(choices: string[], index: number, marked: number): boolean {
  if (index === marked) return false;
  const key = normalizeChoice(choices[index] ?? '');
  return key === '' || choices.findIndex((choice) => normalizeChoice(choice) === key) !== index;
}

const VOICED: Record<string, string> = {
  か: 'が',
  き: 'ぎ',
  く: 'ぐ',
  け: 'げ',
  こ: 'ご',
  さ: 'ざ',
  し: 'じ',
  す: 'ず',
  せ: 'ぜ',
  そ: 'ぞ',
  た: 'だ',
  ち: 'ぢ',
  つ: 'づ',
  て: 'で',
  と: 'ど',
  は: 'ば',
  ひ: 'び',
  ふ: 'ぶ',
  へ: 'べ',
  ほ: 'ぼ',
};
const UNVOICED = Object.fromEntries(Object.entries(VOICED).map(([plain, voiced]) => [voiced, plain]));

/** Readings a learner plausibly writes instead: voicing added or dropped, a small っ or a long vowel added or dropped. */
function misreadings(reading: string): string[] {
  const variants = new Set<string>();
  for (let index = 0; index < reading.length; index++) {
    const character = reading[index]!;
    const swap = VOICED[character] ?? UNVOICED[character];
    if (swap) variants.add(reading.slice(0, index) + swap + reading.slice(index + 1));
  }
  const small = reading.indexOf('っ');
  if (small > 0) variants.add(reading.slice(0, small) + reading.slice(small + 1));
  else if (reading.length > 2) variants.add(reading.slice(0, 1) + 'っ' + reading.slice(1));
  const long = reading.search(/[おこそとのほもよろごぞどぼぽ]う|ゆう/);
  if (long >= 0) variants.add(reading.slice(0, long + 1) + reading.slice(long + 2));
  else variants.add(reading.replace(/([こそとほよ])/, '$1う'));
  variants.delete(reading);
  return [...variants];
}

/** An explanation that leads to `answer`: the checker's working when it has one, else the old text with its answer corrected. */
function explanationFor(problem: Problem, facts: CheckFacts, answer: string, language: 'ja' | 'en'): string {
  const working = facts.expected.solution?.working;
  if (working) return language === 'ja' ? `${working}。答えは ${answer} です。` : `${working}, so the answer is ${answer}.`;
  if (facts.expected.reading) return language === 'ja' ? `「${answer}」と読みます。` : `It is read "${answer}".`;
  const choices = problem.choices ?? [];
  let text = problem.explanation;
  choices.forEach((choice, index) => {
    if (index !== problem.correctChoiceIndex && choice.trim() !== '' && text.includes(choice)) text = text.split(choice).join(answer);
  });
  return text === problem.explanation
    ? language === 'ja'
      ? `${problem.explanation}（正解は「${answer}」）`
      : `${problem.explanation} (The answer is "${answer}".)`
    : text;
}
