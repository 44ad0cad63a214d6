import { MATH_TOPIC_NAMES } from '../subjects.js';
import type { Difficulty, WorkbenchLanguage } from '@convo/contract';
import { formatNumber, gcd, sameNumber } from '../numbers.js';
import { type GeneratedProblem, type GeneratorInput, placeAnswer } from './random.js';

/**
 * Arithmetic and algebra problems whose answers are computed, not written:
 * fractions, percentages, linear equations and areas. Wrong choices are the
 * results of the mistakes learners typically make (adding across a
 * fraction, taking the perimeter for the area, moving a term without
 * changing its sign…), so every distractor is wrong for a reason the
 * explanation can name.
 */

type Random = () => number;

type Mistake = { value: number; why: { ja: string; en: string } };
type Exercise = {
  generator: string;
  params: Record<string, number>;
  prompt: { ja: string; en: string };
  /** How the answer is written: a fraction, or a number with a unit. */
  show: (value: number) => string;
  answer: number;
  working: string;
  mistakes: Mistake[];
  /** Written form: the question asked with working shown, and what a grader looks for. */
  written: { ja: string; en: string };
  rubric: { ja: string[]; en: string[] };
};

export const MATH_TOPICS = ['fractions', 'percentages', 'equations', 'areas'] as const;
export type MathTopic = (typeof MATH_TOPICS)[number];

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));

function fractionText(numerator: number, denominator: number): string {
  const divisor = gcd(numerator, denominator);
  const [top, bottom] = [numerator / divisor, denominator / divisor];
  return bottom === 1 ? String(top) : `${top}/${bottom}`;
}

function fractions(random: Random, difficulty: Difficulty): Exercise {
  const denominators =
    difficulty === 'easy' ? [2, 3, 4, 5, 6, 8] : difficulty === 'normal' ? [3, 4, 5, 6, 8, 9, 10, 12] : [6, 7, 8, 9, 10, 12, 14, 15];
  const leftDenominator = pick(random, denominators);
  const rightDenominator =
    difficulty === 'easy'
      ? leftDenominator
      : pick(
          random,
          denominators.filter((value) => value !== leftDenominator),
        );
  const leftNumerator = between(random, 1, leftDenominator - 1);
  const rightNumerator = between(random, 1, rightDenominator - 1);
  const subtract = difficulty === 'hard' && leftNumerator / leftDenominator > rightNumerator / rightDenominator && random() < 0.5;
  const sign = subtract ? -1 : 1;
  const denominator = (leftDenominator * rightDenominator) / gcd(leftDenominator, rightDenominator);
  const numerator = leftNumerator * (denominator / leftDenominator) + sign * rightNumerator * (denominator / rightDenominator);
  const operator = subtract ? '-' : '+';
  const expression = `${leftNumerator}/${leftDenominator} ${operator} ${rightNumerator}/${rightDenominator}`;
  const show = (value: number) => {
    for (let bottom = 1; bottom <= 400; bottom++)
      if (sameNumber(Math.round(value * bottom) / bottom, value)) return fractionText(Math.round(value * bottom), bottom);
    return formatNumber(value);
  };
  const across = (leftNumerator + sign * rightNumerator) / (leftDenominator + rightDenominator);
  return {
    generator: 'math.fractions',
    params: { leftNumerator, leftDenominator, rightNumerator, rightDenominator, subtract: subtract ? 1 : 0 },
    prompt: { ja: `次の計算をしなさい。${expression}`, en: `Calculate ${expression}.` },
    show,
    answer: numerator / denominator,
    working:
      fractionText(numerator, denominator) === `${numerator}/${denominator}`
        ? `${expression} = ${numerator}/${denominator}`
        : `${expression} = ${numerator}/${denominator} = ${fractionText(numerator, denominator)}`,
    mistakes: [
      { value: across, why: { ja: '分子どうし・分母どうしを計算してしまう誤り', en: 'adding numerators and denominators across' } },
      {
        value: (leftNumerator * rightNumerator) / denominator,
        why: { ja: '分子をかけてしまう誤り', en: 'multiplying the numerators instead' },
      },
      {
        value: (leftNumerator + sign * rightNumerator) / Math.max(leftDenominator, rightDenominator),
        why: { ja: '分母をそろえずに分子だけ計算する誤り', en: 'keeping one denominator without converting' },
      },
      {
        value: numerator / denominator + 1 / denominator,
        why: { ja: '通分後の足し算の誤り', en: 'a slip after finding the common denominator' },
      },
    ],
    written: {
      ja: `次の計算をし、途中の式も書きなさい。${expression}`,
      en: `Calculate ${expression}. Show how you find a common denominator.`,
    },
    rubric: {
      ja: ['分母を通分している', '分子を正しく計算している', `答え ${fractionText(numerator, denominator)}（約分済み）`],
      en: [
        'finds a common denominator',
        'combines the numerators correctly',
        `answer ${fractionText(numerator, denominator)}, in lowest terms`,
      ],
    },
  };
}

