import type { Difficulty, Problem, QualityScore } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import type { CheckFacts } from './check.js';
import { quantitiesIn, unitOf } from './numbers.js';

/**
 * The QualityScorer (docs/seeds/003), four measures in [0, 1]:
 * - clarity: the prompt asks one clear thing (an instruction or a question,
 *   neither too short nor too long, no vague words) and choices of similar length;
 * - difficulty: how well the problem's estimated level fits the worksheet's
 *   (numbers' size and the steps they need; word length for vocabulary);
 * - educationalValue: the explanation shows how to get there (working or
 *   reasons) and why a wrong answer is wrong; written problems grade by a rubric;
 * - consistency: 1 without issues, 0.7 with warnings only, lower per error.
 * overallScore weighs them 0.25 / 0.2 / 0.25 / 0.3.
 */
export function scoreProblem(problem: Problem, facts: CheckFacts, target: Difficulty, language: 'ja' | 'en'): QualityScore {
  return withinTextBudget(() => score(problem, facts, target, language));
}

function score(problem: Problem, facts: CheckFacts, target: Difficulty, language: 'ja' | 'en'): QualityScore {
  const errors = facts.issues.filter((issue) => issue.severity === 'error').length;
  const warnings = facts.issues.length - errors;
  const consistency = errors > 0 ? Math.max(0, 0.4 - 0.1 * (errors - 1)) : warnings > 0 ? 0.7 : 1;
  const metrics = {
    clarity: clarity(problem, language),
    difficulty: difficultyFit(problem, target),
    educationalValue: educationalValue(problem, language),
    consistency,
  };
  const overallScore = 0.25 * metrics.clarity + 0.2 * metrics.difficulty + 0.25 * metrics.educationalValue + 0.3 * metrics.consistency;
  return {
    overallScore: round(overallScore),
    metrics: {
      clarity: round(metrics.clarity),
      difficulty: round(metrics.difficulty),
      educationalValue: round(metrics.educationalValue),
      consistency: round(consistency),
    },
  };
}

const ASKS = /[?？]|なさい|ですか|ましょう|答え|求め|選び|書き|which|what|how|choose|find|calculate|solve|write|select|give|explain/i;
const VAGUE = /etc\.?|and so on|something|somehow|など|とか|適当に|いろいろ/i;

function clarity(problem: Problem, language: 'ja' | 'en'): number {
  const prompt = problem.prompt.trim();
  let score = 1;
  const length = [...prompt].length;
  const [short, long] = language === 'ja' ? [8, 160] : [15, 300];
  if (length < short) score -= 0.35;
  if (length > long) score -= 0.2;
  if (!ASKS.test(prompt)) score -= 0.25;
  if (VAGUE.test(prompt)) score -= 0.15;
  // Units: a quantity in the choices with a unit the prompt never names.
  const unit = unitOf(problem.choices ?? []);
  if (unit && !prompt.includes(unit.replace('²', ''))) score -= 0.1;
  const lengths = (problem.choices ?? []).map((choice) => [...choice.trim()].length).filter((size) => size > 0);
  if (lengths.length >= 2 && Math.max(...lengths) > 4 * Math.min(...lengths) && Math.max(...lengths) > 12) score -= 0.1;
  return clamp(score);
}

/**
 * The estimated level, with ties broken by the size of the numbers (the sum
 * of their logarithms): of two problems the scorer puts at one level, the one
 * with bigger numbers is the harder. For comparing two problems of a kind
 * (harder, easier), not for scoring.
 */
export function difficultyOf(problem: Pick<Problem, 'prompt'>): number {
  const size = quantitiesIn(problem.prompt).reduce((sum, quantity) => sum + Math.log10(Math.abs(quantity.value) + 1), 0);
  return estimatedLevel(problem) + 0.01 * Math.min(size, 9);
}

/** An estimate of the level in [0, 1] (0 = easy), from what the problem makes a learner do. */
export function estimatedLevel(problem: Pick<Problem, 'prompt'>): number {
  const numbers = quantitiesIn(problem.prompt).map((quantity) => Math.abs(quantity.value));
  if (numbers.length > 0) {
    const largest = Math.max(...numbers);
    let level = largest <= 10 ? 0.15 : largest <= 50 ? 0.35 : largest <= 200 ? 0.55 : 0.75;
    if (/\d\s*\/\s*\d/.test(problem.prompt)) {
      // (From the first digit of a number: tried from each digit of a long row of them, the search was quadratic.)
      const denominators = [...problem.prompt.matchAll(/(?<!\d)\d+\s*\/\s*(\d+)/g)].map((match) => match[1]);
      if (new Set(denominators).size > 1) level += 0.2;
    }
    if (/\(|（/.test(problem.prompt) && /[a-z]\s*[-+]/i.test(problem.prompt)) level += 0.2;
    if (/-\s*\d|−/.test(problem.prompt)) level += 0.1;
    if (/\.\d/.test(problem.prompt)) level += 0.1;
    return clamp(level);
  }
  const quoted = firstQuotation(problem.prompt);
  if (quoted) return clamp(/[\p{Script=Han}]/u.test(quoted) ? 0.2 + 0.15 * ([...quoted].length - 1) : 0.1 + 0.06 * quoted.length);
  return 0.5;
}

const OPENING_MARKS = '『「"“';
const CLOSING_MARKS = '』」"”';

/**
 * The text of the prompt's first quotation (『世界』, "word"), or ''. What
 * `/[『「"“]([^』」"”]+)[』」"”]/` finds, as one scan: that regex looked for a
 * closing mark again from each of a long row of opening ones.
 */
function firstQuotation(text: string): string {
  for (let open = 0; open < text.length; open++) {
    if (!OPENING_MARKS.includes(text[open]!)) continue;
    let close = open + 1;
    while (close < text.length && !CLOSING_MARKS.includes(text[close]!)) close++;
    // No closing mark after this opening one: none after any later one either.
    if (close === text.length) return '';
    if (close > open + 1) return text.slice(open + 1, close);
    // An empty quotation ("", 「」): look on from its closing mark, itself an opening one when it is ".
  }
  return '';
}

const TARGET: Record<Difficulty, number> = { easy: 0.2, normal: 0.5, hard: 0.8 };

function difficultyFit(problem: Problem, target: Difficulty): number {
  return clamp(1 - 1.5 * Math.abs(estimatedLevel(problem) - TARGET[target]));
}

function educationalValue(problem: Problem, language: 'ja' | 'en'): number {
  const explanation = problem.explanation.trim();
  let score = 0.2;
  const length = [...explanation].length;
  if (length >= (language === 'ja' ? 15 : 30)) score += 0.25;
  if (/=|→|×|÷|because|since|so |therefore|ので|ため|から|よって|したがって|読みます|means|意味/i.test(explanation)) score += 0.25;
  if (/mistake|wrong|instead|incorrect|not |誤り|間違|ではなく|注意/i.test(explanation)) score += 0.2;
  if (problem.type === 'written') score += problem.rubric && problem.rubric.length >= 2 ? 0.1 : -0.1;
  else score += 0.1;
  return clamp(score);
}

function clamp(value: number): number {
  return Math.max(0, Math.min(1, value));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
