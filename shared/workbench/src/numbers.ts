import { checkTextBudget } from '@convo/text';

/**
 * Numbers as worksheets write them: "3/4", "1 1/2", "０．５", "75%", "x = 5",
 * "12 cm²", "25π". Values are compared with a relative tolerance, so 0.5 and
 * 1/2 are the same number and 78.5 (π ≈ 3.14) matches 78.54.
 */

export type Quantity = { value: number; percent: boolean; pi: boolean };

const MINUS = /[−–—－]/g;

/** NFKC, one kind of minus, no thousands separators between digits, and (unless kept) × ÷ as * /. */
export function normalizeNumerals(text: string, options: { keepOperators?: boolean } = {}): string {
  const plain = text
    .normalize('NFKC')
    .replace(MINUS, '-')
    .replace(/(\d),(?=\d{3}\b)/g, '$1');
  return options.keepOperators ? plain : plain.replace(/×/g, '*').replace(/÷/g, '/');
}

const NUMBER = String.raw`-?\d+(?:\.\d+)?`;
const QUANTITY = new RegExp(String.raw`(${NUMBER})(?:\s+(\d+)\s*/\s*(\d+)|\s*/\s*(\d+))?\s*(π|%|パーセント)?`, 'g');

/** Every number a text writes, in order (fractions and mixed numbers as one value). */
export function quantitiesIn(text: string): Quantity[] {
  const normalized = normalizeNumerals(text);
  const found: Quantity[] = [];
  for (const match of normalized.matchAll(QUANTITY)) {
    checkTextBudget();
    const [, whole, mixedNumerator, mixedDenominator, denominator, suffix] = match;
    let value = Number(whole);
    if (mixedNumerator && mixedDenominator)
      value = Math.sign(value || 1) * (Math.abs(value) + Number(mixedNumerator) / Number(mixedDenominator));
    else if (denominator) value = Number(denominator) === 0 ? Number.NaN : value / Number(denominator);
    if (!Number.isFinite(value)) continue;
    found.push({ value: suffix === 'π' ? value * Math.PI : value, percent: suffix === '%' || suffix === 'パーセント', pi: suffix === 'π' });
  }
  return found;
}

/** The one number a short answer ("x = 5", "12 cm²", "3/4") stands for; null when it has none or several. */
export function answerValue(text: string): number | null {
  // (One space before the exponent, not two in a row: `\s*\^?\s*` tried every split of a long run of spaces.)
  const withoutExponents = normalizeNumerals(text).replace(/(cm|m|km|mm)(?:\s*\^\s*[23]|\s*[23²³])/gi, '$1');
  const quantities = quantitiesIn(withoutExponents);
  if (quantities.length !== 1) return null;
  return quantities[0]!.value;
}

export function sameNumber(left: number, right: number): boolean {
  const scale = Math.max(1, Math.abs(left), Math.abs(right));
  return Math.abs(left - right) <= 1e-6 * scale;
}

/** Close enough for an answer computed with π ≈ 3.14 (or rounded to two places) against the exact value. */
export function closeNumber(left: number, right: number): boolean {
  if (sameNumber(left, right)) return true;
  const scale = Math.max(Math.abs(left), Math.abs(right));
  return scale > 0 && Math.abs(left - right) / scale <= 0.006;
}

/** A number written the way a worksheet would: integers plain, others as a reduced fraction when small, else two decimals. */
/** How texts write their numbers: as fractions when any of them writes one ("3/8", "1 / 4"), else as decimals. */
export function numberStyleOf(texts: readonly string[]): 'fraction' | 'decimal' {
  return texts.some((text) => /\d\s*\/\s*\d/.test(text)) ? 'fraction' : 'decimal';
}

export function formatNumber(value: number, style: 'fraction' | 'decimal' = 'decimal'): string {
  if (Number.isInteger(value)) return String(value);
  if (style === 'fraction') {
    const fraction = toFraction(value);
    if (fraction) return `${fraction.numerator}/${fraction.denominator}`;
  }
  return String(Math.round(value * 100) / 100);
}

export function toFraction(value: number, maxDenominator = 1000): { numerator: number; denominator: number } | null {
  for (let denominator = 1; denominator <= maxDenominator; denominator++) {
    const numerator = Math.round(value * denominator);
    if (sameNumber(numerator / denominator, value)) return { numerator, denominator };
  }
  return null;
}

export function gcd(left: number, right: number): number {
  let a = Math.abs(left);
  let b = Math.abs(right);
  while (b) [a, b] = [b, a % b];
  return a || 1;
}

const SPACE = /\s/;
const DIGIT = /[\d０-９]/;
const NUMERAL = /[\d０-９.,/．，／ ]/;

/**
 * The unit a quantity is written with ("12 cm²" → "cm²", "100 °C" → "°C", "30人" → "人"); null for a bare number or not a quantity.
 * On the text as written: NFKC would turn "²" into a digit.
 *
 * What `^\s*[-−]?\d[\d.,/ ]*?\s*(\D\D{0,7}?)\s*$` (full-width digits too) finds, as a
 * scan: the unit is the first place after the number, past its spaces, with
 * no digit from there on and at most eight characters before the trailing
 * spaces. The regex tried every split between number and spaces, so a long
 * row of them was quadratic.
 */
export function quantityUnit(text: string): string | null {
  const lead = /^\s*[-−]?[\d０-９]/.exec(text);
  if (!lead) return null;
  let lastDigit = text.length - 1;
  while (lastDigit >= 0 && !DIGIT.test(text[lastDigit]!)) lastDigit--;
  let last = text.length - 1;
  while (last >= 0 && SPACE.test(text[last]!)) last--;
  // `at` ends the number, `unit` is past the spaces after it; neither moves back, so the scan is linear.
  let unit = lead[0].length;
  for (let at = lead[0].length; ; at++) {
    if (unit < at) unit = at;
    while (unit < text.length && SPACE.test(text[unit]!)) unit++;
    if (unit < text.length && unit > lastDigit && last - unit <= 7) return text.slice(unit, last + 1);
    if (at >= text.length || !NUMERAL.test(text[at]!)) return null;
  }
}

/** The unit the choices (or a model answer) are written in: the first one any of them carries. */
export function unitOf(texts: readonly string[]): string | null {
  for (const text of texts) {
    const unit = quantityUnit(text);
    if (unit) return unit;
  }
  return null;
}