function percentages(random: Random, difficulty: Difficulty): Exercise {
  const percent =
    difficulty === 'easy'
      ? pick(random, [10, 20, 25, 50])
      : difficulty === 'normal'
        ? 5 * between(random, 1, 19)
        : pick(random, [12.5, 15, 35, 45, 65, 75, 85]);
  const base =
    difficulty === 'easy'
      ? 20 * between(random, 1, 10)
      : difficulty === 'normal'
        ? 20 * between(random, 2, 30)
        : 40 * between(random, 3, 50);
  const answer = (percent * base) / 100;
  const show = (value: number) => formatNumber(value);
  return {
    generator: 'math.percentages',
    params: { percent, base },
    prompt: { ja: `${base}の${percent}%はいくつですか。`, en: `What is ${percent}% of ${base}?` },
    show,
    answer,
    working: `${base} × ${percent}/100 = ${formatNumber(answer)}`,
    mistakes: [
      { value: (percent * base) / 10, why: { ja: '100ではなく10で割る誤り', en: 'dividing by 10 instead of 100' } },
      { value: base - answer, why: { ja: '残りの割合を求めてしまう誤り', en: 'finding what is left instead' } },
      { value: percent, why: { ja: '割合そのものを答えてしまう誤り', en: 'giving the percentage itself' } },
      { value: answer + percent, why: { ja: '割合を足してしまう誤り', en: 'adding the percentage on' } },
    ],
    written: {
      ja: `定価${base}円の品物が${percent}%引きで売られています。値引きされる金額と、支払う金額を求めなさい。`,
      en: `An item priced at ${base} dollars is sold at ${percent}% off. How much is the discount, and how much do you pay?`,
    },
    rubric: {
      ja: [
        `値引き額 ${base} × ${percent}/100 = ${formatNumber(answer)}円`,
        `支払額 ${base} − ${formatNumber(answer)} = ${formatNumber(base - answer)}円`,
        '式と単位が書けている',
      ],
      en: [
        `discount ${base} × ${percent}/100 = ${formatNumber(answer)} dollars`,
        `pay ${base} − ${formatNumber(answer)} = ${formatNumber(base - answer)} dollars`,
        'shows the working and the unit',
      ],
    },
  };
}

