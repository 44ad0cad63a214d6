import { checkTextBudget } from '@convo/text';
import { formatNumber, normalizeNumerals } from './numbers.js';

/**
 * Solves the arithmetic a prompt asks for, whoever wrote it: a linear
 * equation, "p% of n", "what percent", the area of a rectangle, square,
 * triangle or circle, or a plain expression with fractions. Null when the
 * prompt asks something else: the checker then relies on the other rules.
 */
export type Solution = {
  /** `record`: not read from the prompt but computed from the generator's record of the numbers it printed. */
  kind: 'equation' | 'percent_of' | 'percent_ratio' | 'area' | 'speed' | 'expression' | 'record';
  value: number;
  /** Circle areas: the value with π ≈ 3.14 as well, either is accepted. */
  alternatives: number[];
  /** The operands the prompt gave, for the number-agreement check. */
  operands: number[];
  /** The computation as a line of the explanation. */
  working: string;
  /** A unit conversion: the unit asked for and its dimension (a model answer must give the value in it, not in a mass for a volume). */
  unit?: { name: string; dimension: string };
};

export function solvePrompt(prompt: string): Solution | null {
  const asked = withoutQuotedProse(prompt);
  const text = normalizeNumerals(asked);
  return (
    solveEquation(text) ??
    solvePercent(text) ??
    solveSpeed(text) ??
    solveArea(text) ??
    solveConversion(text) ??
    solveExpression(text, asked)
  );
}

/**
 * The prompt without the prose it quotes: a definition, a sentence or a
 * passage in double quotes (“a period of time equal to 1/24th of a day”) is
 * what the question is about, not a sum it asks for. A quoted expression
 * ("Calculate “3/4 + 1/8”") has no words and stays.
 */
function withoutQuotedProse(prompt: string): string {
  return prompt.replace(/“[^“”]*”|"[^"]*"/g, (quoted) => ((quoted.match(/[A-Za-z]{2,}/g)?.length ?? 0) >= 3 ? '“”' : quoted));
}

// --- linear expressions: value = coefficient·x + constant ---

type Linear = { coefficient: number; constant: number };

function parseLinear(source: string): Linear | null {
  const tokens = source.match(/\d+(?:\.\d+)?|[a-z]|[-+*/()]/gi);
  if (!tokens || tokens.join('').length === 0) return null;
  let position = 0;
  const peek = () => tokens[position];
  const next = () => tokens[position++];

  function primary(): Linear | null {
    const token = next();
    if (token === undefined) return null;
    if (token === '(') {
      const inner = sum();
      if (next() !== ')') return null;
      return inner;
    }
    if (token === '-') {
      const operand = primary();
      return operand && { coefficient: -operand.coefficient, constant: -operand.constant };
    }
    if (/^\d/.test(token)) {
      const number: Linear = { coefficient: 0, constant: Number(token) };
      // Implicit multiplication: "3x", "2(x + 1)".
      if (peek() !== undefined && (/^[a-z]$/i.test(peek()!) || peek() === '(')) return multiply(number, primary());
      return number;
    }
    if (/^[a-z]$/i.test(token)) return { coefficient: 1, constant: 0 };
    return null;
  }

  function product(): Linear | null {
    let left = primary();
    while (left && (peek() === '*' || peek() === '/')) {
      const operator = next();
      const right = primary();
      left = operator === '*' ? multiply(left, right) : divide(left, right);
    }
    return left;
  }

  function sum(): Linear | null {
    let left = product();
    while (left && (peek() === '+' || peek() === '-')) {
      const operator = next();
      const right = product();
      if (!right) return null;
      left =
        operator === '+'
          ? { coefficient: left.coefficient + right.coefficient, constant: left.constant + right.constant }
          : { coefficient: left.coefficient - right.coefficient, constant: left.constant - right.constant };
    }
    return left;
  }

  const result = sum();
  return result && position === tokens.length ? result : null;
}

function multiply(left: Linear | null, right: Linear | null): Linear | null {
  if (!left || !right) return null;
  if (left.coefficient !== 0 && right.coefficient !== 0) return null;
  return {
    coefficient: left.coefficient * right.constant + right.coefficient * left.constant,
    constant: left.constant * right.constant,
  };
}

function divide(left: Linear | null, right: Linear | null): Linear | null {
  if (!left || !right || right.coefficient !== 0 || right.constant === 0) return null;
  return { coefficient: left.coefficient / right.constant, constant: left.constant / right.constant };
}

