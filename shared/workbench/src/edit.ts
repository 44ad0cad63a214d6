import type { Problem } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import { choiceKind } from './check.js';
import { unitOf } from './numbers.js';
import { solvePrompt } from './solve.js';

/**
 * What a request to the problem-management agent asks for, by rules
 * (docs/seeds/003 analyzeIntent): 「もっと簡単に」 simplify, 「問題文をもっと
 * 具体的にして」 specify, 「この問題を改善して」 improve, 「整合性チェック」
 * check, "make it harder" harden, and the section it names, if any.
 */
export type Intent = 'simplify' | 'harden' | 'specify' | 'improve' | 'check' | 'fix' | 'suggest' | 'score';
export type EditSection = 'prompt' | 'choices' | 'explanation';

const INTENTS: Array<[Intent, RegExp]> = [
  ['check', /整合|矛盾|チェック|consisten|check/i],
  ['fix', /修正|直して|直す|fix|repair|correct (?:it|this|the)/i],
  ['suggest', /提案|サジェスト|アイデア|suggest|ideas?/i],
  ['score', /評価|採点|スコア|品質を(?:見|測|教)|score|rate|evaluate|quality of/i],
  ['simplify', /簡単|易し|やさし|平易|easier|simpler|simplify|less difficult/i],
  ['harden', /難しく|難易度を上げ|高度|harder|more difficult|challenging|tougher/i],
  ['specify', /具体|明確|詳しく|はっきり|specific|clearer|more precise|clarify|detail/i],
  ['improve', /改善|良く|よく|ブラッシュアップ|improve|better|polish|enhance/i],
];

export function analyzeIntent(request: string): { intent: Intent; section: EditSection | null } {
  return withinTextBudget(() => intentOf(request));
}

function intentOf(request: string): { intent: Intent; section: EditSection | null } {
  const section: EditSection | null = /選択肢|choices?|options?|distractors?/i.test(request)
    ? 'choices'
    : /解説|説明|explanation/i.test(request)
      ? 'explanation'
      : /問題文|設問|prompt|question text|wording/i.test(request)
        ? 'prompt'
        : null;
  const intent = INTENTS.find(([, pattern]) => pattern.test(request))?.[0] ?? 'improve';
  return { intent, section };
}

export type EditOutcome = { field: EditSection; value: string | string[]; changes: string[] } | null;

/**
 * The Editor's rules offline: a more specific prompt states the form of the
 * answer the choices are written in (a fraction in lowest terms, the unit,
 * x, the reading in hiragana, one word); an easier one gives a hint, a harder
 * one asks for the working too; a fuller explanation shows the working the
 * checker can do and why the nearest wrong answer is wrong.
 */
export function ruleEdit(problem: Problem, section: EditSection, intent: Intent, language: 'ja' | 'en'): EditOutcome {
  return withinTextBudget(() => editByRules(problem, section, intent, language));
}

function editByRules(problem: Problem, section: EditSection, intent: Intent, language: 'ja' | 'en'): EditOutcome {
  const say = (ja: string, en: string) => (language === 'ja' ? ja : en);
  if (section === 'explanation') {
    const solution = solvePrompt(problem.prompt);
    const answer = problem.type === 'multiple_choice' ? problem.choices?.[problem.correctChoiceIndex ?? 0] : problem.modelAnswer;
    // An explanation that already shows working gets the reason the other choices fail, not the working again.
    if (!solution || !answer || /=/.test(problem.explanation)) {
      const reason = say('ほかの選択肢は問題の条件に合いません。', 'The other choices do not meet the conditions in the question.');
      if (problem.explanation.includes(reason)) return null;
      return {
        field: 'explanation',
        value: `${problem.explanation.trim()} ${reason}`.trim(),
        changes: [say('誤答の理由を追記', 'added why the other choices are wrong')],
      };
    }
    const text = say(
      `${solution.working}。答えは ${answer} です。${problem.explanation}`,
      `${solution.working}, so the answer is ${answer}. ${problem.explanation}`,
    );
    return { field: 'explanation', value: text.trim(), changes: [say('途中の式を追記', 'added the working')] };
  }
  if (section === 'choices') return null;
  const prompt = problem.prompt.trim();
  if (intent === 'simplify') {
    const hint = hintFor(problem, language);
    if (!hint || prompt.includes(hint)) return null;
    return {
      field: 'prompt',
      value: `${prompt}${say('（', ' (')}${hint}${say('）', ')')}`,
      changes: [say(`ヒントを追加: ${hint}`, `added a hint: ${hint}`)],
    };
  }
  if (intent === 'harden') {
    const ask = say('答えだけでなく、考え方も説明しなさい。', 'Explain how you found the answer, not only the answer.');
    if (prompt.includes(ask)) return null;
    return {
      field: 'prompt',
      value: joinSentences(prompt, ask, language),
      changes: [say('考え方の説明を求める文を追加', 'asks for the reasoning too')],
    };
  }
  const form = answerForm(problem, language);
  if (!form || prompt.includes(form)) return null;
  return {
    field: 'prompt',
    value: joinSentences(prompt, form, language),
    changes: [say(`答え方を明記: ${form}`, `states the answer form: ${form}`)],
  };
}

