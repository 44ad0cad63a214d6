import type { ConsistencyIssue, Problem } from '@convo/contract';
import { checkTextBudget, loadKuromoji, tokenizeInPieces, withinTextBudget, type KuromojiTokenizer } from '@convo/text';
import { isHiragana, isKana } from 'wanakana';
import { hiragana } from './kana.js';
import {
  answerValue,
  closeNumber,
  formatNumber,
  normalizeNumerals,
  numberStyleOf,
  quantitiesIn,
  quantityUnit,
  sameNumber,
  toFraction,
} from './numbers.js';
import { dimensionsAfter, solvePrompt, type Solution } from './solve.js';
import { mathAnswerOf, type MathParams, mathTopicOf } from './generate/math.js';

/**
 * The ConsistencyChecker (docs/seeds/003): rules that really check, whoever
 * wrote the problem. A prompt whose arithmetic can be solved is solved and
 * its answer compared with the marked choice; a kanji reading is read with
 * the morphological analyser's dictionary; choices are checked for being
 * present, distinct and of the kind the prompt asks for; the explanation
 * must lead to the marked answer, and the numbers of prompt, explanation and
 * choices must agree. Errors break the problem (❌), warnings weaken it (⚠️).
 */

export type CheckKind =
  | 'choice_count'
  | 'empty_choice'
  | 'duplicate_choice'
  | 'no_marked_answer'
  | 'wrong_answer'
  | 'no_correct_choice'
  | 'multiple_correct'
  | 'off_topic_choice'
  | 'explanation_names_other'
  | 'explanation_contradicts'
  | 'number_mismatch'
  | 'written_missing_answer'
  | 'missing_explanation'
  | 'missing_rubric'
  | 'implausible_distractor'
  | 'explanation_incomplete';

export type CheckIssue = ConsistencyIssue & { kind: CheckKind };

export type CheckFacts = {
  issues: CheckIssue[];
  /** The right answer as the checker worked it out (a value or a reading), when it could. */
  expected: { value: number | null; reading: string | null; solution: Solution | null };
  /** Indices of the choices that equal the expected answer. */
  correctIndices: number[];
};

type Lang = 'ja' | 'en';
type Say = (ja: string, en: string) => string;

/** Choice labels as worksheets print them, in every style an explanation may use. */
const LABEL_STYLES = [
  ['A', 'B', 'C', 'D'],
  ['ア', 'イ', 'ウ', 'エ'],
  ['1', '2', '3', '4'],
  ['①', '②', '③', '④'],
  ['a', 'b', 'c', 'd'],
];

export function normalizeChoice(text: string): string {
  // (The lookbehind starts the match only where the final run of marks starts: tried at each mark, it was quadratic.)
  return normalizeNumerals(text)
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/(?<![。．.、,])[。．.、,]+$/, '');
}

export async function checkProblem(problem: Problem, language: Lang): Promise<CheckFacts> {
  // The dictionary first (loaded once per process); the check itself is synchronous, and runs under the text budget.
  const tokenizer = asksForReading(problem.prompt) ? await loadKuromoji() : null;
  return withinTextBudget(() => checkLoaded(problem, language, tokenizer));
}