function numbersOf(text: string): number[] {
  return [...text.matchAll(/\d+(?:\.\d+)?/g)].map((match) => Number(match[0]));
}

function solveEquation(text: string): Solution | null {
  // Words are not variables: "If 4x = 24, what is x?" keeps only "4x = 24".
  const symbols = text.replace(/[a-z]{2,}/gi, '|').replace(/(^|[^a-z\d])[a-z](?=[^a-z\d(]*$)/gi, '$1|');
  // The left side is a whole run of these characters with a letter in it: read from the run's start (the lookbehind),
  // the letter found by a lookahead over non-letters, so neither a long run nor its letters are retried.
  const match = /(?<![-\d\s.()a-z+*/])((?=[-\d\s.()+*/]*[a-z])[-\d\s.()a-z+*/]+)=([-\d\s.()a-z+*/]+)/i.exec(symbols);
  if (!match) return null;
  const variables = new Set((match[1]! + match[2]!).match(/[a-z]/gi) ?? []);
  if (variables.size !== 1) return null;
  const leftText = match[1]!.trim().replace(/^[^-\d(a-z]+/i, '');
  const rightText = match[2]!.trim().replace(/(?<![^\d)a-z])[^\d)a-z]+$/i, '');
  const left = parseLinear(leftText.replace(/\s+/g, ''));
  const right = parseLinear(rightText.replace(/\s+/g, ''));
  if (!left || !right) return null;
  const coefficient = left.coefficient - right.coefficient;
  if (coefficient === 0) return null;
  const value = (right.constant - left.constant) / coefficient;
  const variable = [...variables][0]!;
  return {
    kind: 'equation',
    value,
    alternatives: [],
    operands: numbersOf(match[0]),
    working: `${leftText} = ${rightText} → ${variable} = ${trim(value)}`,
  };
}

function solvePercent(text: string): Solution | null {
  // Each number is read from its first digit (the lookbehinds): tried from every digit of a long row, these were quadratic.
  const of = /(?<!\d)(\d+(?:\.\d+)?)\s*(?:%|パーセント)\s*(?:of|の)\s*(?:[^\d]{0,12}?)(\d+(?:\.\d+)?)/i.exec(text);
  const ofJa = /(?<!\d)(\d+(?:\.\d+)?)\s*[^\d\s%]{0,4}の\s*(\d+(?:\.\d+)?)\s*(?:%|パーセント)/.exec(text);
  if (of || ofJa) {
    const [percent, base] = of ? [Number(of[1]), Number(of[2])] : [Number(ofJa![2]), Number(ofJa![1])];
    const value = (percent * base) / 100;
    return {
      kind: 'percent_of',
      value,
      alternatives: [],
      operands: [percent, base],
      working: `${trim(base)} × ${trim(percent)}/100 = ${trim(value)}`,
    };
  }
  const ratio = /(?<!\d)(\d+(?:\.\d+)?)\s*(?:is what percent of|は)\s*(\d+(?:\.\d+)?)\s*(?:\?|の何\s*(?:%|パーセント))/i.exec(text);
  if (ratio) {
    const [part, whole] = [Number(ratio[1]), Number(ratio[2])];
    if (whole === 0) return null;
    const value = (part / whole) * 100;
    return {
      kind: 'percent_ratio',
      value,
      alternatives: [],
      operands: [part, whole],
      working: `${trim(part)} ÷ ${trim(whole)} × 100 = ${trim(value)}%`,
    };
  }
  return null;
}