function equations(random: Random, difficulty: Difficulty): Exercise {
  const solution = difficulty === 'easy' ? between(random, 1, 10) : between(random, -9, 15) || 4;
  const coefficient = difficulty === 'easy' ? between(random, 2, 5) : between(random, 2, 9);
  const shift = difficulty === 'easy' ? between(random, 1, 10) : between(random, 2, 20) * (random() < 0.4 ? -1 : 1);
  const grouped = difficulty === 'hard';
  const right = grouped ? coefficient * (solution - shift) : coefficient * solution + shift;
  const left = grouped
    ? `${coefficient}(x ${shift < 0 ? '+' : '-'} ${Math.abs(shift)})`
    : `${coefficient}x ${shift < 0 ? '-' : '+'} ${Math.abs(shift)}`;
  const equation = `${left} = ${right}`;
  const show = (value: number) => `x = ${formatNumber(value, 'fraction')}`;
  const mistakes: Mistake[] = grouped
    ? [
        {
          value: (right + shift) / coefficient + shift,
          why: { ja: 'かっこを外すときの符号の誤り', en: 'a sign error when expanding the brackets' },
        },
        { value: right / coefficient - shift, why: { ja: '移項の向きの誤り', en: 'moving the term the wrong way' } },
        { value: right - shift, why: { ja: '係数で割り忘れる誤り', en: 'forgetting to divide by the coefficient' } },
        { value: (right - coefficient * shift) / coefficient, why: { ja: 'かっこの符号の誤り', en: 'a sign error inside the brackets' } },
      ]
    : [
        {
          value: (right + shift) / coefficient,
          why: { ja: '移項で符号を変え忘れる誤り', en: 'not changing the sign when moving the term' },
        },
        { value: right - shift, why: { ja: '係数で割り忘れる誤り', en: 'forgetting to divide by the coefficient' } },
        { value: right / coefficient - shift, why: { ja: '先に割ってしまう誤り', en: 'dividing before subtracting' } },
        { value: (right - shift) * coefficient, why: { ja: '割るべきところをかける誤り', en: 'multiplying instead of dividing' } },
      ];
  return {
    generator: 'math.equations',
    params: { coefficient, shift, right, grouped: grouped ? 1 : 0 },
    prompt: { ja: `次の方程式を解きなさい。${equation}`, en: `Solve for x: ${equation}` },
    show,
    answer: solution,
    working: grouped
      ? `${equation} → x ${shift < 0 ? '+' : '-'} ${Math.abs(shift)} = ${right / coefficient} → x = ${solution}`
      : `${equation} → ${coefficient}x = ${right - shift} → x = ${solution}`,
    mistakes,
    written: { ja: `次の方程式を解き、解き方も書きなさい。${equation}`, en: `Solve ${equation} and show each step.` },
    rubric: {
      ja: ['移項または展開が正しい', '両辺を係数で割っている', `答え x = ${solution}`],
      en: ['moves or expands terms correctly', 'divides both sides by the coefficient', `answer x = ${solution}`],
    },
  };
}