/** Two sentences as one text: Japanese ends the first with 「。」 unless it already ends a sentence; English puts a space between. */
function joinSentences(first: string, second: string, language: 'ja' | 'en'): string {
  if (language === 'en') return `${first} ${second}`.trim();
  return /[。．？！?!」』）)]$/.test(first) ? `${first}${second}` : `${first}。${second}`;
}

/** The form of the answer, as the choices (or the model answer) are written. */
function answerForm(problem: Problem, language: 'ja' | 'en'): string | null {
  const say = (ja: string, en: string) => (language === 'ja' ? ja : en);
  const samples = problem.choices ?? (problem.modelAnswer ? [problem.modelAnswer] : []);
  if (samples.some((choice) => /\d\s*\/\s*\d/.test(choice)))
    return say('答えは既約分数で答えなさい。', 'Give the answer as a fraction in lowest terms.');
  if (samples.some((choice) => /^\s*x\s*=/.test(choice))) return say('x の値を求めなさい。', 'Give the value of x.');
  const unit = unitOf(samples);
  if (unit) return say(`単位（${unit}）をつけて答えなさい。`, `Give the answer in ${unit}.`);
  const kinds = samples.map(choiceKind);
  if (kinds.every((kind) => kind === 'kana')) return say('読みをひらがなで答えなさい。', 'Answer with the reading in hiragana.');
  if (kinds.every((kind) => kind === 'word')) return say('英単語1語で答えなさい。', 'Answer with one English word.');
  if (kinds.every((kind) => kind === 'number')) return say('数で答えなさい。', 'Answer with a number.');
  return say('最も適切なものを1つ選びなさい。', 'Choose the one best answer.');
}

/** A hint that makes the problem easier without giving the answer away. */
function hintFor(problem: Problem, language: 'ja' | 'en'): string | null {
  const say = (ja: string, en: string) => (language === 'ja' ? ja : en);
  const solution = solvePrompt(problem.prompt);
  if (solution) {
    const hints: Record<string, [string, string]> = {
      equation: ['x の項だけを左辺に残してから、両辺を係数で割ります', 'keep the x term on one side, then divide by its coefficient'],
      percent_of: ['%は100分のいくつかを表します', 'a percent is a number out of 100'],
      percent_ratio: ['部分 ÷ 全体 × 100 で求めます', 'part ÷ whole × 100'],
      area: ['公式を思い出してから数を当てはめます', 'recall the formula, then put in the numbers'],
      expression: ['分数は分母をそろえてから計算します', 'make the denominators the same first'],
    };
    const [ja, en] = hints[solution.kind]!;
    return say(ja, en);
  }
  const answer = problem.type === 'multiple_choice' ? problem.choices?.[problem.correctChoiceIndex ?? 0] : problem.modelAnswer;
  if (!answer) return null;
  return say(`ヒント: 「${[...answer.trim()][0]}」で始まります`, `hint: it starts with "${[...answer.trim()][0]}"`);
}
