/**
 * Clauses are the unit of masking: what is said about a prohibited topic is
 * usually the clause around the keyword ("I go to church every Sunday"),
 * while the next clause may be an answer the form needs.
 */

const SUBJECT = String.raw`(?:i|i'm|i've|i'd|i'll|we|we're|my|our|you|your|he|she|they|it|it's|this|that|there)`;
const CONJUNCTION = String.raw`(?:and|but|while|whereas|because|although|though|so)`;

const BOUNDARY = new RegExp(
  [
    // Sentence ends; ASCII ones only before a space, the end or non-ASCII text ("3.5", "example.com" hold).
    // (From the first mark of a run: tried from each mark of a long run, the search was quadratic.)
    String.raw`(?<![.!?])[.!?]+(?=\s|$|[^\x00-\x7F])`,
    '[。！？]+',
    String.raw`\n+`,
    // Clause separators; an ASCII comma only before a space ("1,000" holds).
    String.raw`[,;:](?=\s)`,
    '[、，；：]+',
    // A conjunction that starts a new clause with its own subject: the clause after begins at the conjunction.
    // (Tried from the first space of a run only. A run after a matched line break is then no boundary of its own,
    // which changes no clause: clauses are trimmed of the spaces around their boundaries.)
    String.raw`(?<!\s)\s+(?=${CONJUNCTION}\s+${SUBJECT}\b)`,
  ].join('|'),
  'gi',
);

/** The clauses of a text as [start, end) spans of the original, whitespace and separators excluded. */
export function clauseSpans(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  let from = 0;
  const push = (start: number, end: number) => {
    let first = start;
    let last = end;
    while (first < last && /\s/.test(text.charAt(first))) first++;
    while (last > first && /\s/.test(text.charAt(last - 1))) last--;
    if (last > first) spans.push({ start: first, end: last });
  };
  for (const match of text.matchAll(BOUNDARY)) {
    push(from, match.index);
    from = match.index + match[0].length;
  }
  push(from, text.length);
  return spans;
}

/** The sentences of a text (split at sentence punctuation and line breaks only), trimmed. */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/)
    .map((clause) => clause.trim())
    .filter((clause) => clause.length > 0);
}