function areas(random: Random, difficulty: Difficulty): Exercise {
  const shape = pick(random, difficulty === 'easy' ? (['rectangle', 'square'] as const) : (['rectangle', 'triangle', 'circle'] as const));
  const unit = (value: number) => `${formatNumber(value)} cm²`;
  if (shape === 'circle') {
    const radius = difficulty === 'hard' ? between(random, 6, 15) : between(random, 2, 10);
    const answer = 3.14 * radius * radius;
    return {
      generator: 'math.areas',
      params: { radius },
      prompt: {
        ja: `半径${radius} cmの円の面積を求めなさい。円周率は3.14とします。`,
        en: `Find the area of a circle with radius ${radius} cm. Use 3.14 for π.`,
      },
      show: unit,
      answer,
      working: `3.14 × ${radius} × ${radius} = ${formatNumber(answer)}`,
      mistakes: [
        { value: 2 * 3.14 * radius, why: { ja: '円周を求めてしまう誤り', en: 'finding the circumference instead' } },
        { value: 3.14 * radius, why: { ja: '半径を2回かけ忘れる誤り', en: 'not squaring the radius' } },
        { value: 3.14 * 4 * radius * radius, why: { ja: '直径を半径として使う誤り', en: 'using the diameter as the radius' } },
        { value: radius * radius, why: { ja: '円周率をかけ忘れる誤り', en: 'forgetting π' } },
      ],
      written: {
        ja: `半径${radius} cmの円の面積を、式を書いて求めなさい。円周率は3.14とします。`,
        en: `Find the area of a circle with radius ${radius} cm, using 3.14 for π. Show your working.`,
      },
      rubric: {
        ja: ['公式 半径×半径×円周率', `3.14 × ${radius} × ${radius}`, `答え ${unit(answer)}`],
        en: ['uses radius × radius × π', `3.14 × ${radius} × ${radius}`, `answer ${unit(answer)}`],
      },
    };
  }
  const width = between(random, 3, difficulty === 'hard' ? 25 : 12);
  const height = shape === 'square' ? width : between(random, 2, difficulty === 'hard' ? 20 : 10);
  if (shape === 'triangle') {
    const answer = (width * height) / 2;
    return {
      generator: 'math.areas',
      params: { base: width, height },
      prompt: {
        ja: `底辺${width} cm、高さ${height} cmの三角形の面積を求めなさい。`,
        en: `A triangle has base ${width} cm and height ${height} cm. What is its area?`,
      },
      show: unit,
      answer,
      working: `${width} × ${height} ÷ 2 = ${formatNumber(answer)}`,
      mistakes: [
        { value: width * height, why: { ja: '2で割り忘れる誤り', en: 'forgetting to halve' } },
        { value: width + height, why: { ja: '長さを足してしまう誤り', en: 'adding the lengths' } },
        { value: (width + height) / 2, why: { ja: '足してから2で割る誤り', en: 'adding, then halving' } },
        { value: width * height * 2, why: { ja: '2をかけてしまう誤り', en: 'doubling instead of halving' } },
      ],
      written: {
        ja: `底辺${width} cm、高さ${height} cmの三角形の面積を、式を書いて求めなさい。`,
        en: `Find the area of a triangle with base ${width} cm and height ${height} cm. Show your working.`,
      },
      rubric: {
        ja: ['公式 底辺×高さ÷2', `${width} × ${height} ÷ 2`, `答え ${unit(answer)}`],
        en: ['uses base × height ÷ 2', `${width} × ${height} ÷ 2`, `answer ${unit(answer)}`],
      },
    };
  }
  const answer = width * height;
  const name =
    shape === 'square'
      ? { ja: `1辺${width} cmの正方形`, en: `a square with side ${width} cm` }
      : { ja: `縦${width} cm、横${height} cmの長方形`, en: `a rectangle ${width} cm by ${height} cm` };
  return {
    generator: 'math.areas',
    params: shape === 'square' ? { side: width } : { width, height },
    prompt: { ja: `${name.ja}の面積を求めなさい。`, en: `What is the area of ${name.en}?` },
    show: unit,
    answer,
    working: `${width} × ${height} = ${answer}`,
    mistakes: [
      { value: 2 * (width + height), why: { ja: 'まわりの長さを求めてしまう誤り', en: 'finding the perimeter instead' } },
      { value: width + height, why: { ja: '長さを足してしまう誤り', en: 'adding the lengths' } },
      { value: (width * height) / 2, why: { ja: '三角形の公式を使ってしまう誤り', en: 'using the triangle formula' } },
      { value: width * height + width, why: { ja: 'かけ算の誤り', en: 'a multiplication slip' } },
    ],
    written: { ja: `${name.ja}の面積を、式を書いて求めなさい。`, en: `Find the area of ${name.en}. Show your working.` },
    rubric: {
      ja: ['公式 縦×横', `${width} × ${height}`, `答え ${unit(answer)}`],
      en: ['uses length × width', `${width} × ${height}`, `answer ${unit(answer)}`],
    },
  };
}

const MAKERS: Record<MathTopic, (random: Random, difficulty: Difficulty) => Exercise> = { fractions, percentages, equations, areas };

/**
 * Which topics a worksheet's free-text topic names ("分数", "percent", "面積と方程式"); all when it names none.
 * A topic that names none of them is refused before generation (topicOffered), never silently replaced by all.
 */
export function mathTopics(topic: string | null | undefined): MathTopic[] {
  if (!topic) return [...MATH_TOPICS];
  const named = MATH_TOPICS.filter((name) => MATH_TOPIC_NAMES[name].words.test(topic));
  return named.length > 0 ? named : [...MATH_TOPICS];
}

