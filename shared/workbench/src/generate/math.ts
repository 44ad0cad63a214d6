import { MATH_TOPIC_NAMES } from '../subjects.js';
import type { Difficulty, WorkbenchLanguage } from '@convo/contract';
import { formatNumber, gcd, sameNumber } from '../numbers.js';
import { type GeneratedProblem, type GeneratorInput, multipleChoice, placeAnswer, recordKey, seededRandom } from './random.js';

/**
 * Arithmetic and algebra problems whose answers are computed, not written:
 * fractions, percentages, linear equations, areas, speed, ratio and
 * proportion, decimals, volume and unit conversion. Wrong choices are the
 * results of the mistakes learners typically make (adding across a
 * fraction, taking the perimeter for the area, moving a term without
 * changing its sign…), so every distractor is wrong for a reason the
 * explanation can name.
 *
 * Each topic draws its inputs (`draw`) and builds the whole problem from
 * them (`build`): the inputs are the problem's record (`source.params`), so
 * a problem can be built again from it — in the other language, with other
 * distractors, or from the new numbers a teacher typed into its prompt —
 * with every dependent part (answer, choices, explanation, rubric)
 * rewritten together.
 */

type Random = () => number;
export type MathParams = Record<string, number | string>;

type Mistake = { value: number; why: { ja: string; en: string } };
type Exercise = {
  generator: string;
  params: MathParams;
  prompt: { ja: string; en: string };
  /**
   * The same question set in an everyday scene (a cake shared, a price cut, a
   * box filled), asked of the same numbers with the same answer; none where
   * the prompt already is one (speed, a sum shared in a ratio).
   */
  context?: { ja: string; en: string };
  /** How the answer is written: a fraction, or a number with a unit. */
  show: (value: number, language: WorkbenchLanguage) => string;
  answer: number;
  working: string;
  mistakes: Mistake[];
  /** Written form: the question asked with working shown, and what a grader looks for. */
  written: { ja: string; en: string };
  rubric: { ja: string[]; en: string[] };
  /** The answer is a whole number and so is every sensible slip (no 17.33 km among whole distances). */
  whole?: boolean;
};

export const MATH_TOPICS = [
  'fractions',
  'percentages',
  'equations',
  'areas',
  'speed',
  'ratio',
  'decimals',
  'volume',
  'unit_conversion',
] as const;
export type MathTopic = (typeof MATH_TOPICS)[number];

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const num = (params: MathParams, key: string): number => {
  const value = params[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN;
};
/** Decimals as a worksheet prints them: at most three places, no float noise (2.4 × 1.5 = 3.6, not 3.5999999). */
const decimal = (value: number) => String(Number(value.toFixed(3)));

function fractionText(numerator: number, denominator: number): string {
  const divisor = gcd(numerator, denominator);
  const [top, bottom] = [numerator / divisor, denominator / divisor];
  return bottom === 1 ? String(top) : `${top}/${bottom}`;
}

function drawFractions(random: Random, difficulty: Difficulty): MathParams {
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
  return { leftNumerator, leftDenominator, rightNumerator, rightDenominator, subtract: subtract ? 1 : 0 };
}

function fractions(params: MathParams): Exercise | null {
  const [leftNumerator, leftDenominator, rightNumerator, rightDenominator] = [
    num(params, 'leftNumerator'),
    num(params, 'leftDenominator'),
    num(params, 'rightNumerator'),
    num(params, 'rightDenominator'),
  ];
  if (![leftNumerator, leftDenominator, rightNumerator, rightDenominator].every((value) => Number.isInteger(value) && value > 0))
    return null;
  const subtract = num(params, 'subtract') === 1;
  const sign = subtract ? -1 : 1;
  const denominator = (leftDenominator * rightDenominator) / gcd(leftDenominator, rightDenominator);
  const numerator = leftNumerator * (denominator / leftDenominator) + sign * rightNumerator * (denominator / rightDenominator);
  if (numerator <= 0) return null;
  const operator = subtract ? '-' : '+';
  const expression = `${leftNumerator}/${leftDenominator} ${operator} ${rightNumerator}/${rightDenominator}`;
  const show = (value: number) => {
    for (let bottom = 1; bottom <= 400; bottom++)
      if (sameNumber(Math.round(value * bottom) / bottom, value)) return fractionText(Math.round(value * bottom), bottom);
    return formatNumber(value);
  };
  const across = (leftNumerator + sign * rightNumerator) / (leftDenominator + rightDenominator);
  // The common-denominator step (通分) written out when the denominators differ: 1/4 + 1/6 = 3/12 + 2/12 = 5/12.
  const common =
    leftDenominator === rightDenominator
      ? ''
      : ` = ${leftNumerator * (denominator / leftDenominator)}/${denominator} ${operator} ${rightNumerator * (denominator / rightDenominator)}/${denominator}`;
  const reduced = fractionText(numerator, denominator);
  return {
    generator: 'math.fractions',
    params: { leftNumerator, leftDenominator, rightNumerator, rightDenominator, subtract: subtract ? 1 : 0 },
    prompt: { ja: `次の計算をしなさい。${expression}`, en: `Calculate ${expression}.` },
    show,
    answer: numerator / denominator,
    context: subtract
      ? {
          ja: `${leftNumerator}/${leftDenominator} mのリボンから${rightNumerator}/${rightDenominator} m切り取りました。残りは何 mですか。`,
          en: `A ribbon is ${leftNumerator}/${leftDenominator} m long. You cut off ${rightNumerator}/${rightDenominator} m. How much is left?`,
        }
      : {
          ja: `ケーキを、はじめに${leftNumerator}/${leftDenominator}、あとで${rightNumerator}/${rightDenominator}食べました。あわせてケーキのどれだけを食べましたか。`,
          en: `Ann ate ${leftNumerator}/${leftDenominator} of a cake, then ${rightNumerator}/${rightDenominator} more. How much of the cake did she eat in all?`,
        },
    working: `${expression}${common} = ${numerator}/${denominator}${reduced === `${numerator}/${denominator}` ? '' : ` = ${reduced}`}`,
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
      ja: ['分母を通分している', '分子を正しく計算している', `答え ${reduced}（約分済み）`],
      en: ['finds a common denominator', 'combines the numerators correctly', `answer ${reduced}, in lowest terms`],
    },
  };
}

function drawPercentages(random: Random, difficulty: Difficulty): MathParams {
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
  return { percent, base };
}