function solveArea(text: string): Solution | null {
  if (/perimeter|circumference|周りの長さ|まわりの長さ|周の長さ|円周の長さ/i.test(text)) return solvePerimeter(text);
  if (!/area|面積/i.test(text)) return null;
  // The area given and a side asked ("an area of 1.82 m² … how long is it?") is no area to work out.
  if (/面積(?:が|は)\s*\d|area (?:of|is)\s*\d/i.test(text)) return null;
  const numbers = numbersOf(text);
  const labelled = (pattern: RegExp) => {
    const found = pattern.exec(text);
    return found ? Number(found[1]) : null;
  };
  // Shapes named by their noun or adjective ("a triangular flag"); a radius or diameter makes a circle ("a round coaster").
  if (
    /circle|circular|円(?!周)|radius|diameter|半径|直径/i.test(text) &&
    !/長方形|三角形|rectangle|rectangular|triangle|triangular/i.test(text)
  ) {
    const diameter = labelled(/(?:diameter|直径)\D{0,10}?(\d+(?:\.\d+)?)/i);
    const radius = labelled(/(?:radius|半径)\D{0,10}?(\d+(?:\.\d+)?)/i) ?? (diameter !== null ? diameter / 2 : null);
    if (radius === null) return null;
    const value = Math.PI * radius * radius;
    return {
      kind: 'area',
      value,
      alternatives: [3.14 * radius * radius],
      operands: diameter !== null ? [diameter] : [radius],
      working: `π × ${trim(radius)}² ≈ ${trim(3.14 * radius * radius)}`,
    };
  }
  if (/triangle|triangular|三角形/i.test(text)) {
    const base = labelled(/(?:base|底辺)\D{0,10}?(\d+(?:\.\d+)?)/i) ?? numbers[0];
    const height = labelled(/(?:height|高さ)\D{0,10}?(\d+(?:\.\d+)?)/i) ?? numbers[1];
    if (base === undefined || height === undefined) return null;
    const value = (base * height) / 2;
    return {
      kind: 'area',
      value,
      alternatives: [],
      operands: [base, height],
      working: `${trim(base)} × ${trim(height)} ÷ 2 = ${trim(value)}`,
    };
  }
  if (/square|正方形/i.test(text) && numbers.length >= 1) {
    const side = labelled(/(?:side|辺)\D{0,6}?(\d+(?:\.\d+)?)/i) ?? numbers[0]!;
    return {
      kind: 'area',
      value: side * side,
      alternatives: [],
      operands: [side],
      working: `${trim(side)} × ${trim(side)} = ${trim(side * side)}`,
    };
  }
  if (
    (/rectangle|長方形|long|wide|縦|横|by/i.test(text) || numbersOf(text.replace(/m²|cm²|m2|cm2/g, '')).length === 2) &&
    numbers.length >= 2
  ) {
    const [width, height] = [numbers[0]!, numbers[1]!];
    return {
      kind: 'area',
      value: width * height,
      alternatives: [],
      operands: [width, height],
      working: `${trim(width)} × ${trim(height)} = ${trim(width * height)}`,
    };
  }
  return null;
}

function solvePerimeter(text: string): Solution | null {
  const numbers = numbersOf(text);
  const labelled = (pattern: RegExp) => {
    const found = pattern.exec(text);
    return found ? Number(found[1]) : null;
  };
  if (/circle|円/i.test(text)) {
    const diameter = labelled(/(?:diameter|直径)\D{0,10}?(\d+(?:\.\d+)?)/i);
    const radius = labelled(/(?:radius|半径)\D{0,10}?(\d+(?:\.\d+)?)/i) ?? (diameter !== null ? diameter / 2 : null);
    if (radius === null) return null;
    return {
      kind: 'area',
      value: 2 * Math.PI * radius,
      alternatives: [2 * 3.14 * radius],
      operands: diameter !== null ? [diameter] : [radius],
      working: `2 × 3.14 × ${trim(radius)} = ${trim(2 * 3.14 * radius)}`,
    };
  }
  if (/square|正方形/i.test(text) && numbers.length >= 1) {
    const side = labelled(/(?:side|辺)\D{0,6}?(\d+(?:\.\d+)?)/i) ?? numbers[0]!;
    return { kind: 'area', value: 4 * side, alternatives: [], operands: [side], working: `${trim(side)} × 4 = ${trim(4 * side)}` };
  }
  if (/triangle|triangular|三角形/i.test(text) && numbers.length === 3) {
    const value = numbers[0]! + numbers[1]! + numbers[2]!;
    return { kind: 'area', value, alternatives: [], operands: numbers, working: `${numbers.join(' + ')} = ${trim(value)}` };
  }
  if (numbers.length === 2) {
    const [width, height] = [numbers[0]!, numbers[1]!];
    return {
      kind: 'area',
      value: 2 * (width + height),
      alternatives: [],
      operands: [width, height],
      working: `(${trim(width)} + ${trim(height)}) × 2 = ${trim(2 * (width + height))}`,
    };
  }
  return null;
}