function checkLoaded(problem: Problem, language: Lang, tokenizer: KuromojiTokenizer | null): CheckFacts {
  const say: Say = (ja, en) => (language === 'ja' ? ja : en);
  const issues: CheckIssue[] = [];
  const add = (kind: CheckKind, field: string, severity: 'error' | 'warning', issue: string, suggestion: string) =>
    issues.push({ kind, field, severity, issue, suggestion });
  const solution = solvePrompt(problem.prompt) ?? recordSolution(problem);
  const reading = tokenizer ? expectedReading(problem.prompt, tokenizer) : null;
  const expected = { value: solution?.value ?? null, reading, solution };

  if (problem.explanation.trim() === '')
    add(
      'missing_explanation',
      'explanation',
      'warning',
      say('解説がありません。', 'The explanation is empty.'),
      say('解き方を書く', 'Explain the steps'),
    );

  if (problem.type === 'written') {
    checkWritten(problem, expected, add, say);
    return { issues, expected, correctIndices: [] };
  }

  const choices = problem.choices ?? [];
  if (choices.length !== 4)
    add(
      'choice_count',
      'choices',
      'error',
      say(`選択肢が${choices.length}個です（4個必要）。`, `There are ${choices.length} choices; four are needed.`),
      say('選択肢を4つにする', 'Give four choices'),
    );
  choices.forEach((choice, index) => {
    if (choice.trim() === '')
      add(
        'empty_choice',
        'choices',
        'error',
        say(`選択肢${index + 1}が空です。`, `Choice ${index + 1} is empty.`),
        say('空の選択肢を埋める', 'Fill in the empty choice'),
      );
  });
  const seen = new Map<string, number>();
  choices.forEach((choice, index) => {
    const key = normalizeChoice(choice);
    if (key === '') return;
    const earlier = seen.get(key);
    if (earlier !== undefined)
      add(
        'duplicate_choice',
        'choices',
        'error',
        say(`選択肢${earlier + 1}と${index + 1}が同じです。`, `Choices ${earlier + 1} and ${index + 1} are the same.`),
        say('重複した選択肢を別の誤答にする', 'Replace the duplicate with another wrong answer'),
      );
    else seen.set(key, index);
  });
  const marked = problem.correctChoiceIndex;
  if (marked === null || marked < 0 || marked >= choices.length) {
    add(
      'no_marked_answer',
      'correctChoiceIndex',
      'error',
      say('正解の選択肢が指定されていません。', 'No choice is marked correct.'),
      say('正解を指定する', 'Mark the correct choice'),
    );
  }

  const offTopic = offTopicChoice(choices, solution !== null, reading !== null);
  if (offTopic !== null)
    add(
      'off_topic_choice',
      'choices',
      'error',
      say(
        `選択肢${offTopic + 1}「${choices[offTopic]}」は問題が求める種類の答えではありません。`,
        `Choice ${offTopic + 1} ("${choices[offTopic]}") is not the kind of answer the prompt asks for.`,
      ),
      say('同じ種類の誤答にする', 'Use a wrong answer of the same kind'),
    );

  const mismatch = numberMismatch(problem, solution);
  if (mismatch)
    add(
      'number_mismatch',
      mismatch.field,
      'error',
      say(
        `問題文の数（${mismatch.promptOnly.join(', ')}）と解説・選択肢の数（${mismatch.elsewhereOnly.join(', ')}）が合っていません。`,
        `The prompt's numbers (${mismatch.promptOnly.join(', ')}) do not match those the explanation and choices use (${mismatch.elsewhereOnly.join(', ')}).`,
      ),
      say('解説と選択肢を問題文に合わせる', 'Align choices and explanation'),
    );

  const correctIndices = matchingChoices(choices, solution, reading);
  const answerKnown = solution !== null || reading !== null;
  if (
    answerKnown &&
    !mismatch &&
    marked !== null &&
    marked >= 0 &&
    marked < choices.length &&
    numericOrReadingChoices(choices, solution, reading)
  ) {
    const shown = solution ? formatValue(solution.value, [problem.prompt, ...choices]) : reading!;
    if (correctIndices.length === 0) {
      add(
        'no_correct_choice',
        'choices',
        'error',
        say(`正しい答え（${shown}）が選択肢にありません。`, `The correct answer (${shown}) is not among the choices.`),
        say('正解を選択肢に入れる', 'Add the right answer'),
      );
    } else if (correctIndices.length > 1) {
      add(
        'multiple_correct',
        'choices',
        'error',
        say(
          `選択肢${correctIndices.map((index) => index + 1).join('と')}がどちらも正解（${shown}）です。`,
          `Choices ${correctIndices.map((index) => index + 1).join(' and ')} are both correct (${shown}).`,
        ),
        say('正解を1つにする', 'Keep one correct choice'),
      );
    } else if (!correctIndices.includes(marked)) {
      add(
        'wrong_answer',
        'correctChoiceIndex',
        'error',
        say(
          `正解は選択肢${correctIndices[0]! + 1}（${choices[correctIndices[0]!]}）ですが、選択肢${marked + 1}が正解になっています。`,
          `The correct answer is choice ${correctIndices[0]! + 1} (${choices[correctIndices[0]!]}), but choice ${marked + 1} is marked.`,
        ),
        say(`正解を選択肢${correctIndices[0]! + 1}にする`, `Mark choice ${correctIndices[0]! + 1}`),
      );
    }
  }

  if (marked !== null && marked >= 0 && marked < choices.length) {
    checkExplanation(problem, marked, solution, add, say);
    checkDistractors(choices, marked, solution, reading, add, say);
    checkExplanationCovers(problem, choices[marked]!, add, say);
  }
  return { issues, expected, correctIndices };
}

function asksForReading(prompt: string): boolean {
  return /読み|よみ|reading|read/i.test(prompt);
}