function percentages(params: MathParams): Exercise | null {
  const [percent, base] = [num(params, 'percent'), num(params, 'base')];
  if (!(percent > 0 && percent < 100 && base > 0)) return null;
  const answer = (percent * base) / 100;
  return {
    generator: 'math.percentages',
    params: { percent, base },
    prompt: { ja: `${base}の${percent}%はいくつですか。`, en: `What is ${percent}% of ${base}?` },
    context: {
      ja: `定価${base}円の品物が${percent}%引きで売られています。値引きされるのは何円ですか。`,
      en: `A jacket costs ${base} dollars and is sold at ${percent}% off. How many dollars are taken off?`,
    },
    show: (value) => formatNumber(value),
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

function drawEquations(random: Random, difficulty: Difficulty): MathParams {
  const solution = difficulty === 'easy' ? between(random, 1, 10) : between(random, -9, 15) || 4;
  const coefficient = difficulty === 'easy' ? between(random, 2, 5) : between(random, 2, 9);
  const shift = difficulty === 'easy' ? between(random, 1, 10) : between(random, 2, 20) * (random() < 0.4 ? -1 : 1);
  const grouped = difficulty === 'hard';
  const right = grouped ? coefficient * (solution - shift) : coefficient * solution + shift;
  return { coefficient, shift, right, grouped: grouped ? 1 : 0 };
}

function equations(params: MathParams): Exercise | null {
  const [coefficient, shift, right] = [num(params, 'coefficient'), num(params, 'shift'), num(params, 'right')];
  if (![coefficient, shift, right].every(Number.isInteger) || coefficient < 2 || shift === 0) return null;
  const grouped = num(params, 'grouped') === 1;
  const solution = grouped ? right / coefficient + shift : (right - shift) / coefficient;
  const left = grouped
    ? `${coefficient}(x ${shift < 0 ? '+' : '-'} ${Math.abs(shift)})`
    : `${coefficient}x ${shift < 0 ? '-' : '+'} ${Math.abs(shift)}`;
  const equation = `${left} = ${right}`;
  const show = (value: number) => `x = ${formatNumber(value, 'fraction')}`;
  const shown = formatNumber(solution, 'fraction');
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
    context: grouped
      ? {
          ja: `ある数x${shift < 0 ? `に${Math.abs(shift)}をたして` : `から${shift}をひいて`}${coefficient}倍すると${right}になります。xを求めなさい。`,
          en: `Take a number x, ${shift < 0 ? `add ${Math.abs(shift)}` : `subtract ${shift}`} and multiply by ${coefficient}: you get ${right}. What is x?`,
        }
      : {
          ja: `ある数xを${coefficient}倍して${shift < 0 ? `${Math.abs(shift)}をひく` : `${shift}をたす`}と${right}になります。xを求めなさい。`,
          en: `Multiply a number x by ${coefficient} and ${shift < 0 ? `subtract ${Math.abs(shift)}` : `add ${shift}`}: you get ${right}. What is x?`,
        },
    show,
    answer: solution,
    working: grouped
      ? `${equation} → x ${shift < 0 ? '+' : '-'} ${Math.abs(shift)} = ${formatNumber(right / coefficient, 'fraction')} → x = ${shown}`
      : `${equation} → ${coefficient}x = ${right - shift} → x = ${shown}`,
    mistakes,
    written: { ja: `次の方程式を解き、解き方も書きなさい。${equation}`, en: `Solve ${equation} and show each step.` },
    rubric: {
      ja: ['移項または展開が正しい', '両辺を係数で割っている', `答え x = ${shown}`],
      en: ['moves or expands terms correctly', 'divides both sides by the coefficient', `answer x = ${shown}`],
    },
  };
}

function drawAreas(random: Random, difficulty: Difficulty): MathParams {
  const shape = pick(random, difficulty === 'easy' ? (['rectangle', 'square'] as const) : (['rectangle', 'triangle', 'circle'] as const));
  if (shape === 'circle') return { shape, radius: difficulty === 'hard' ? between(random, 6, 15) : between(random, 2, 10) };
  const width = between(random, 3, difficulty === 'hard' ? 25 : 12);
  if (shape === 'square') return { shape, side: width };
  const height = between(random, 2, difficulty === 'hard' ? 20 : 10);
  return shape === 'triangle' ? { shape, base: width, height } : { shape, width, height };
}

/** The shape of an area or volume record; records written before shapes were named tell it by their keys. */
function shapeOf(params: MathParams): string {
  if (typeof params.shape === 'string') return params.shape;
  return 'radius' in params ? 'circle' : 'side' in params ? 'square' : 'base' in params ? 'triangle' : 'rectangle';
}

const positive = (...values: number[]) => values.every((value) => Number.isFinite(value) && value > 0);

function areas(params: MathParams): Exercise | null {
  const shape = shapeOf(params);
  const unit = (value: number) => `${formatNumber(value)} cm²`;
  if (shape === 'circle') {
    const radius = num(params, 'radius');
    if (!positive(radius)) return null;
    const answer = 3.14 * radius * radius;
    return {
      generator: 'math.areas',
      params: { shape, radius },
      prompt: {
        ja: `半径${radius} cmの円の面積を求めなさい。円周率は3.14とします。`,
        en: `Find the area of a circle with radius ${radius} cm. Use 3.14 for π.`,
      },
      context: {
        ja: `半径${radius} cmの円いコースターがあります。面積は何 cm²ですか。円周率は3.14とします。`,
        en: `A round coaster has a radius of ${radius} cm. What is its area? Use 3.14 for π.`,
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
  if (shape === 'triangle') {
    const [width, height] = [num(params, 'base'), num(params, 'height')];
    if (!positive(width, height)) return null;
    const answer = (width * height) / 2;
    return {
      generator: 'math.areas',
      params: { shape, base: width, height },
      prompt: {
        ja: `底辺${width} cm、高さ${height} cmの三角形の面積を求めなさい。`,
        en: `A triangle has base ${width} cm and height ${height} cm. What is its area?`,
      },
      context: {
        ja: `底辺${width} cm、高さ${height} cmの三角形の旗を作ります。旗の面積は何 cm²ですか。`,
        en: `A triangular flag has a base of ${width} cm and a height of ${height} cm. What is its area?`,
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
  const width = shape === 'square' ? num(params, 'side') : num(params, 'width');
  const height = shape === 'square' ? width : num(params, 'height');
  if (!positive(width, height)) return null;
  const answer = width * height;
  const name =
    shape === 'square'
      ? { ja: `1辺${width} cmの正方形`, en: `a square with side ${width} cm` }
      : { ja: `縦${width} cm、横${height} cmの長方形`, en: `a rectangle ${width} cm by ${height} cm` };
  return {
    generator: 'math.areas',
    params: shape === 'square' ? { shape, side: width } : { shape, width, height },
    prompt: { ja: `${name.ja}の面積を求めなさい。`, en: `What is the area of ${name.en}?` },
    context:
      shape === 'square'
        ? {
            ja: `1辺${width} cmの正方形のタイルがあります。面積は何 cm²ですか。`,
            en: `A square tile has sides of ${width} cm. What is its area?`,
          }
        : {
            ja: `縦${width} cm、横${height} cmの写真があります。面積は何 cm²ですか。`,
            en: `A photo is ${width} cm by ${height} cm. What area does it cover?`,
          },
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

/** Speed, distance and time: one of the three asked from the other two; at `hard`, a time in minutes. */
function drawSpeed(random: Random, difficulty: Difficulty): MathParams {
  const ask = difficulty === 'easy' ? 'distance' : pick(random, ['distance', 'time', 'speed'] as const);
  const speed =
    difficulty === 'easy' ? 10 * between(random, 2, 8) : difficulty === 'normal' ? between(random, 3, 16) * 5 : between(random, 4, 24) * 6;
  if (difficulty === 'hard' && ask === 'distance') return { ask, speed, minutes: pick(random, [10, 20, 30, 40, 50, 90]) };
  const hours = difficulty === 'easy' ? between(random, 2, 5) : between(random, 2, 9);
  if (ask === 'distance') return { ask, speed, hours };
  if (ask === 'time') return { ask, distance: speed * hours, speed };
  return { ask, distance: speed * hours, hours };
}

function speed(params: MathParams): Exercise | null {
  const ask = params.ask;
  const km = (value: number) => `${formatNumber(value)} km`;
  const hoursShown = (value: number, language: WorkbenchLanguage) =>
    language === 'ja' ? `${formatNumber(value)}時間` : `${formatNumber(value)} hours`;
  const speedShown = (value: number, language: WorkbenchLanguage) =>
    language === 'ja' ? `時速${formatNumber(value)} km` : `${formatNumber(value)} km/h`;
  const formula = { ja: '道のり = 速さ × 時間', en: 'distance = speed × time' };
  if (ask === 'distance') {
    // At `hard` the time is in minutes, and converting it is the step to get right.
    const inMinutes = 'minutes' in params;
    const [rate, time] = [num(params, 'speed'), num(params, inMinutes ? 'minutes' : 'hours')];
    if (!positive(rate, time)) return null;
    const answer = inMinutes ? (rate * time) / 60 : rate * time;
    const asked = inMinutes
      ? {
          ja: `時速${rate} kmで${time}分間進むと、何 km進みますか。`,
          en: `A train travels at ${rate} km/h for ${time} minutes. How far does it go?`,
        }
      : {
          ja: `時速${rate} kmで${time}時間進むと、何 km進みますか。`,
          en: `A car travels at ${rate} km/h for ${time} hours. How far does it go?`,
        };
    const fraction = formatNumber(time / 60, 'fraction');
    return {
      generator: 'math.speed',
      params: inMinutes ? { ask, speed: rate, minutes: time } : { ask, speed: rate, hours: time },
      prompt: asked,
      show: km,
      answer,
      working: inMinutes
        ? `${time}/60 = ${fraction}, ${rate} × ${fraction} = ${formatNumber(answer)}`
        : `${rate} × ${time} = ${formatNumber(answer)}`,
      mistakes: inMinutes
        ? [
            { value: (rate * time) / 100, why: { ja: '1時間を100分として計算する誤り', en: 'taking an hour as 100 minutes' } },
            { value: rate * time, why: { ja: '分を時間に直さない誤り', en: 'not converting the minutes to hours' } },
            { value: (rate / time) * 60, why: { ja: '時間でかけずに割ってしまう誤り', en: 'dividing by the time instead of multiplying' } },
            { value: answer + rate / 6, why: { ja: '時間の換算の誤り', en: 'a slip converting the time' } },
          ]
        : [
            { value: rate + time, why: { ja: '速さと時間を足してしまう誤り', en: 'adding the speed and the time' } },
            { value: rate / time, why: { ja: 'かけずに割ってしまう誤り', en: 'dividing instead of multiplying' } },
            { value: rate * (time + 1), why: { ja: '時間を数え違える誤り', en: 'counting one hour too many' } },
            { value: rate * (time - 1), why: { ja: '時間を数え違える誤り', en: 'counting one hour too few' } },
          ],
      written: { ja: `${asked.ja}式を書いて求めなさい。`, en: `${asked.en} Show your working.` },
      rubric: inMinutes
        ? {
            ja: ['分を時間に直している', formula.ja, `答え ${km(answer)}`],
            en: ['converts the minutes to hours', formula.en, `answer ${km(answer)}`],
          }
        : { ja: [formula.ja, `${rate} × ${time}`, `答え ${km(answer)}`], en: [formula.en, `${rate} × ${time}`, `answer ${km(answer)}`] },
      ...(inMinutes ? {} : { whole: true }),
    };
  }
  if (ask === 'time') {
    const [distance, rate] = [num(params, 'distance'), num(params, 'speed')];
    if (!positive(distance, rate)) return null;
    const answer = distance / rate;
    return {
      generator: 'math.speed',
      params: { ask, distance, speed: rate },
      prompt: {
        ja: `${distance} kmの道のりを時速${rate} kmで進むと、何時間かかりますか。`,
        en: `How many hours does it take to travel ${distance} km at ${rate} km/h?`,
      },
      show: hoursShown,
      answer,
      working: `${distance} ÷ ${rate} = ${formatNumber(answer)}`,
      mistakes: [
        { value: distance - rate, why: { ja: '道のりから速さを引いてしまう誤り', en: 'subtracting the speed from the distance' } },
        { value: answer + 1, why: { ja: 'わり算の誤り', en: 'a division slip' } },
        { value: answer * 2, why: { ja: '速さを半分にしてしまう誤り', en: 'halving the speed' } },
        { value: answer - 1, why: { ja: 'わり算の誤り', en: 'a division slip' } },
      ],
      written: {
        ja: `${distance} kmの道のりを時速${rate} kmで進むと、何時間かかりますか。式を書いて求めなさい。`,
        en: `How many hours does it take to travel ${distance} km at ${rate} km/h? Show your working.`,
      },
      rubric: {
        ja: ['時間 = 道のり ÷ 速さ', `${distance} ÷ ${rate}`, `答え ${hoursShown(answer, 'ja')}`],
        en: ['time = distance ÷ speed', `${distance} ÷ ${rate}`, `answer ${hoursShown(answer, 'en')}`],
      },
      whole: Number.isInteger(answer),
    };
  }
  if (ask !== 'speed') return null;
  const [distance, hours] = [num(params, 'distance'), num(params, 'hours')];
  if (!positive(distance, hours)) return null;
  const answer = distance / hours;
  return {
    generator: 'math.speed',
    params: { ask, distance, hours },
    prompt: {
      ja: `${distance} kmの道のりを${hours}時間で進みました。時速何 kmですか。`,
      en: `A cyclist rides ${distance} km in ${hours} hours. What is the average speed?`,
    },
    show: speedShown,
    answer,
    working: `${distance} ÷ ${hours} = ${formatNumber(answer)}`,
    mistakes: [
      { value: distance * hours, why: { ja: '道のりと時間をかけてしまう誤り', en: 'multiplying the distance by the time' } },
      { value: distance - hours, why: { ja: '道のりから時間を引いてしまう誤り', en: 'subtracting the time from the distance' } },
      { value: answer + hours, why: { ja: 'わり算の誤り', en: 'a division slip' } },
      { value: distance / (hours + 1), why: { ja: '時間を数え違える誤り', en: 'counting one hour too many' } },
    ],
    written: {
      ja: `${distance} kmの道のりを${hours}時間で進みました。時速何 kmですか。式を書いて求めなさい。`,
      en: `A cyclist rides ${distance} km in ${hours} hours. What is the average speed? Show your working.`,
    },
    rubric: {
      ja: ['速さ = 道のり ÷ 時間', `${distance} ÷ ${hours}`, `答え ${speedShown(answer, 'ja')}`],
      en: ['speed = distance ÷ time', `${distance} ÷ ${hours}`, `answer ${speedShown(answer, 'en')}`],
    },
    whole: Number.isInteger(answer),
  };
}

/** Ratio and proportion: the missing term of a : b = c : x; at `hard`, a sum shared in a ratio. */
function drawRatio(random: Random, difficulty: Difficulty): MathParams {
  const pairs: Array<[number, number]> = [];
  const most = difficulty === 'easy' ? 5 : 9;
  for (let a = 1; a <= most; a++) for (let b = 1; b <= most; b++) if (a !== b && gcd(a, b) === 1) pairs.push([a, b]);
  const [a, b] = pick(random, pairs);
  if (difficulty === 'hard') return { kind: 'share', total: (a + b) * between(random, 3, 25), a, b };
  return { kind: 'proportion', a, b, c: a * (difficulty === 'easy' ? between(random, 2, 5) : between(random, 2, 12)) };
}

function ratio(params: MathParams): Exercise | null {
  const [a, b] = [num(params, 'a'), num(params, 'b')];
  if (!positive(a, b) || !Number.isInteger(a) || !Number.isInteger(b)) return null;
  if (params.kind === 'share') {
    const total = num(params, 'total');
    if (!positive(total)) return null;
    const answer = (total * a) / (a + b);
    const other = total - answer;
    return {
      generator: 'math.ratio',
      params: { kind: 'share', total, a, b },
      prompt: {
        ja: `${total}個のあめを、兄と弟で${a} : ${b}の比になるように分けます。兄は何個もらえますか。`,
        en: `${total} sweets are shared between Ann and Ben in the ratio ${a} : ${b}. How many does Ann get?`,
      },
      show: (value, language) => (language === 'ja' ? `${formatNumber(value)}個` : formatNumber(value)),
      answer,
      working: `${total} × ${a}/(${a} + ${b}) = ${formatNumber(answer)}`,
      mistakes: [
        { value: other, why: { ja: 'もう一方の分け前を求めてしまう誤り', en: 'finding the other share' } },
        { value: (total * a) / b, why: { ja: '全体ではなく相手の数で割る誤り', en: 'dividing by the other part, not the whole' } },
        { value: total / (a + b), why: { ja: '1つ分で止めてしまう誤り', en: 'stopping at one part' } },
        { value: total - a, why: { ja: '比の数を引いてしまう誤り', en: 'subtracting the ratio number' } },
      ],
      written: {
        ja: `${total}個のあめを、兄と弟で${a} : ${b}の比になるように分けます。兄と弟はそれぞれ何個もらえますか。式を書いて求めなさい。`,
        en: `${total} sweets are shared between Ann and Ben in the ratio ${a} : ${b}. How many does each get? Show your working.`,
      },
      rubric: {
        ja: [`全体を${a + b}等分している`, `兄 ${formatNumber(answer)}個`, `弟 ${formatNumber(other)}個`],
        en: [`splits the whole into ${a + b} parts`, `Ann ${formatNumber(answer)}`, `Ben ${formatNumber(other)}`],
      },
      whole: true,
    };
  }
  const c = num(params, 'c');
  if (!positive(c)) return null;
  const answer = (b * c) / a;
  return {
    generator: 'math.ratio',
    params: { kind: 'proportion', a, b, c },
    prompt: {
      ja: `${a} : ${b} = ${c} : □ のとき、□にあてはまる数を求めなさい。`,
      en: `Find the missing number: ${a} : ${b} = ${c} : □`,
    },
    context: {
      ja: `水と果汁を${a} : ${b}の割合でまぜてジュースを作ります。水を${c} dL使うとき、果汁は何 dL必要ですか。`,
      en: `A drink is mixed ${a} parts water to ${b} parts juice. With ${c} cups of water, how many cups of juice are needed?`,
    },
    show: (value) => formatNumber(value, 'fraction'),
    answer,
    working: `${c} ÷ ${a} = ${formatNumber(c / a, 'fraction')}, ${b} × ${formatNumber(c / a, 'fraction')} = ${formatNumber(answer, 'fraction')}`,
    mistakes: [
      { value: c + (b - a), why: { ja: '比を差で考えてしまう誤り', en: 'adding the difference instead of scaling' } },
      { value: (a * c) / b, why: { ja: '比の向きを逆にする誤り', en: 'scaling the wrong way' } },
      { value: b * c, why: { ja: '割らずにかけてしまう誤り', en: 'multiplying without dividing' } },
      { value: answer + b, why: { ja: '倍の数え違い', en: 'scaling by one too many' } },
    ],
    written: {
      ja: `${a} : ${b} = ${c} : □ のとき、□にあてはまる数を、考え方も書いて求めなさい。`,
      en: `Find the missing number in ${a} : ${b} = ${c} : □. Show how you scale the ratio.`,
    },
    rubric: {
      ja: [
        `${c} は ${a} の ${formatNumber(c / a, 'fraction')} 倍`,
        `${b} にも同じ数をかけている`,
        `答え ${formatNumber(answer, 'fraction')}`,
      ],
      en: [
        `${c} is ${formatNumber(c / a, 'fraction')} times ${a}`,
        `multiplies ${b} by the same`,
        `answer ${formatNumber(answer, 'fraction')}`,
      ],
    },
    whole: Number.isInteger(answer),
  };
}

/** Decimals: adding and subtracting (easy), multiplying (normal), dividing by a decimal (hard); tenths, so every answer is exact. */
function drawDecimals(random: Random, difficulty: Difficulty): MathParams {
  if (difficulty === 'easy') {
    const left = between(random, 11, 89);
    const right = between(random, 11, 89);
    const op = random() < 0.5 || left === right ? '+' : '-';
    return op === '-'
      ? { op, left: Math.max(left, right) / 10, right: Math.min(left, right) / 10 }
      : { op, left: left / 10, right: right / 10 };
  }
  if (difficulty === 'normal')
    return { op: '×', left: between(random, 12, 49) / 10, right: between(random, 2, 9) / 10 + between(random, 0, 3) };
  // Hard: a quotient of whole tenths divided by a decimal, chosen so the answer ends.
  const divisor = between(random, 2, 9) / 10 + pick(random, [0, 0, 1]);
  const quotient = between(random, 2, 30) / (random() < 0.5 ? 1 : 10);
  return { op: '÷', left: Number((divisor * quotient).toFixed(3)), right: Number(divisor.toFixed(1)) };
}

function decimals(params: MathParams): Exercise | null {
  const [left, right] = [num(params, 'left'), num(params, 'right')];
  const op = params.op;
  if (!positive(left, right) || !['+', '-', '×', '÷'].includes(String(op))) return null;
  const answer = Number((op === '+' ? left + right : op === '-' ? left - right : op === '×' ? left * right : left / right).toFixed(6));
  if (!(answer > 0) || Math.abs(answer * 1000 - Math.round(answer * 1000)) > 1e-6) return null;
  const expression = `${decimal(left)} ${op} ${decimal(right)}`;
  const shift = { ja: '小数点の位置をずらしてしまう誤り', en: 'putting the decimal point in the wrong place' };
  const mistakes: Mistake[] =
    op === '+' || op === '-'
      ? [
          {
            value: op === '+' ? left + right / 10 : left - right / 10,
            why: { ja: '位をそろえずに計算する誤り', en: 'not lining up the decimal points' },
          },
          { value: answer + 1, why: { ja: 'くり上がり・くり下がりの誤り', en: 'a carrying slip' } },
          { value: answer * 10, why: shift },
          { value: op === '+' ? answer - 1 : left + right, why: { ja: 'くり上がりや符号の誤り', en: 'a carrying or sign slip' } },
        ]
      : [
          { value: answer * 10, why: shift },
          { value: answer / 10, why: shift },
          { value: op === '×' ? left + right : left * right, why: { ja: 'ちがう計算をしてしまう誤り', en: 'using the wrong operation' } },
          { value: answer * 100, why: shift },
        ];
  return {
    generator: 'math.decimals',
    params: { op: String(op), left, right },
    prompt: { ja: `次の計算をしなさい。${expression}`, en: `Calculate ${expression}.` },
    show: (value) => decimal(value),
    context:
      op === '+'
        ? {
            ja: `${decimal(left)} Lと${decimal(right)} Lのお茶をあわせると何 Lですか。`,
            en: `You pour ${decimal(left)} L and ${decimal(right)} L of tea into a jug. How much tea is in it?`,
          }
        : op === '-'
          ? {
              ja: `${decimal(left)} mのひもから${decimal(right)} m切り取ると、残りは何 mですか。`,
              en: `You cut ${decimal(right)} m off a ${decimal(left)} m rope. How much is left?`,
            }
          : op === '×'
            ? {
                ja: `1 mの重さが${decimal(left)} kgの鉄の棒があります。この棒${decimal(right)} mの重さは何 kgですか。`,
                en: `A metal bar weighs ${decimal(left)} kg per metre. How much do ${decimal(right)} m of it weigh?`,
              }
            : {
                ja: `面積が${decimal(left)} m²で、横が${decimal(right)} mの長方形の花だんがあります。縦は何 mですか。`,
                en: `A rectangular flower bed has an area of ${decimal(left)} m² and a width of ${decimal(right)} m. How long is it?`,
              },
    answer,
    working:
      op === '÷'
        ? `${expression} = ${decimal(left * 10)} ÷ ${decimal(right * 10)} = ${decimal(answer)}`
        : `${expression} = ${decimal(answer)}`,
    mistakes,
    written: {
      ja: `次の計算を筆算でしなさい。小数点の位置に気をつけること。${expression}`,
      en: `Calculate ${expression} in columns. Take care where the decimal point goes.`,
    },
    rubric: {
      ja: [op === '÷' ? 'わる数を整数にしている' : '小数点の位置をそろえている', '計算が正しい', `答え ${decimal(answer)}`],
      en: [
        op === '÷' ? 'makes the divisor a whole number' : 'places the decimal point correctly',
        'calculates correctly',
        `answer ${decimal(answer)}`,
      ],
    },
  };
}

/** Volume: cubes (easy), cuboids (normal), cuboids and cylinders (hard). */
function drawVolume(random: Random, difficulty: Difficulty): MathParams {
  const shape =
    difficulty === 'easy'
      ? pick(random, ['cube', 'cuboid'] as const)
      : difficulty === 'normal'
        ? 'cuboid'
        : pick(random, ['cuboid', 'cylinder'] as const);
  if (shape === 'cube') return { shape, side: between(random, 2, 9) };
  if (shape === 'cylinder') return { shape, radius: between(random, 2, 10), height: between(random, 3, 15) };
  const most = difficulty === 'hard' ? 20 : difficulty === 'normal' ? 12 : 6;
  return { shape, length: between(random, 2, most), width: between(random, 2, most), height: between(random, 2, most) };
}

function volume(params: MathParams): Exercise | null {
  const unit = (value: number) => `${formatNumber(value)} cm³`;
  const shape = params.shape;
  if (shape === 'cylinder') {
    const [radius, height] = [num(params, 'radius'), num(params, 'height')];
    if (!positive(radius, height)) return null;
    const answer = 3.14 * radius * radius * height;
    return {
      generator: 'math.volume',
      params: { shape, radius, height },
      prompt: {
        ja: `底面の半径が${radius} cm、高さが${height} cmの円柱の体積を求めなさい。円周率は3.14とします。`,
        en: `Find the volume of a cylinder with radius ${radius} cm and height ${height} cm. Use 3.14 for π.`,
      },
      context: {
        ja: `底面の半径が${radius} cm、高さが${height} cmの円柱の形をした缶があります。缶の体積は何 cm³ですか。円周率は3.14とします。`,
        en: `A can is a cylinder with radius ${radius} cm and height ${height} cm. What is its volume? Use 3.14 for π.`,
      },
      show: unit,
      answer,
      working: `3.14 × ${radius} × ${radius} × ${height} = ${formatNumber(answer)}`,
      mistakes: [
        { value: 2 * 3.14 * radius * height, why: { ja: '側面積を求めてしまう誤り', en: 'finding the curved surface instead' } },
        { value: 3.14 * radius * height, why: { ja: '半径を2回かけ忘れる誤り', en: 'not squaring the radius' } },
        { value: 3.14 * radius * radius, why: { ja: '高さをかけ忘れる誤り', en: 'forgetting the height' } },
        { value: radius * radius * height, why: { ja: '円周率をかけ忘れる誤り', en: 'forgetting π' } },
      ],
      written: {
        ja: `底面の半径が${radius} cm、高さが${height} cmの円柱の体積を、式を書いて求めなさい。円周率は3.14とします。`,
        en: `Find the volume of a cylinder with radius ${radius} cm and height ${height} cm, using 3.14 for π. Show your working.`,
      },
      rubric: {
        ja: ['底面積 × 高さ', `3.14 × ${radius} × ${radius} × ${height}`, `答え ${unit(answer)}`],
        en: ['base area × height', `3.14 × ${radius} × ${radius} × ${height}`, `answer ${unit(answer)}`],
      },
    };
  }
  const cube = shape === 'cube';
  const [length, width, height] = cube
    ? [num(params, 'side'), num(params, 'side'), num(params, 'side')]
    : [num(params, 'length'), num(params, 'width'), num(params, 'height')];
  if (!positive(length, width, height)) return null;
  const answer = length * width * height;
  const name = cube
    ? { ja: `1辺${length} cmの立方体`, en: `a cube with edges of ${length} cm` }
    : {
        ja: `縦${length} cm、横${width} cm、高さ${height} cmの直方体`,
        en: `a cuboid ${length} cm long, ${width} cm wide and ${height} cm high`,
      };
  return {
    generator: 'math.volume',
    params: cube ? { shape: 'cube', side: length } : { shape: 'cuboid', length, width, height },
    prompt: { ja: `${name.ja}の体積を求めなさい。`, en: `What is the volume of ${name.en}?` },
    context: {
      ja: `${name.ja}の形をした箱があります。箱の体積は何 cm³ですか。`,
      en: `A box is ${name.en.replace(/^an? /, 'shaped like a ')}. What is its volume?`,
    },
    show: unit,
    answer,
    working: `${length} × ${width} × ${height} = ${answer}`,
    mistakes: [
      {
        value: 2 * (length * width + width * height + height * length),
        why: { ja: '表面積を求めてしまう誤り', en: 'finding the surface area instead' },
      },
      { value: length * width, why: { ja: '高さをかけ忘れる誤り', en: 'forgetting the height' } },
      { value: length + width + height, why: { ja: '長さを足してしまう誤り', en: 'adding the lengths' } },
      { value: answer + length * width, why: { ja: 'かけ算の誤り', en: 'a multiplication slip' } },
    ],
    written: { ja: `${name.ja}の体積を、式を書いて求めなさい。`, en: `Find the volume of ${name.en}. Show your working.` },
    rubric: {
      ja: [cube ? '公式 1辺×1辺×1辺' : '公式 縦×横×高さ', `${length} × ${width} × ${height}`, `答え ${unit(answer)}`],
      en: [cube ? 'uses edge × edge × edge' : 'uses length × width × height', `${length} × ${width} × ${height}`, `answer ${unit(answer)}`],
    },
    whole: true,
  };
}

/** Metric units: each conversion is a power of ten, the step learners get wrong. */
const METRIC: Record<string, { dimension: 'length' | 'mass' | 'volume'; factor: number }> = {
  mm: { dimension: 'length', factor: 0.001 },
  cm: { dimension: 'length', factor: 0.01 },
  m: { dimension: 'length', factor: 1 },
  km: { dimension: 'length', factor: 1000 },
  g: { dimension: 'mass', factor: 1 },
  kg: { dimension: 'mass', factor: 1000 },
  mL: { dimension: 'volume', factor: 0.001 },
  dL: { dimension: 'volume', factor: 0.1 },
  L: { dimension: 'volume', factor: 1 },
};
const CONVERSIONS: Record<Difficulty, Array<[string, string]>> = {
  easy: [
    ['m', 'cm'],
    ['kg', 'g'],
    ['L', 'mL'],
    ['km', 'm'],
    ['cm', 'mm'],
  ],
  normal: [
    ['cm', 'm'],
    ['g', 'kg'],
    ['mL', 'L'],
    ['m', 'km'],
    ['L', 'dL'],
    ['km', 'm'],
  ],
  hard: [
    ['mm', 'm'],
    ['dL', 'mL'],
    ['cm', 'km'],
    ['mL', 'dL'],
    ['m', 'mm'],
    ['g', 'kg'],
  ],
};

function drawConversion(random: Random, difficulty: Difficulty): MathParams {
  const [from, to] = pick(random, CONVERSIONS[difficulty]);
  const ratio = METRIC[from]!.factor / METRIC[to]!.factor;
  // A value that converts to a short number: whole for easy, one or two decimals otherwise.
  const value =
    difficulty === 'easy'
      ? between(random, 2, 9)
      : ratio > 1
        ? between(random, 11, 99) / 10
        : (between(random, 2, 99) * (1 / ratio)) / (difficulty === 'hard' ? 100 : 10);
  return { value: Number(value.toFixed(4)), from, to };
}

function unitConversion(params: MathParams): Exercise | null {
  const value = num(params, 'value');
  const from = METRIC[String(params.from)];
  const to = METRIC[String(params.to)];
  if (!positive(value) || !from || !to || from.dimension !== to.dimension || from === to) return null;
  const ratio = from.factor / to.factor;
  const answer = Number((value * ratio).toFixed(6));
  const [fromName, toName] = [String(params.from), String(params.to)];
  const show = (amount: number) => `${decimal(amount)} ${toName}`;
  const times = ratio >= 1 ? `× ${decimal(ratio)}` : `÷ ${decimal(1 / ratio)}`;
  return {
    generator: 'math.unit_conversion',
    params: { value, from: fromName, to: toName },
    prompt: { ja: `${decimal(value)} ${fromName} は何 ${toName} ですか。`, en: `Convert ${decimal(value)} ${fromName} to ${toName}.` },
    context: {
      length: {
        ja: `${decimal(value)} ${fromName}のコースを走りました。何 ${toName}走りましたか。`,
        en: `You run a course of ${decimal(value)} ${fromName}. How many ${toName} do you run?`,
      },
      mass: {
        ja: `ケーキに小麦粉を${decimal(value)} ${fromName}使います。何 ${toName}使いますか。`,
        en: `A cake needs ${decimal(value)} ${fromName} of flour. How many ${toName} is that?`,
      },
      volume: {
        ja: `水とうに${decimal(value)} ${fromName}の水が入っています。何 ${toName}ですか。`,
        en: `A water bottle holds ${decimal(value)} ${fromName}. How many ${toName} is that?`,
      },
    }[from.dimension],
    show,
    answer,
    working: `1 ${fromName} = ${decimal(ratio)} ${toName}, ${decimal(value)} ${times} = ${decimal(answer)}`,
    mistakes: [
      { value: answer * 10, why: { ja: '単位の関係を10倍まちがえる誤り', en: 'a factor of ten too many' } },
      { value: answer / 10, why: { ja: '単位の関係を10倍まちがえる誤り', en: 'a factor of ten too few' } },
      { value: value / ratio, why: { ja: 'かけ算とわり算を逆にする誤り', en: 'dividing instead of multiplying (or the reverse)' } },
      { value: answer * 100, why: { ja: '単位の関係を100倍まちがえる誤り', en: 'a factor of a hundred too many' } },
    ],
    written: {
      ja: `${decimal(value)} ${fromName} は何 ${toName} ですか。1 ${fromName} が何 ${toName} かを書いてから求めなさい。`,
      en: `Convert ${decimal(value)} ${fromName} to ${toName}. First write how many ${toName} make 1 ${fromName}.`,
    },
    rubric: {
      ja: [`1 ${fromName} = ${decimal(ratio)} ${toName}`, `${decimal(value)} ${times}`, `答え ${show(answer)}`],
      en: [`1 ${fromName} = ${decimal(ratio)} ${toName}`, `${decimal(value)} ${times}`, `answer ${show(answer)}`],
    },
  };
}

type Topic = { draw: (random: Random, difficulty: Difficulty) => MathParams; build: (params: MathParams) => Exercise | null };

const TOPICS: Record<MathTopic, Topic> = {
  fractions: { draw: drawFractions, build: fractions },
  percentages: { draw: drawPercentages, build: percentages },
  equations: { draw: drawEquations, build: equations },
  areas: { draw: drawAreas, build: areas },
  speed: { draw: drawSpeed, build: speed },
  ratio: { draw: drawRatio, build: ratio },
  decimals: { draw: drawDecimals, build: decimals },
  volume: { draw: drawVolume, build: volume },
  unit_conversion: { draw: drawConversion, build: unitConversion },
};

/** The topic a generated problem's record names ('math.areas' → areas), or null. */
export function mathTopicOf(generator: string | null | undefined): MathTopic | null {
  const name = generator?.startsWith('math.') ? generator.slice('math.'.length) : null;
  return name && (MATH_TOPICS as readonly string[]).includes(name) ? (name as MathTopic) : null;
}

/**
 * Which topics a worksheet's free-text topic names ("分数", "percent", "面積と方程式"); all when it names none.
 * A topic that names none of them is refused before generation (topicOffered), never silently replaced by all.
 */
export function mathTopics(topic: string | null | undefined): MathTopic[] {
  if (!topic) return [...MATH_TOPICS];
  const named = MATH_TOPICS.filter((name) => MATH_TOPIC_NAMES[name].words.test(topic));
  return named.length > 0 ? named : [...MATH_TOPICS];
}

/** Whether a wrong value can stand as a distractor for this exercise (a value nobody would pick cannot). */
function usable(exercise: Exercise, value: number, language: WorkbenchLanguage): boolean {
  if (!Number.isFinite(value) || sameNumber(value, exercise.answer)) return false;
  // A wrong answer nobody would pick is no distractor (the checker's implausible_distractor rule).
  if (exercise.answer !== 0 && value !== 0 && (Math.abs(value / exercise.answer) > 20 || Math.abs(value / exercise.answer) < 1 / 20))
    return false;
  if (value <= 0 && exercise.answer > 0 && exercise.generator !== 'math.equations') return false;
  if (exercise.whole && !Number.isInteger(value)) return false;
  return exercise.show(value, language) !== exercise.show(exercise.answer, language);
}

/**
 * Every wrong answer the exercise can offer, the typical mistakes first, then
 * near misses on the answer's own scale (±1 for whole answers, a fraction of
 * it for small ones), each shown once.
 */
function candidateMistakes(exercise: Exercise, language: WorkbenchLanguage): Mistake[] {
  const kept: Mistake[] = [];
  const add = (mistake: Mistake) => {
    if (!usable(exercise, mistake.value, language)) return;
    if (kept.some((other) => exercise.show(other.value, language) === exercise.show(mistake.value, language))) return;
    kept.push(mistake);
  };
  for (const mistake of exercise.mistakes) add(mistake);
  const typical = kept.length;
  for (let step = 1; kept.length < typical + 2 || kept.length < 4; step++) {
    if (step > 50) break;
    const delta = Math.abs(exercise.answer) >= 1 ? step : (Math.abs(exercise.answer) || 1) * step * 0.5;
    for (const value of [exercise.answer + delta, exercise.answer - delta])
      add({ value, why: { ja: '計算の誤り', en: 'an arithmetic slip' } });
  }
  return kept;
}

/**
 * How a problem's three wrong choices are picked: `typical` the first three
 * typical mistakes; `closest` the three nearest the answer (harder to tell
 * apart); a number, the next set along (different distractors).
 */
export type DistractorChoice = 'typical' | 'closest' | number;

function chooseMistakes(exercise: Exercise, language: WorkbenchLanguage, choice: DistractorChoice): Mistake[] {
  const candidates = candidateMistakes(exercise, language);
  if (choice === 'typical' || candidates.length <= 3) return candidates.slice(0, 3);
  if (choice === 'closest') {
    const distance = (value: number) =>
      Math.abs(Math.log(Math.abs(value) + 1e-9) - Math.log(Math.abs(exercise.answer) + 1e-9)) + (value < 0 ? 1 : 0);
    return [...candidates].sort((left, right) => distance(left.value) - distance(right.value)).slice(0, 3);
  }
  // The set `choice` steps along: each step swaps in the next candidate for the oldest one kept.
  const offset = choice % (candidates.length - 2);
  return candidates.slice(offset, offset + 3);
}

/** Builds a topic's exercise from its record, or null when the record does not make one. */
function exerciseOf(generator: string, params: MathParams): Exercise | null {
  const topic = mathTopicOf(generator);
  return topic ? TOPICS[topic].build(params) : null;
}

export type MathBuild = {
  generator: string;
  params: MathParams;
  type: 'multiple_choice' | 'written';
  language: WorkbenchLanguage;
  distractors?: DistractorChoice;
  /** `context`: the question set in an everyday scene (Exercise.context). */
  form?: 'context';
};

/** A problem's prompt as printed: bare, or in its everyday scene; the written form asks for the working too. */
function printedOf(exercise: Exercise, type: 'multiple_choice' | 'written', form?: 'context'): { ja: string; en: string } {
  if (form === 'context' && exercise.context)
    return type === 'written'
      ? { ja: `${exercise.context.ja}式を書いて求めなさい。`, en: `${exercise.context.en} Show your working.` }
      : exercise.context;
  return type === 'written' ? exercise.written : exercise.prompt;
}

/** Whether a record's problem can be set in an everyday scene (speed problems, and sums shared in a ratio, already are). */
export function mathContextOf(generator: string, params: MathParams): boolean {
  return exerciseOf(generator, params)?.context !== undefined;
}

/**
 * A problem built from its record: the same record, type and distractor
 * choice give the same problem (the answer's place among the choices is
 * seeded by the record), so a problem translated keeps its choices' order.
 */
export function buildMathProblem(build: MathBuild): GeneratedProblem | null {
  const exercise = exerciseOf(build.generator, build.params);
  if (!exercise) return null;
  return build.type === 'written'
    ? writtenProblem(exercise, build.language, build.form)
    : choiceProblem(exercise, build.language, build.distractors ?? 'typical', build.form);
}

/** The answer of a problem built from this record, or null (a record that makes no problem). */
export function mathAnswerOf(generator: string, params: MathParams): number | null {
  return exerciseOf(generator, params)?.answer ?? null;
}

/** One problem drawn afresh on a topic at a level, or null when the draws keep failing. */
export function drawMathProblem(
  input: { topic: MathTopic; difficulty: Difficulty; type: 'multiple_choice' | 'written'; language: WorkbenchLanguage },
  random: Random,
  accept: (problem: GeneratedProblem) => boolean = () => true,
): GeneratedProblem | null {
  for (let attempt = 0; attempt < 40; attempt++) {
    const params = TOPICS[input.topic].draw(random, input.difficulty);
    const exercise = TOPICS[input.topic].build(params);
    if (!exercise) continue;
    const problem =
      input.type === 'written' ? writtenProblem(exercise, input.language) : choiceProblem(exercise, input.language, 'typical');
    if (problem && accept(problem)) return problem;
  }
  return null;
}

export function generateMathProblems(input: GeneratorInput & { topic?: string | null }, random: Random): GeneratedProblem[] {
  const topics = mathTopics(input.topic);
  const problems: GeneratedProblem[] = [];
  const seen = new Set<string>();
  // Topics in turn, from a seeded start, so a worksheet of ten covers every topic it may.
  const start = Math.floor(random() * topics.length);
  for (let attempt = 0; problems.length < input.count && attempt < input.count * 20; attempt++) {
    const topic = topics[(start + problems.length) % topics.length]!;
    const params = TOPICS[topic].draw(random, input.difficulty);
    const exercise = TOPICS[topic].build(params);
    if (!exercise) continue;
    // No two problems of a sheet ask the same thing (the same record, or the same prompt).
    const key = recordKey(exercise);
    if (seen.has(key) || seen.has(exercise.prompt.en) || input.exclude?.has(key)) continue;
    const problem =
      input.type === 'written' ? writtenProblem(exercise, input.language) : choiceProblem(exercise, input.language, 'typical');
    if (!problem) continue;
    seen.add(key);
    seen.add(exercise.prompt.en);
    problems.push(problem);
  }
  return problems;
}

function choiceProblem(
  exercise: Exercise,
  lang: WorkbenchLanguage,
  distractors: DistractorChoice,
  form?: 'context',
): GeneratedProblem | null {
  const mistakes = chooseMistakes(exercise, lang, distractors);
  if (mistakes.length < 3) return null;
  const { choices, correctIndex } = placeAnswer(
    exercise.show(exercise.answer, lang),
    mistakes.map((mistake) => exercise.show(mistake.value, lang)),
    seededRandom(`${exercise.generator}:${JSON.stringify(exercise.params)}`),
  );
  const first = mistakes[0]!;
  const explanation =
    lang === 'ja'
      ? `${exercise.working}。答えは ${exercise.show(exercise.answer, lang)} です。${exercise.show(first.value, lang)} は${first.why.ja}です。`
      : `${exercise.working}, so the answer is ${exercise.show(exercise.answer, lang)}. ${exercise.show(first.value, lang)} comes from ${first.why.en}.`;
  return multipleChoice({
    prompt: printedOf(exercise, 'multiple_choice', form)[lang],
    choices,
    correctChoiceIndex: correctIndex,
    explanation,
    source: {
      generator: exercise.generator,
      params: exercise.params,
      ...(distractors !== 'typical' ? { variant: distractors } : {}),
      ...(form && exercise.context ? { form } : {}),
    },
  });
}

function writtenProblem(exercise: Exercise, lang: WorkbenchLanguage, form?: 'context'): GeneratedProblem {
  const percent = exercise.generator === 'math.percentages';
  const base = num(exercise.params, 'base');
  const answerText = percent
    ? lang === 'ja'
      ? `値引き額 ${formatNumber(exercise.answer)}円、支払額 ${formatNumber(base - exercise.answer)}円`
      : `discount ${formatNumber(exercise.answer)} dollars; you pay ${formatNumber(base - exercise.answer)} dollars`
    : exercise.generator === 'math.ratio' && exercise.params.kind === 'share'
      ? lang === 'ja'
        ? `兄 ${formatNumber(exercise.answer)}個、弟 ${formatNumber(num(exercise.params, 'total') - exercise.answer)}個`
        : `Ann ${formatNumber(exercise.answer)}, Ben ${formatNumber(num(exercise.params, 'total') - exercise.answer)}`
      : exercise.show(exercise.answer, lang);
  return {
    type: 'written',
    prompt: printedOf(exercise, 'written', form)[lang],
    choices: null,
    correctChoiceIndex: null,
    modelAnswer: `${exercise.working}${lang === 'ja' ? '。答え: ' : '. Answer: '}${answerText}`,
    rubric: exercise.rubric[lang],
    explanation:
      lang === 'ja'
        ? `${exercise.working}。よくある誤りは${exercise.mistakes[0]!.why.ja}です。`
        : `${exercise.working}. A common mistake is ${exercise.mistakes[0]!.why.en}.`,
    source: { generator: exercise.generator, params: exercise.params, ...(form && exercise.context ? { form } : {}) },
  };
}

const PRINTED_NUMBER = /\d+(?:\.\d+)?/g;
const skeletonOf = (text: string) => text.normalize('NFKC').replace(PRINTED_NUMBER, '#').replace(/\s+/g, ' ').trim();

/**
 * The record of a problem whose prompt a teacher edited, when the prompt
 * still reads as the generator printed it with other numbers ("40% of 90"
 * made "35% of 90"): each printed number is mapped back to the input it
 * printed, and the record takes the new values. Null when the prompt reads
 * otherwise (rewritten freely), or the new numbers make no problem.
 */
export function paramsFromPrompt(
  generator: string,
  params: MathParams,
  prompt: string,
  type: 'multiple_choice' | 'written',
  form?: 'context',
): MathParams | null {
  const exercise = exerciseOf(generator, params);
  if (!exercise) return null;
  const edited = prompt.normalize('NFKC');
  const numbersIn = (text: string) => [...text.normalize('NFKC').matchAll(PRINTED_NUMBER)].map((match) => Number(match[0]));
  const printedForms = printedOf(exercise, type, form);
  for (const language of ['ja', 'en'] as const) {
    const printed = printedForms[language];
    if (skeletonOf(printed) !== skeletonOf(edited)) continue;
    const [before, after] = [numbersIn(printed), numbersIn(edited)];
    const next: MathParams = { ...params };
    const assigned = new Set<string>();
    for (const [index, value] of before.entries()) {
      // Each printed number belongs to the first input of that value not yet placed (inputs print in their order).
      const key = Object.keys(params).find(
        (name) => typeof params[name] === 'number' && Math.abs(params[name]) === value && !assigned.has(name),
      );
      if (!key) {
        // A number the prompt prints that is no input (a constant such as π's 3.14): it must stay as it was.
        if (after[index] !== value) return null;
        continue;
      }
      assigned.add(key);
      next[key] = (params[key] as number) < 0 ? -after[index]! : after[index]!;
    }
    // The new inputs must print exactly the numbers typed (an input printed twice, or a wrong placement, would not).
    const rebuilt = exerciseOf(generator, next);
    const again = rebuilt && printedOf(rebuilt, type, form)[language];
    return again && numbersIn(again).join() === after.join() ? rebuilt.params : null;
  }
  return null;
}