/** Units a conversion prompt may name, in a base unit per dimension. */
const UNITS: Record<string, { dimension: string; factor: number }> = {
  mm: { dimension: 'length', factor: 0.001 },
  cm: { dimension: 'length', factor: 0.01 },
  m: { dimension: 'length', factor: 1 },
  km: { dimension: 'length', factor: 1000 },
  ミリメートル: { dimension: 'length', factor: 0.001 },
  センチメートル: { dimension: 'length', factor: 0.01 },
  メートル: { dimension: 'length', factor: 1 },
  キロメートル: { dimension: 'length', factor: 1000 },
  mg: { dimension: 'mass', factor: 0.001 },
  g: { dimension: 'mass', factor: 1 },
  kg: { dimension: 'mass', factor: 1000 },
  t: { dimension: 'mass', factor: 1e6 },
  グラム: { dimension: 'mass', factor: 1 },
  キログラム: { dimension: 'mass', factor: 1000 },
  ml: { dimension: 'volume', factor: 0.001 },
  dl: { dimension: 'volume', factor: 0.1 },
  l: { dimension: 'volume', factor: 1 },
  ミリリットル: { dimension: 'volume', factor: 0.001 },
  デシリットル: { dimension: 'volume', factor: 0.1 },
  リットル: { dimension: 'volume', factor: 1 },
  seconds: { dimension: 'time', factor: 1 },
  minutes: { dimension: 'time', factor: 60 },
  hours: { dimension: 'time', factor: 3600 },
  秒: { dimension: 'time', factor: 1 },
  分: { dimension: 'time', factor: 60 },
  時間: { dimension: 'time', factor: 3600 },
};
const UNIT_NAMES = Object.keys(UNITS)
  .sort((left, right) => right.length - left.length)
  .join('|');

// --- speed, distance and time ---

const N = String.raw`(?<![\d.])(\d+(?:\.\d+)?)`;
/** A speed: 時速60km, 分速80 m, 60 km/h, 60 kilometres per hour, 30 mph; per hour, minute or second. */
const SPEED = new RegExp(
  String.raw`(?:(時速|分速|秒速)\s*${N}\s*(km|m|キロメートル|メートル|キロ)|${N}\s*(km|m|miles?|kilomet(?:er|re)s?|met(?:er|re)s?)\s*(?:/|per\s+|an\s+|a\s+)(h|hour|hr|min|minute|s|sec|second)\b|${N}\s*(mph|kph))`,
  'i',
);
/** A time: 2時間30分, 2時間, 40分, 2 hours 30 minutes, 2.5 hours, 45 minutes. */
const TIME = new RegExp(
  String.raw`${N}\s*(?:時間|hours?|hrs?)(?:\s*(?:and\s*)?${N}\s*(?:分|minutes?|mins?))?|${N}\s*(?:分間?|minutes?|mins?)(?![a-z])`,
  'i',
);
/** A distance: 120 km, 800 m, 30 miles — not a speed's (followed by /h, per, …; a 時速 speed is taken out of the text first). */
const DISTANCE = new RegExp(
  String.raw`${N}\s*(km|キロメートル|miles?|kilomet(?:er|re)s?|m|メートル|met(?:er|re)s?)(?![a-z/]|\s*(?:/|per\b|an hour|a minute))`,
  'i',
);
const ASKS_DISTANCE =
  /何\s*(km|m|キロ|メートル)(?:進|走|歩|あ|です|になり)|道のり(?:は|を求)|how far|what distance|how many (km|kilomet|miles|met)/i;
const ASKS_TIME = /何時間|何分|how long|how many (?:hours|minutes)|時間は/i;
const ASKS_SPEED =
  /(時速|分速|秒速)\s*何\s*(km|m|キロ|メートル)?|速さ(?:は|を求)|what (?:is|was) (?:the|its|his|her|their)?\s*(?:average )?speed|how fast/i;

/** Per hour: a speed's rate in its unit of distance per hour. */
function perHour(unit: string): number {
  return /^(?:分速|min|minute)/i.test(unit) ? 60 : /^(?:秒速|s|sec|second)/i.test(unit) ? 3600 : 1;
}

/** A unit of length as one name: km, m or mile (undefined stays undefined). */
function lengthUnit(unit: string | undefined): string | undefined {
  if (!unit) return undefined;
  if (/^(?:km|kph|キロ|kilomet)/i.test(unit)) return 'km';
  if (/^(?:mile|mph)/i.test(unit)) return 'mile';
  return 'm';
}

const hoursOf = (time: RegExpExecArray): number => (time[1] ? Number(time[1]) + Number(time[2] ?? 0) / 60 : Number(time[3]) / 60);
const timeOperands = (time: RegExpExecArray | null): number[] => (time ? [time[1], time[2], time[3]].filter(Boolean).map(Number) : []);

