/**
 * Matching runs on a normal form of the text (full-width letters folded,
 * curly quotes straightened) but every hit must point into the original text,
 * so that masking cuts the right characters. This keeps the two in step.
 */

/** A normalized text and, for each of its UTF-16 units, the span of the original it came from. */
export type MappedText = { text: string; start: number[]; end: number[] };

const QUOTES: Readonly<Record<string, string>> = { '‘': "'", '’': "'", '‛': "'", '`': "'", '´': "'", '“': '"', '”': '"', '„': '"' };
const COMBINING_SOUND_MARK = /^[\u3099\u309A]$/;

/**
 * NFKC per code point (so "ｆｏｏ" reads "foo" and "ｶﾞ" reads "ガ"), quotes
 * made straight; case and spacing are kept, patterns carry their own flags.
 */
export function normalizeWithMap(original: string): MappedText {
  let text = '';
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  for (const cp of original) {
    const from = i;
    i += cp.length;
    const normalized = [...cp.normalize('NFKC')].map((char) => QUOTES[char] ?? char).join('');
    // A half-width dakuten becomes a combining mark: join it to the kana before it.
    if (COMBINING_SOUND_MARK.test(normalized) && text.length > 0) {
      const composed = (text.slice(-1) + normalized).normalize('NFC');
      if (composed.length === 1) {
        text = text.slice(0, -1) + composed;
        end[end.length - 1] = i;
        continue;
      }
    }
    for (let k = 0; k < normalized.length; k++) {
      start.push(from);
      end.push(i);
    }
    text += normalized;
  }
  return { text, start, end };
}

/** The original span of normalized [from, to). */
export function originalSpan(mapped: MappedText, from: number, to: number): { start: number; end: number } {
  const start = mapped.start[from] ?? mapped.end.at(-1) ?? 0;
  const end = to > from ? (mapped.end[to - 1] ?? start) : start;
  return { start: start, end: end };
}