function distinctMistakes(exercise: Exercise): Mistake[] {
  const kept: Mistake[] = [];
  for (const mistake of exercise.mistakes) {
    if (!Number.isFinite(mistake.value) || sameNumber(mistake.value, exercise.answer)) continue;
    // A wrong answer nobody would pick is no distractor (the checker's implausible_distractor rule).
    if (
      exercise.answer !== 0 &&
      mistake.value !== 0 &&
      (Math.abs(mistake.value / exercise.answer) > 20 || Math.abs(mistake.value / exercise.answer) < 1 / 20)
    )
      continue;
    if (mistake.value < 0 && exercise.answer > 0 && exercise.generator !== 'math.equations') continue;
    if (exercise.show(mistake.value) === exercise.show(exercise.answer)) continue;
    if (kept.some((other) => exercise.show(other.value) === exercise.show(mistake.value))) continue;
    kept.push(mistake);
  }
  // Not enough distinct mistakes (small numbers coincide): near misses fill the set.
  for (let step = 1; kept.length < 3; step++) {
    // Near misses on the answer's own scale: ±1 for whole answers, a fraction of it for small ones.
    const delta = Math.abs(exercise.answer) >= 1 ? step : (Math.abs(exercise.answer) || 1) * step * 0.5;
    for (const value of [exercise.answer + delta, exercise.answer - delta]) {
      if (
        kept.length < 3 &&
        !kept.some((other) => exercise.show(other.value) === exercise.show(value)) &&
        exercise.show(value) !== exercise.show(exercise.answer)
      ) {
        kept.push({ value, why: { ja: '計算の誤り', en: 'an arithmetic slip' } });
      }
    }
  }
  return kept.slice(0, 3);
}

export function generateMathProblems(input: GeneratorInput & { topic?: string | null }, random: Random): GeneratedProblem[] {
  const topics = mathTopics(input.topic);
  const lang = input.language;
  const problems: GeneratedProblem[] = [];
  const seen = new Set<string>();
  // Topics in turn, from a seeded start, so a worksheet of ten covers every topic it may.
  const start = Math.floor(random() * topics.length);
  for (let attempt = 0; problems.length < input.count && attempt < input.count * 20; attempt++) {
    const topic = topics[(start + problems.length) % topics.length]!;
    const exercise = MAKERS[topic](random, input.difficulty);
    const key = `${exercise.generator}:${JSON.stringify(exercise.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(input.type === 'written' ? writtenProblem(exercise, lang) : choiceProblem(exercise, lang, random));
  }
  return problems;
}

function choiceProblem(exercise: Exercise, lang: WorkbenchLanguage, random: Random): GeneratedProblem {
  const mistakes = distinctMistakes(exercise);
  const { choices, correctIndex } = placeAnswer(
    exercise.show(exercise.answer),
    mistakes.map((mistake) => exercise.show(mistake.value)),
    random,
  );
  const first = mistakes[0]!;
  const explanation =
    lang === 'ja'
      ? `${exercise.working}。答えは ${exercise.show(exercise.answer)} です。${exercise.show(first.value)} は${first.why.ja}です。`
      : `${exercise.working}, so the answer is ${exercise.show(exercise.answer)}. ${exercise.show(first.value)} comes from ${first.why.en}.`;
  return {
    type: 'multiple_choice',
    prompt: exercise.prompt[lang],
    choices,
    correctChoiceIndex: correctIndex,
    modelAnswer: null,
    rubric: null,
    explanation,
    source: { generator: exercise.generator, params: exercise.params },
  };
}

function writtenProblem(exercise: Exercise, lang: WorkbenchLanguage): GeneratedProblem {
  const percent = exercise.generator === 'math.percentages';
  const base = exercise.params.base ?? 0;
  const answerText = percent
    ? lang === 'ja'
      ? `値引き額 ${formatNumber(exercise.answer)}円、支払額 ${formatNumber(base - exercise.answer)}円`
      : `discount ${formatNumber(exercise.answer)} dollars; you pay ${formatNumber(base - exercise.answer)} dollars`
    : exercise.show(exercise.answer);
  return {
    type: 'written',
    prompt: exercise.written[lang],
    choices: null,
    correctChoiceIndex: null,
    modelAnswer: `${exercise.working}${lang === 'ja' ? '。答え: ' : '. Answer: '}${answerText}`,
    rubric: exercise.rubric[lang],
    explanation:
      lang === 'ja'
        ? `${exercise.working}。よくある誤りは${exercise.mistakes[0]!.why.ja}です。`
        : `${exercise.working}. A common mistake is ${exercise.mistakes[0]!.why.en}.`,
    source: { generator: exercise.generator, params: exercise.params },
  };
}