/**
 * Speed, distance and time: 「時速60kmの車が2時間30分走りました。何km進みましたか」,
 * "How many hours does it take to travel 270 km at 45 km/h?", 「120kmを2時間で
 * 進みました。時速何kmですか」. Two of the three are given, the third asked; a
 * time in hours and minutes is read as hours (2時間30分 = 2.5), and the answer
 * is in the prompt's units (a time in hours, or minutes when it asks 何分).
 * Lengths in two units (a speed in km/h, a distance asked in m) are not
 * converted: such a prompt is not solved, rather than solved wrong.
 */
function solveSpeed(text: string): Solution | null {
  const asksSpeed = ASKS_SPEED.exec(text);
  const speed = SPEED.exec(asksSpeed ? text.replace(asksSpeed[0], ' ') : text);
  const time = TIME.exec(text);
  const distance = DISTANCE.exec(speed ? text.replace(speed[0], ' ') : text);
  const hours = time ? hoursOf(time) : null;
  if (!speed) {
    // The speed asked, from a distance and a time.
    if (!asksSpeed || !distance || hours === null || !(hours > 0)) return null;
    if (asksSpeed[2] && lengthUnit(asksSpeed[2]) !== lengthUnit(distance[2])) return null;
    const value = Number(distance[1]) / hours / (asksSpeed[1] ? perHour(asksSpeed[1]) : 1);
    const operands = [Number(distance[1]), ...timeOperands(time)];
    return { kind: 'speed', value, alternatives: [], operands, working: `${distance[1]} ÷ ${trim(hours)} = ${trim(value)}` };
  }
  const rate = Number(speed[2] ?? speed[4] ?? speed[7]);
  const unit = lengthUnit(speed[3] ?? speed[5] ?? speed[8]);
  const hourly = speed[1] ? perHour(speed[1]) : speed[6] ? perHour(speed[6]) : 1;
  const operands = [rate, ...timeOperands(time), ...(distance ? [Number(distance[1])] : [])];
  const asksDistance = ASKS_DISTANCE.exec(text);
  if (asksDistance && hours !== null) {
    if (lengthUnit(asksDistance[1] ?? asksDistance[2]) !== undefined && lengthUnit(asksDistance[1] ?? asksDistance[2]) !== unit)
      return null;
    const value = rate * hourly * hours;
    return { kind: 'speed', value, alternatives: [], operands, working: `${trim(rate)} × ${trim(hours * hourly)} = ${trim(value)}` };
  }
  if (ASKS_TIME.test(text) && distance) {
    if (lengthUnit(distance[2]) !== unit) return null;
    const inHours = Number(distance[1]) / (rate * hourly);
    const minutes = /何分|how many minutes/i.test(text) && !/何時間|how many hours/i.test(text);
    const value = minutes ? inHours * 60 : inHours;
    return { kind: 'speed', value, alternatives: [], operands, working: `${distance[1]} ÷ ${trim(rate)} = ${trim(value)}` };
  }
  return null;
}

/** "Convert 2.75 L to mL", 「2.75 L は何 mL ですか」: the quantity in the unit asked for. */
function solveConversion(text: string): Solution | null {
  const lowered = lowerUnits(text);
  const match = new RegExp(
    String.raw`(?<!\d)(\d+(?:\.\d+)?)\s*(${UNIT_NAMES})(?![a-z])[^\d]{0,30}?(?:to|into|in|は何|は|を)\s*(?:何\s*)?(${UNIT_NAMES})(?![a-z])`,
    'i',
  ).exec(lowered);
  if (!match) return null;
  const from = UNITS[match[2]!.toLowerCase()] ?? UNITS[match[2]!];
  const to = UNITS[match[3]!.toLowerCase()] ?? UNITS[match[3]!];
  if (!from || !to || from.dimension !== to.dimension || from === to) return null;
  const amount = Number(match[1]);
  const value = (amount * from.factor) / to.factor;
  return {
    kind: 'expression',
    value,
    alternatives: [],
    operands: [amount],
    working: `${trim(amount)} ${match[2]} = ${trim(value)} ${match[3]}`,
    unit: { name: match[3]!, dimension: to.dimension },
  };
}

/** A number and the unit written right after it (built once: the checker runs it on every written problem). */
const NUMBER_AND_UNIT = new RegExp(String.raw`(?<![\d.])(\d+(?:\.\d+)?)\s*(${UNIT_NAMES})(?![a-z])`, 'gi');