/** 『世界』の読み / the reading of 「世界」: the dictionary's reading of the quoted kanji, in hiragana. */
function expectedReading(prompt: string, tokenizer: KuromojiTokenizer): string | null {
  const quoted = /[『「"“]([\p{Script=Han}々〆ヶ]+[\p{Script=Hiragana}]*)[』」"”]/u.exec(prompt);
  if (!quoted) return null;
  const tokens = tokenizeInPieces(tokenizer, quoted[1]!).map((placed) => placed.token);
  if (tokens.some((token) => !token.reading || token.reading === '*')) return null;
  return hiragana(tokens.map((token) => token.reading).join(''));
}

function matchingChoices(choices: readonly string[], solution: Solution | null, reading: string | null): number[] {
  // The right number in another kind of unit than the choices share (60 kg among distances) is not the answer.
  const dimensions = choices.map(unitDimension);
  const counts = new Map<string, number>();
  for (const dimension of dimensions) if (dimension && dimension !== 'plain') counts.set(dimension, (counts.get(dimension) ?? 0) + 1);
  const shared = [...counts].find(([, count]) => count >= 2 && count > choices.length / 2)?.[0] ?? null;
  return choices.flatMap((choice, index) => {
    if (reading !== null) return hiragana(normalizeChoice(choice)) === reading ? [index] : [];
    if (!solution) return [];
    const dimension = dimensions[index];
    if (shared && dimension && dimension !== 'plain' && dimension !== shared) return [];
    const value = answerValue(choice);
    if (value === null) return [];
    const targets = [solution.value, ...solution.alternatives];
    const close = solution.kind === 'area' || solution.alternatives.length > 0;
    return targets.some((target) => (close ? closeNumber(value, target) : sameNumber(value, target))) ? [index] : [];
  });
}

/** The answer check applies when the choices are answers of the kind worked out (numbers, or readings in kana). */
function numericOrReadingChoices(choices: readonly string[], solution: Solution | null, reading: string | null): boolean {
  const filled = choices.filter((choice) => choice.trim() !== '');
  if (reading !== null) return filled.filter((choice) => isKana(normalizeChoice(choice))).length >= 3;
  if (solution) return filled.filter((choice) => answerValue(choice) !== null).length >= 3;
  return false;
}

type ChoiceKind = 'number' | 'kana' | 'japanese' | 'word' | 'phrase' | 'other';