/** Lower-case unit spellings as the conversion reader writes them ("litres" → l, "millilitres" → ml). */
function lowerUnits(text: string): string {
  return text
    .replace(/litres?|liters?/gi, 'l')
    .replace(/millil/gi, 'ml')
    .replace(/kilograms?/gi, 'kg')
    .replace(/grams?/gi, 'g')
    .replace(/kilometres?|kilometers?/gi, 'km')
    .replace(/centimetres?|centimeters?/gi, 'cm')
    .replace(/metres?|meters?/gi, 'm');
}

/**
 * The dimensions (length, mass, volume, time) of the units a text writes right
 * after the number `value` ("2750 g" → mass); empty when it writes none.
 */
export function dimensionsAfter(text: string, value: number): string[] {
  const found: string[] = [];
  for (const match of lowerUnits(normalizeNumerals(text)).matchAll(NUMBER_AND_UNIT)) {
    const unit = UNITS[match[2]!.toLowerCase()] ?? UNITS[match[2]!];
    if (unit && Math.abs(Number(match[1]) - value) < 1e-9 * Math.max(1, Math.abs(value))) found.push(unit.dimension);
  }
  return found;
}

function solveExpression(text: string, original: string): Solution | null {
  const share = /(?<!\d)(?:(\d+)\s*\/\s*(\d+)\s*(?:of|の)\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*の\s*(\d+)\s*\/\s*(\d+))/i.exec(text);
  if (share) {
    const [numerator, denominator, whole] = share[1]
      ? [Number(share[1]), Number(share[2]), Number(share[3])]
      : [Number(share[5]), Number(share[6]), Number(share[4])];
    if (denominator === 0) return null;
    const value = (whole * numerator) / denominator;
    return {
      kind: 'expression',
      value,
      alternatives: [],
      operands: [numerator, denominator, whole],
      working: `${trim(whole)} × ${numerator}/${denominator} = ${trim(value)}`,
    };
  }
  // A fraction binds tighter than ÷ and ×: "2/3 ÷ 4/9" is (2/3) ÷ (4/9), "1 1/2" is 1 + 1/2.
  const grouped = normalizeNumerals(original, { keepOperators: true })
    .replace(/(?<!\d)(\d+)\s+(\d+)\s*\/\s*(\d+)/g, '($1+$2/$3)')
    .replace(/(?<![(+\d])(\d+)\s*\/\s*(\d+)/g, '($1/$2)')
    .replace(/×/g, '*')
    .replace(/÷/g, '/');
  const candidates = arithmeticStretches(grouped);
  const allNumbers = numbersOf(text).length;
  for (const candidate of candidates.sort((left, right) => right.length - left.length)) {
    if (!/\d\s*[-+*/]\s*[\d(]/.test(candidate)) continue;
    // The expression must be the whole of the prompt's arithmetic, not two numbers of a word problem.
    if (numbersOf(candidate).length !== allNumbers) continue;
    const parsed = parseLinear(candidate.replace(/\s+/g, ''));
    if (!parsed || parsed.coefficient !== 0) continue;
    const shown = candidate
      .trim()
      .replace(/\((\d+)\/(\d+)\)/g, '$1/$2')
      .replace(/\((\d+)\+(\d+)\/(\d+)\)/g, '$1 $2/$3')
      .replace(/\*/g, ' × ')
      .replace(/(\d)\s*\/\s*\(/g, '$1 ÷ (');
    // Fractions in, a fraction out: 8/9 + 3/4 = 59/36, not 1.639.
    const result = candidate.includes('/') ? formatNumber(parsed.constant, 'fraction') : trim(parsed.constant);
    return {
      kind: 'expression',
      value: parsed.constant,
      alternatives: [],
      operands: numbersOf(candidate),
      working: `${shown.replace(/\s+/g, ' ')} = ${result}`,
    };
  }
  return null;
}

/**
 * What `/[\d(][-\d\s.()+*\/]*[\d)]/g` matches, run by run: in each run of
 * digits, spaces and operators, from its first digit or "(" to its last digit
 * or ")". The regex looked for that end again from each "(" of a long row.
 */
function arithmeticStretches(text: string): string[] {
  const stretches: string[] = [];
  for (const [run] of text.matchAll(/[-\d\s.()+*/]+/g)) {
    checkTextBudget();
    const first = run.search(/[\d(]/);
    if (first < 0) continue;
    let last = run.length - 1;
    while (last > first && !/[\d)]/.test(run[last]!)) last--;
    if (last > first) stretches.push(run.slice(first, last + 1));
  }
  return stretches;
}

function trim(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1000) / 1000);
}