export function choiceKind(choice: string): ChoiceKind {
  const text = normalizeNumerals(choice).trim();
  if (text === '') return 'other';
  if (answerValue(text) !== null && /\d/.test(text) && !/[a-z]{3,}/i.test(text.replace(/\b(cm|mm|km|m|kg|g|x|dollars?|yen)\b/gi, '')))
    return 'number';
  if (isKana(text.replace(/\s/g, ''))) return 'kana';
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'japanese';
  if (/^[a-z][a-z'-]*$/i.test(text)) return 'word';
  if (/^[a-z][a-z' ,;()-]*$/i.test(text)) return 'phrase';
  return 'other';
}

/** One choice of another kind than the other three (a city among numbers, a number among readings), or than the prompt asks for. */
function offTopicChoice(choices: readonly string[], numeric: boolean, reading: boolean): number | null {
  if (choices.length !== 4 || choices.some((choice) => choice.trim() === '')) return null;
  const kinds = choices.map(choiceKind);
  const expected: ChoiceKind | null = reading ? 'kana' : numeric ? 'number' : null;
  const counts = new Map<ChoiceKind, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const [majority, size] = [...counts].sort((left, right) => right[1] - left[1])[0]!;
  const target = expected ?? (size >= 3 ? majority : null);
  if (target === null || (counts.get(target) ?? 0) < 3) return null;
  // Words and phrases are one family, and so are kana and kanji words unless a reading is asked for.
  const family = (kind: ChoiceKind) => (kind === 'word' || kind === 'phrase' ? 'latin' : kind === 'kana' && !reading ? 'japanese' : kind);
  const odd = kinds.findIndex((kind) => family(kind) !== family(target) && kind !== 'other');
  if (odd >= 0) return odd;
  if (target === 'number') {
    // Quantities of another dimension: a mass among lengths.
    const dimensions = choices.map(unitDimension);
    const known = dimensions.filter((dimension): dimension is string => dimension !== null);
    if (known.length === 4) {
      const common = [...new Set(known)].find((dimension) => known.filter((other) => other === dimension).length === 3);
      if (common) return dimensions.findIndex((dimension) => dimension !== common);
    }
  }
  return null;
}

const DIMENSIONS: Array<[RegExp, string]> = [
  [/(?:mm|cm|km|m)(?:²|2|\^2)|平方/i, 'area'],
  [/\b(?:mm|cm|km|m)\b|メートル|センチ|キロメートル|miles?|inch|feet|ft/i, 'length'],
  [/\b(?:mg|g|kg|t)\b|グラム|キログラム|トン|pounds?|lbs?/i, 'mass'],
  [/\b(?:ml|dl|l)\b|リットル|litres?|liters?/i, 'volume'],
  [/秒|分|時間|seconds?|minutes?|hours?|days?|日/i, 'time'],
  [/円|\$|dollars?|yen|€|euros?/i, 'money'],
  [/°|℃|度/i, 'temperature'],
  [/人|people|persons?|students?/i, 'people'],
  [/%|パーセント|percent/i, 'percent'],
];

function unitDimension(choice: string): string | null {
  const unit = normalizeNumerals(choice).replace(/^[\s\d.,/+-]+/, '');
  if (unit.trim() === '') return 'plain';
  return DIMENSIONS.find(([pattern]) => pattern.test(unit))?.[1] ?? null;
}

/**
 * Wrong choices nobody would pick (seed: ダミー選択肢が適切な難易度か): a
 * number more than twenty times off the answer, a negative one for a
 * quantity that cannot be negative, a reading of a very different length.
 */
function checkDistractors(
  choices: readonly string[],
  marked: number,
  solution: Solution | null,
  reading: string | null,
  add: Add,
  say: Say,
): void {
  const answer = choices[marked]!;
  choices.forEach((choice, index) => {
    if (index === marked || choice.trim() === '') return;
    let far = false;
    if (reading !== null) far = Math.abs([...normalizeChoice(choice)].length - [...normalizeChoice(answer)].length) > 3;
    else if (solution) {
      const [value, target] = [answerValue(choice), answerValue(answer)];
      if (value !== null && target !== null && target !== 0 && value !== 0)
        far = Math.abs(value / target) > 20 || Math.abs(value / target) < 1 / 20;
      if (value !== null && target !== null && value < 0 && target > 0 && (solution.kind === 'area' || solution.kind === 'percent_of'))
        far = true;
    }
    if (far)
      add(
        'implausible_distractor',
        'choices',
        'warning',
        say(
          `選択肢${index + 1}「${choice}」は明らかに違うため、誤答として働きません。`,
          `Choice ${index + 1} ("${choice}") is too obviously wrong to be a real distractor.`,
        ),
        say('紛らわしい誤答にする', 'Use a likelier decoy'),
      );
  });
}

/** An explanation that neither names the answer nor shows any working (seed: 必要な情報が含まれているか). */
function checkExplanationCovers(problem: Problem, answer: string, add: Add, say: Say): void {
  const explanation = problem.explanation.trim();
  if (explanation === '') return;
  const names =
    containsChoice(explanation, answer) ||
    (answerValue(answer) !== null && quantitiesIn(explanation).some((quantity) => sameNumber(quantity.value, answerValue(answer)!)));
  const works = /=|→|×|÷|because|since|so |therefore|means|ので|ため|から|よって|したがって|読み|意味/i.test(explanation);
  if (!names && !works)
    add(
      'explanation_incomplete',
      'explanation',
      'warning',
      say('解説に答えもその理由も書かれていません。', 'The explanation gives neither the answer nor the reason for it.'),
      say('答えと理由を書く', 'State answer + why'),
    );
}

type Add = (kind: CheckKind, field: string, severity: 'error' | 'warning', issue: string, suggestion: string) => void;

/** Numbers the prompt's arithmetic uses that explanation and choices never use, while they use others: the prompt was changed after them. */
function numberMismatch(
  problem: Problem,
  solution: Solution | null,
): { field: string; promptOnly: string[]; elsewhereOnly: string[] } | null {
  const source = problem.source?.params;
  if (source && problem.source?.generator.startsWith('math.')) {
    // The generator's inputs as the prompt first wrote them: every one must still be there, as written digits.
    const written = [...normalizeNumerals(problem.prompt).matchAll(/\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
    const generated = Object.entries(source)
      .filter(([key, value]) => typeof value === 'number' && !['subtract', 'grouped', 'right'].includes(key))
      .map(([, value]) => Math.abs(value as number));
    const changed = generated.filter((value) => !written.some((number) => sameNumber(number, value)));
    if (changed.length > 0 && written.length > 0) {
      const promptOnly = written.filter((number) => !generated.some((value) => sameNumber(number, value)));
      if (promptOnly.length > 0)
        return { field: 'prompt', promptOnly: promptOnly.map(asIn(problem)), elsewhereOnly: changed.map(asIn(problem)) };
    }
    return null;
  }
  const promptDigits = writtenNumbers(problem.prompt);
  const explanationDigits = writtenNumbers(problem.explanation);
  if (promptDigits.length === 0 || explanationDigits.length === 0) return null;
  const marked = problem.choices?.[problem.correctChoiceIndex ?? -1];
  const markedValue = marked !== undefined ? answerValue(marked) : null;
  const promptAnswered =
    solution !== null &&
    markedValue !== null &&
    [solution.value, ...solution.alternatives].some((value) => closeNumber(value, markedValue));
  if (promptAnswered) return null;
  // The explanation works the prompt's computation on other numbers, and reaches the marked answer that way.
  const again = solvePrompt(problem.explanation);
  if (solution && again && again.kind === solution.kind && markedValue !== null && closeNumber(again.value, markedValue)) {
    const changed = solution.operands.filter((operand) => !again.operands.some((other) => sameNumber(other, operand)));
    const used = again.operands.filter((operand) => !solution.operands.some((other) => sameNumber(other, operand)));
    if (changed.length > 0 && used.length > 0)
      return { field: 'prompt', promptOnly: changed.map(asIn(problem)), elsewhereOnly: used.map(asIn(problem)) };
  }
  // Numbers the explanation calculates with that the prompt never gave, while a number the prompt gives goes unused.
  const choiceNumbers = (problem.choices ?? []).flatMap((choice) => writtenNumbers(choice));
  // (A number is read from its first digit: tried from each digit of a long row of them, the search was quadratic.)
  const calculated = [
    ...normalizeNumerals(problem.explanation).matchAll(
      /(?<!\d)(?:(\d+(?:\.\d+)?)\s*(?:[×x*÷+]|%)\s*(\d+(?:\.\d+)?)?|(\d+(?:\.\d+)?)\s*%)/g,
    ),
  ].flatMap((match) => [match[1], match[2], match[3]].filter((value): value is string => value !== undefined).map(Number));
  // Each value once: a long text repeats its numbers, and every number is compared with every other.
  const promptValues = [...new Set(promptDigits)];
  const choiceValues = [...new Set(choiceNumbers)];
  const explanationValues = [...new Set(explanationDigits)];
  const foreign = calculated.filter(
    (number) =>
      !promptValues.some((value) => sameNumber(value, number)) &&
      !choiceValues.some((value) => sameNumber(value, number)) &&
      !derivable(number, promptValues),
  );
  const unused = promptDigits.filter((number) => number > 2 && !explanationValues.some((value) => sameNumber(value, number)));
  if (foreign.length > 0 && unused.length > 0 && (markedValue === null || solution === null || !promptAnswered)) {
    return { field: 'prompt', promptOnly: unused.map(asIn(problem)), elsewhereOnly: foreign.map(asIn(problem)) };
  }
  return null;
}

/** The numbers a text writes, digit runs as they stand (a fraction is its two numbers). */
function writtenNumbers(text: string): number[] {
  return [...normalizeNumerals(text).matchAll(/\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
}

/** Intermediate results of the prompt's own numbers (sums, products, quotients, halves, squares, /100, a common denominator). */
function derivable(number: number, operands: number[]): boolean {
  const small = [1, 2, 10, 100, 3.14, Math.PI];
  if (small.some((value) => sameNumber(value, number))) return true;
  for (const left of operands) {
    checkTextBudget();
    if (
      sameNumber(left * left, number) ||
      sameNumber(left / 2, number) ||
      sameNumber(left * 2, number) ||
      sameNumber(left / 100, number) ||
      sameNumber(left * 3.14, number)
    )
      return true;
    for (const right of operands) {
      if (
        [
          left + right,
          left - right,
          left * right,
          right !== 0 ? left / right : Number.NaN,
          (left * right) / 2,
          (left * right) / 100,
          left * right * 3.14,
        ].some((value) => sameNumber(value, number))
      )
        return true;
    }
  }
  return false;
}

// What follows the cue up to the sentence's end: a full stop ends it, a decimal point (5.25) does not.
const ANSWER_CUE =
  /(?:the\s+(?:correct\s+)?(?:answer|choice|option)\s+is|answer\s*:|correct\s+(?:answer|choice)\s*:|so\s+the\s+answer\s+is|正解は|答えは|答え\s*[:：]|正しいのは|となるので|なので)\s*((?:[^。.\n]|\.(?=\d))*)/gi;

function checkExplanation(problem: Problem, marked: number, solution: Solution | null, add: Add, say: Say): void {
  const choices = problem.choices ?? [];
  const explanation = normalizeNumerals(problem.explanation);
  // A label ("the answer is B", 「正解はウ」) naming another choice.
  for (const cue of explanation.matchAll(ANSWER_CUE)) {
    const said = cue[1]!.trim();
    const index = namedLabel(said);
    if (index !== null && index !== marked && index < choices.length) {
      add(
        'explanation_names_other',
        'explanation',
        'error',
        say(
          `解説が選択肢${index + 1}を正解としていますが、正解は選択肢${marked + 1}です。`,
          `The explanation names choice ${index + 1} as the answer, but choice ${marked + 1} is marked.`,
        ),
        say('解説の正解を直す', 'Fix the answer in the text'),
      );
      return;
    }
    const named = choices.findIndex((choice, index) => index !== marked && choice.trim() !== '' && containsChoice(said, choice));
    if (named >= 0 && !containsChoice(said, choices[marked]!)) {
      add(
        'explanation_names_other',
        'explanation',
        'error',
        say(
          `解説が「${choices[named]}」を答えとしていますが、正解は「${choices[marked]}」です。`,
          `The explanation gives "${choices[named]}" as the answer, but "${choices[marked]}" is marked.`,
        ),
        say('解説の答えを直す', 'Fix the answer in the text'),
      );
      return;
    }
  }
  const claimed = new RegExp(
    String.raw`(?:^|[\s(（「『"])([A-Dア-エ①-④])[)）」』"]?\s*(?:が|is|は)\s*(?:正解|答え|the\s+(?:correct\s+|right\s+)?answer)`,
    'u',
  ).exec(explanation);
  if (claimed) {
    const index = LABEL_STYLES.map((style) => style.indexOf(claimed[1]!)).find((position) => position >= 0);
    if (index !== undefined && index >= 0 && index !== marked && index < choices.length) {
      add(
        'explanation_names_other',
        'explanation',
        'error',
        say(
          `解説が選択肢${index + 1}を正解としていますが、正解は選択肢${marked + 1}です。`,
          `The explanation names choice ${index + 1} as the answer, but choice ${marked + 1} is marked.`,
        ),
        say('解説の正解を直す', 'Fix the answer in the text'),
      );
      return;
    }
  }
  // Any phrasing that states another choice as the answer ("X is the answer", 「Xが正解」, "which makes X the answer"):
  // a sentence that names it and the answer, not the marked choice, and does not deny it.
  const sentences = explanation.split(/(?<=[。.!?！？])\s*/);
  const namedFirst = choices.findIndex(
    (choice, index) =>
      index !== marked &&
      choice.trim().length > 1 &&
      sentences.some(
        (sentence) =>
          containsChoice(sentence, choice) &&
          ANSWER_NOUN.test(sentence) &&
          !containsChoice(sentence, choices[marked]!) &&
          !DENIAL.test(sentence) &&
          !MISTAKE_TALK.test(sentence),
      ),
  );
  if (namedFirst >= 0) {
    add(
      'explanation_names_other',
      'explanation',
      'error',
      say(
        `解説が「${choices[namedFirst]}」を答えとしていますが、正解は「${choices[marked]}」です。`,
        `The explanation gives "${choices[namedFirst]}" as the answer, but "${choices[marked]}" is marked.`,
      ),
      say('解説の答えを直す', 'Fix the answer in the text'),
    );
    return;
  }
  // The value the explanation's working ends with, against the marked answer.
  const markedValue = answerValue(choices[marked] ?? '');
  if (markedValue === null) return;
  const result = workedResult(explanation) ?? quantityInUnit(explanation, choices, markedValue);
  if (result === null) return;
  const agrees = (value: number) =>
    sameNumber(value, markedValue) ||
    ((solution?.kind === 'area' || (solution?.alternatives.length ?? 0) > 0) && closeNumber(value, markedValue));
  if (agrees(result)) return;
  const other = choices.findIndex(
    (choice, index) => index !== marked && answerValue(choice) !== null && sameNumber(answerValue(choice)!, result),
  );
  if (other >= 0) {
    add(
      'explanation_names_other',
      'explanation',
      'error',
      say(
        `解説の計算は「${choices[other]}」になり、正解の「${choices[marked]}」と違います。`,
        `The explanation's working gives "${choices[other]}", not the marked "${choices[marked]}".`,
      ),
      say('解説の計算を直す', 'Fix the working'),
    );
  } else {
    add(
      'explanation_contradicts',
      'explanation',
      'error',
      say(
        `解説の計算結果（${formatValue(result, choices)}）が正解（${choices[marked]}）と合いません。`,
        `The explanation's result (${formatValue(result, choices)}) does not match the marked answer (${choices[marked]}).`,
      ),
      say('解説の計算を直す', 'Fix the working'),
    );
  }
}

/**
 * A choice named by its label: "B", "(C)", 「ウ」, "②", "choice 2", "2番". A
 * bare digit is a number, not a label ("the answer is 2" means the value 2).
 */
function namedLabel(said: string): number | null {
  const letter = /^[(（]?([A-Da-dア-エ①-④])[)）]?(?![A-Za-z\p{N}\p{Script=Katakana}\p{Script=Han}])/u.exec(said);
  const numbered = /^(?:[(（]([1-4])[)）]|(?:choice|option|no\.?)\s*([1-4])\b|([1-4])\s*番)/i.exec(said);
  const label = letter?.[1] ?? numbered?.[1] ?? numbered?.[2] ?? numbered?.[3];
  if (label === undefined) return null;
  const index = LABEL_STYLES.map((style) => style.indexOf(label.toUpperCase())).find((position) => position >= 0);
  return index ?? LABEL_STYLES.map((style) => style.indexOf(label)).find((position) => position >= 0) ?? null;
}

function containsChoice(text: string, choice: string): boolean {
  const needle = normalizeChoice(choice);
  if (needle.length === 0) return false;
  const haystack = normalizeChoice(text);
  if (/^[\d./-]+$/.test(needle))
    return new RegExp(`(^|[^\\d./])${needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}($|[^\\d./])`).test(haystack);
  return haystack.includes(needle);
}

/**
 * Choices that all carry one unit ("100 °C", "12 km", "30人"): the values the
 * explanation gives in that unit. When none is the marked answer, the last
 * one is what the explanation arrives at.
 */
function quantityInUnit(explanation: string, choices: readonly string[], markedValue: number): number | null {
  const units = choices.map(quantityUnit);
  const unit = units[0];
  if (!unit || units.some((other) => other !== unit)) return null;
  // (A number read from its sign or first digit: tried from each digit of a long row, the search was quadratic.)
  const values = [...explanation.matchAll(new RegExp(String.raw`((?:-|(?<!\d))\d+(?:\.\d+)?)\s*${escapeRegExp(unit)}`, 'g'))].map((match) =>
    Number(match[1]),
  );
  if (values.length === 0 || values.some((value) => sameNumber(value, markedValue))) return null;
  return values.at(-1)!;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const VALUE = String.raw`(-?\d+(?:\.\d+)?(?:\s*\/\s*\d+)?)`;
const STATED = new RegExp(
  String.raw`(?:answer is|answer:|(?:sum|total|product|difference|quotient|result) is|答えは|答え[:：]|正解は|(?:和|差|積|商)は|so\s+[a-z]\s*=|よって\s*[a-z]\s*=|したがって(?:\s*[a-z])?(?:\s*=)?)\s*(?:[a-z]\s*=\s*)?${VALUE}`,
  'i',
);

const ANSWER_NOUN = /正解|答え|the\s+(?:correct\s+|right\s+)?answer/i;
const DENIAL = /\bnot\b|n't|never|ではな|じゃな|ません/i;

/** A sentence about a wrong answer ("x = 10 comes from…", 「…は誤りです」): its numbers are not the result. */
const MISTAKE_TALK = /mistake|wrong|incorrect|instead|comes from|error|誤り|間違|ではなく|注意/i;

/**
 * The result the explanation arrives at: the value it states as the answer,
 * else the end of its first chain of "=" (later sentences often discuss the
 * wrong choices, and their numbers are not its result).
 */
function workedResult(explanation: string, restated: (value: number) => boolean = () => false): number | null {
  const stated = STATED.exec(explanation);
  if (stated) return answerValue(stated[1]!);
  const sentences = explanation.split(/(?<=[。.!?])\s+|(?<=。)/).filter((part) => /=\s*-?\d/.test(part) && !MISTAKE_TALK.test(part));
  // Not a result: a value an operator goes on from (a formula, "= 1⁄2 × base"), or one the caller knows is restated (a check)
  // (RESULT, below).
  const last = sentences
    .flatMap((sentence) => [...sentence.matchAll(RESULT)])
    .filter((match) => !restated(answerValue(match[1]!) ?? NaN))
    .at(-1);
  return last ? answerValue(last[1]!) : null;
}
// Nor the value of a term with its coefficient ("2x = 8"): a step of an equation, whose result is "x = 4".
const RESULT = new RegExp(String.raw`(?<!\d\s?[a-z]\s?)=\s*${VALUE}(?!\d|\s*[×*/⁄÷+−-])`, 'g');

function checkWritten(problem: Problem, expected: CheckFacts['expected'], add: Add, say: Say): void {
  const answer = (problem.modelAnswer ?? '').trim();
  if (answer === '') {
    add(
      'written_missing_answer',
      'modelAnswer',
      'error',
      say('模範解答がありません。', 'The model answer is empty.'),
      say('模範解答を書く', 'Write the model answer'),
    );
    return;
  }
  if (!problem.rubric || problem.rubric.length === 0)
    add(
      'missing_rubric',
      'rubric',
      'warning',
      say('採点基準がありません。', 'There is no grading rubric.'),
      say('採点基準を書く', 'Add grading points'),
    );
  if (expected.reading !== null) {
    const written = hiragana(normalizeChoice(answer));
    if (isHiragana(written) && !written.includes(expected.reading)) {
      add(
        'written_missing_answer',
        'modelAnswer',
        'error',
        say(`模範解答が正しい読み（${expected.reading}）になっていません。`, `The model answer is not the reading (${expected.reading}).`),
        say('模範解答を直す', 'Fix the model answer'),
      );
    }
    return;
  }
  const solution = expected.solution;
  if (!solution) return;
  const values = quantitiesIn(answer).map((quantity) => quantity.value);
  const targets = [solution.value, ...solution.alternatives];
  // The right number in a unit of another kind ("2.75 kg = 2750 g" for litres to millilitres) is not the answer.
  const unit = solution.unit;
  const otherDimension = unit ? dimensionsAfter(answer, solution.value) : [];
  if (unit && otherDimension.length > 0 && !otherDimension.includes(unit.dimension)) {
    add(
      'written_missing_answer',
      'modelAnswer',
      'error',
      say(
        `模範解答の量の種類が違います（求めるのは ${formatValue(solution.value, [problem.prompt])} ${unit.name}）。`,
        `The model answer gives another kind of quantity (the answer is ${formatValue(solution.value, [problem.prompt])} ${unit.name}).`,
      ),
      say('模範解答を直す', 'Fix the model answer'),
    );
    return;
  }
  if (!values.some((value) => targets.some((target) => closeNumber(value, target)))) {
    add(
      'written_missing_answer',
      'modelAnswer',
      'error',
      say(
        `模範解答に正しい答え（${formatValue(solution.value, [problem.prompt, answer])}）がありません。`,
        `The model answer does not reach the correct result (${formatValue(solution.value, [problem.prompt, answer])}).`,
      ),
      say('模範解答を直す', 'Fix the model answer'),
    );
  }
  // The explanation's working, like a multiple-choice one, must reach the answer the prompt makes.
  // A number the prompt gave, other than the answer, is a check of it ("4 × 5 − 9 = 11"), not a result.
  const reached = (value: number) => targets.some((target) => closeNumber(value, target));
  const worked = workedResult(
    normalizeNumerals(problem.explanation),
    (value) => !reached(value) && solution.operands.some((operand) => sameNumber(operand, value)),
  );
  if (worked !== null && !reached(worked))
    add(
      'explanation_contradicts',
      'explanation',
      'error',
      say(
        `解説の計算結果（${formatValue(worked, [problem.prompt, answer])}）が正しい答え（${formatValue(solution.value, [problem.prompt, answer])}）と合いません。`,
        `The explanation's result (${formatValue(worked, [problem.prompt, answer])}) is not the correct result (${formatValue(solution.value, [problem.prompt, answer])}).`,
      ),
      say('解説の計算を直す', 'Fix the working'),
    );
}

/** Numbers as `problem` writes them (its prompt, choices and model answer). */
function asIn(problem: Problem): (value: number) => string {
  const texts = [problem.prompt, ...(problem.choices ?? []), problem.modelAnswer ?? ''];
  return (value) => formatValue(value, texts);
}

/**
 * A number as the problem writes its numbers: a fraction where its texts (the
 * prompt, the choices, the model answer) write fractions ("10/9", not the
 * 1.111 a teacher of fractions would not recognise), else a decimal.
 */
function formatValue(value: number, texts: readonly string[]): string {
  if (Number.isInteger(value)) return String(value);
  return numberStyleOf(texts) === 'fraction' && toFraction(value)
    ? formatNumber(value, 'fraction')
    : String(Math.round(value * 1000) / 1000);
}

/**
 * The answer the generator's record gives, for a prompt the solver cannot
 * read (speed, ratio, volume…): the record holds the numbers the prompt
 * prints (it follows a teacher's edit of them), so the marked answer is
 * checked against what those numbers make.
 */
function recordSolution(problem: Problem): Solution | null {
  const source = problem.source;
  if (!source || !mathTopicOf(source.generator)) return null;
  const value = mathAnswerOf(source.generator, source.params as MathParams);
  if (value === null) return null;
  const operands = Object.values(source.params).filter((param): param is number => typeof param === 'number');
  return { kind: 'record', value, alternatives: [], operands, working: '' };
}
