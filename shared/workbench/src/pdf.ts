import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create as createFont, type Font } from 'fontkit';
import LineBreaker from 'linebreak';
import PDFDocument from 'pdfkit';
import { checkTextBudget, textBudgetMs, withinTextBudget } from '@convo/text';
import type { Problem, Worksheet, WorkbenchLanguage } from '@convo/contract';

/**
 * Worksheet PDFs for the problem workbench: a questions sheet for students to
 * write on (name and date, a box for each multiple-choice answer, lines for
 * each written one) and an answer key (correct choices, model answers,
 * rubrics, explanations).
 *
 * A4, drawn with pdfkit in Noto Sans JP (static TTFs shipped by the npm package
 * `@expo-google-fonts/noto-sans-jp`), which covers kana, the JIS kanji and Latin,
 * so one font serves both languages. pdfkit embeds only the glyphs a document
 * uses, so a sheet is tens of kilobytes although each font file is ~5 MB.
 */

export type WorksheetSheet = 'questions' | 'answers';

const requireFromHere = createRequire(import.meta.url);

const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
} as const;
type FontName = keyof typeof FONT_FILES;

/** The font files, read once per process (pdfkit parses and subsets them per document). */
const fontBytes = new Map<FontName, Buffer>();
function fontFile(name: FontName): Buffer {
  let bytes = fontBytes.get(name);
  if (!bytes) {
    bytes = readFileSync(requireFromHere.resolve(FONT_FILES[name]));
    fontBytes.set(name, bytes);
  }
  return bytes;
}

let coverageFonts: Font[] | undefined;
/**
 * The characters of `text` that the sheet's fonts have no glyph for (they would
 * print as empty boxes), each once, in order of first appearance. Whitespace
 * and control characters are not drawn, so they are never reported.
 */
export function findMissingGlyphs(text: string): string[] {
  coverageFonts ??= (Object.keys(FONT_FILES) as FontName[]).map((name) => {
    const font = createFont(fontFile(name));
    if (!('hasGlyphForCodePoint' in font)) throw new Error(`${FONT_FILES[name]} is a font collection`);
    return font;
  });
  const missing = new Set<string>();
  for (const char of text) {
    if (/[\s\p{Cc}\p{Cf}]/u.test(char)) continue;
    const codePoint = char.codePointAt(0)!;
    if (coverageFonts.some((font) => !font.hasGlyphForCodePoint(codePoint))) missing.add(char);
  }
  return [...missing];
}

// --- Labels ---

interface Labels {
  sheet: Record<WorksheetSheet, string>;
  difficulty: Record<Worksheet['difficulty'], string>;
  meta(worksheet: Worksheet): string;
  name: string;
  date: string;
  problem(index: number): string;
  type: Record<Problem['type'], string>;
  choice: readonly [string, string, string, string];
  /** Separates a choice's label from its text on the answers sheet. */
  choiceGap: string;
  answer: string;
  /** Beside the box a student writes the letter of their choice in, on the questions sheet. */
  yourAnswer: string;
  modelAnswer: string;
  rubric: string;
  bullet: string;
  explanation: string;
}

const LABELS: Record<WorkbenchLanguage, Labels> = {
  ja: {
    sheet: { questions: '問題', answers: '解答・解説' },
    difficulty: { easy: '易しい', normal: '標準', hard: '難しい' },
    meta: (w) =>
      [
        `教科：${w.subject}`,
        w.topic ? `単元：${w.topic}` : null,
        `難易度：${LABELS.ja.difficulty[w.difficulty]}`,
        `全${w.problems.length}問`,
      ]
        .filter((part) => part !== null)
        .join('　'),
    name: '氏名',
    date: '日付',
    problem: (index) => `問${index}`,
    type: { multiple_choice: '選択式', written: '記述式' },
    choice: ['ア', 'イ', 'ウ', 'エ'],
    choiceGap: '　',
    answer: '正解：',
    yourAnswer: '答え',
    modelAnswer: '模範解答',
    rubric: '採点基準',
    bullet: '・',
    explanation: '解説',
  },
  en: {
    sheet: { questions: 'Questions', answers: 'Answer key' },
    difficulty: { easy: 'Easy', normal: 'Normal', hard: 'Hard' },
    meta: (w) =>
      [
        `Subject: ${w.subject}`,
        w.topic ? `Topic: ${w.topic}` : null,
        `Difficulty: ${LABELS.en.difficulty[w.difficulty]}`,
        `${w.problems.length} problems`,
      ]
        .filter((part) => part !== null)
        .join('   ·   '),
    name: 'Name',
    date: 'Date',
    problem: (index) => `Question ${index}`,
    type: { multiple_choice: 'Multiple choice', written: 'Written answer' },
    choice: ['(A)', '(B)', '(C)', '(D)'],
    choiceGap: ' ',
    answer: 'Answer: ',
    yourAnswer: 'Your answer',
    modelAnswer: 'Model answer',
    rubric: 'Rubric',
    bullet: '•',
    explanation: 'Explanation',
  },
};

// --- Layout ---

const MARGIN = { top: 56, bottom: 64, left: 56, right: 56 };
const INDENT = 16;
const CHOICE_LABEL_WIDTH = 30;
const ANSWER_LINES = 5;
const ANSWER_LINE_SPACING = 26;
/** The box for a multiple-choice answer: room for one letter (ア, (B)) written by hand. */
const ANSWER_BOX_WIDTH = 56;
const ANSWER_BOX_HEIGHT = 22;
const PROBLEM_GAP = 18;
const COLOR = { text: '#111111', muted: '#555555', accent: '#1f4e79', rule: '#9a9a9a' };

type Doc = PDFKit.PDFDocument;

/**
 * One piece of a problem: its height at the current width (measured with the
 * same font settings it draws with) and how it draws itself at `doc.y`.
 * `firstLine` is the height of its first line: a heading is never left at the
 * foot of a page without the first line of what follows it.
 */
interface Part {
  height: number;
  firstLine: number;
  /** Headings and labels: never the last thing on a page. */
  keepWithNext?: boolean;
  draw(): void;
}

function setFont(doc: Doc, font: FontName, size: number, color = COLOR.text): void {
  doc.font(font).fontSize(size).fillColor(color);
}

function pageBottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

/** A worksheet's layout may take this many text budgets (TEXT_BUDGET_MS). */
const PDF_BUDGET_FACTOR = 10;

/** The longest stretch of text laid out without a place to break the line. */
const MAX_UNBREAKABLE = 48;
const ZERO_WIDTH_SPACE = '\u200B';

/**
 * The text with a break opportunity (an invisible zero-width space) every MAX_UNBREAKABLE characters of a stretch
 * the Unicode line-breaking rules give none (a run of digits, letters, ー or 。): pdfkit splits a word wider than the
 * line by measuring what is left of it again for every line, which made an 8,000-character run take 40 s. Text with
 * ordinary break opportunities is returned as it is.
 */
export function wrappable(text: string): string {
  if (text.length <= MAX_UNBREAKABLE) return text;
  const breaker = new LineBreaker(text);
  let out = '';
  let last = 0;
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) {
    checkTextBudget();
    out += splitEvery(text.slice(last, bk.position));
    last = bk.position;
  }
  return out + splitEvery(text.slice(last));
}

function splitEvery(segment: string): string {
  if (segment.length <= MAX_UNBREAKABLE) return segment;
  const pieces: string[] = [];
  for (let at = 0; at < segment.length;) {
    let end = Math.min(segment.length, at + MAX_UNBREAKABLE);
    // Never between the two halves of a surrogate pair.
    if (end < segment.length && /[\uD800-\uDBFF]/.test(segment[end - 1]!)) end--;
    pieces.push(segment.slice(at, end));
    at = end;
  }
  return pieces.join(ZERO_WIDTH_SPACE);
}

/** A block of wrapped text at `indent` from the left margin. */
function textPart(
  doc: Doc,
  given: string,
  font: FontName,
  size: number,
  indent: number,
  options: { color?: string; after?: number } = {},
): Part {
  const text = wrappable(given);
  const width = contentWidth(doc) - indent;
  const textOptions = { width, lineGap: 2 };
  setFont(doc, font, size);
  const after = options.after ?? 0;
  return {
    height: doc.heightOfString(text, textOptions) + after,
    firstLine: doc.currentLineHeight(true) + 2,
    draw() {
      setFont(doc, font, size, options.color);
      doc.text(text, doc.page.margins.left + indent, doc.y, textOptions);
      doc.y += after;
    },
  };
}

/** A label in a fixed column followed by wrapped text (a choice, a rubric point). */
function labelledPart(doc: Doc, label: string, given: string, size: number, indent: number, labelWidth: number, after: number): Part {
  const text = wrappable(given);
  const width = contentWidth(doc) - indent - labelWidth;
  const textOptions = { width, lineGap: 2 };
  setFont(doc, 'regular', size);
  return {
    height: doc.heightOfString(text, textOptions) + after,
    firstLine: doc.currentLineHeight(true) + 2,
    draw() {
      const x = doc.page.margins.left + indent;
      const y = doc.y;
      setFont(doc, 'regular', size);
      doc.text(label, x, y, { width: labelWidth, lineBreak: false });
      doc.text(text, x + labelWidth, y, textOptions);
      doc.y += after;
    },
  };
}

/** Noto Sans JP's ascent (hhea, per em): from the top of a line to its baseline. */
const ASCENT = 1.16;

/** The problem's heading: "問3 選択式" / "Question 3 Multiple choice". */
function headingPart(doc: Doc, labels: Labels, problem: Problem): Part {
  const size = 12.5;
  setFont(doc, 'bold', size);
  const height = doc.currentLineHeight(true) + 4;
  return {
    height,
    firstLine: height,
    keepWithNext: true,
    draw() {
      const x = doc.page.margins.left;
      const top = doc.y;
      // Both runs sit on one baseline although their sizes differ.
      const baseline = top + ASCENT * size;
      const heading = labels.problem(problem.index);
      setFont(doc, 'bold', size, COLOR.accent);
      doc.text(heading, x, baseline, { baseline: 'alphabetic', lineBreak: false });
      const tagX = x + doc.widthOfString(heading) + 10;
      setFont(doc, 'regular', 9.5, COLOR.muted);
      doc.text(labels.type[problem.type], tagX, baseline, { baseline: 'alphabetic', lineBreak: false });
      doc.x = x;
      doc.y = top + height;
    },
  };
}

/** Ruled lines to write a written answer on. */
function answerLinesPart(doc: Doc): Part {
  return {
    height: ANSWER_LINES * ANSWER_LINE_SPACING + 4,
    firstLine: ANSWER_LINE_SPACING,
    draw() {
      const left = doc.page.margins.left + INDENT;
      const right = doc.page.width - doc.page.margins.right;
      for (let line = 0; line < ANSWER_LINES; line += 1) {
        if (doc.y + ANSWER_LINE_SPACING > pageBottom(doc)) doc.addPage();
        const y = doc.y + ANSWER_LINE_SPACING;
        doc.save().moveTo(left, y).lineTo(right, y).lineWidth(0.6).strokeColor(COLOR.rule).stroke().restore();
        doc.y = y;
      }
      doc.y += 4;
    },
  };
}

/** The box a student writes the letter of their choice in: the label, then an empty box. */
function answerBoxPart(doc: Doc, labels: Labels): Part {
  const height = ANSWER_BOX_HEIGHT + 6;
  return {
    height,
    firstLine: height,
    draw() {
      const left = doc.page.margins.left + INDENT + 6;
      setFont(doc, 'regular', 10, COLOR.muted);
      const labelWidth = doc.widthOfString(labels.yourAnswer) + 8;
      const top = doc.y + 3;
      doc.text(labels.yourAnswer, left, top + (ANSWER_BOX_HEIGHT - doc.currentLineHeight()) / 2, { lineBreak: false });
      doc
        .save()
        .rect(left + labelWidth, top, ANSWER_BOX_WIDTH, ANSWER_BOX_HEIGHT)
        .lineWidth(0.8)
        .strokeColor(COLOR.rule)
        .stroke()
        .restore();
      doc.x = doc.page.margins.left;
      doc.y = top + ANSWER_BOX_HEIGHT + 3;
    },
  };
}

/** A fraction as a worksheet writes it inline: "3/4", or a mixed number "1 1/2" (digits only: "/ 2a" is no fraction). */
const FRACTION = /(?<![\d/])(?:(\d+)\s+)?(\d+)\/(\d+)(?![\d/])/g;
const EXPRESSION_CHARS = new Set([...'0123456789 /+-−×÷=().□x']);
const MAX_MATH_LINE = 60;

/**
 * The text and the arithmetic it ends with ("次の計算をしなさい。3/4 + 1/6"),
 * when that has a fraction to typeset and fits a line; else null. Found by
 * walking back from the end over arithmetic characters (a regex anchored at
 * the end was tried from every start).
 */
export function splitMath(text: string): { before: string; expression: string } | null {
  const trimmed = text.trimEnd();
  let start = trimmed.length;
  while (start > 0 && EXPRESSION_CHARS.has(trimmed[start - 1]!) && trimmed.length - start <= MAX_MATH_LINE) start--;
  // The expression starts at a digit, "(", □ or x.
  while (start < trimmed.length && !/[\d(□x]/.test(trimmed[start]!)) start++;
  const expression = trimmed.slice(start).trim();
  if (expression === '' || expression.length > MAX_MATH_LINE || !/\d\/\d/.test(expression)) return null;
  // Not the end of a longer run of arithmetic (the walk stopped at the limit).
  if (start > 0 && EXPRESSION_CHARS.has(trimmed[start - 1]!) && /\d/.test(trimmed[start - 1]!)) return null;
  return { before: trimmed.slice(0, start).trim(), expression };
}

/**
 * One line of arithmetic with its fractions typeset as fractions: the
 * numerator over a bar over the denominator, a mixed number's whole part
 * beside it; the rest of the line as text, centred on the bar.
 */
function mathLinePart(
  doc: Doc,
  expression: string,
  size: number,
  indent: number,
  after: number,
  label?: { text: string; width: number },
): Part {
  const small = size * 0.82;
  const height = small * 2.6 + after;
  const tokens: Array<{ text: string } | { whole?: string; top: string; bottom: string }> = [];
  let last = 0;
  for (const match of expression.matchAll(FRACTION)) {
    if (match.index > last) tokens.push({ text: expression.slice(last, match.index) });
    tokens.push({ ...(match[1] ? { whole: match[1] } : {}), top: match[2]!, bottom: match[3]! });
    last = match.index + match[0].length;
  }
  if (last < expression.length) tokens.push({ text: expression.slice(last) });
  return {
    height,
    firstLine: height,
    draw() {
      let x = doc.page.margins.left + indent;
      const middle = doc.y + small * 1.3;
      setFont(doc, 'regular', size);
      if (label) {
        doc.text(label.text, x, middle - doc.currentLineHeight() / 2, { lineBreak: false });
        x += label.width;
      }
      for (const token of tokens) {
        if ('text' in token) {
          setFont(doc, 'regular', size);
          doc.text(token.text, x, middle - doc.currentLineHeight() / 2, { lineBreak: false });
          x += doc.widthOfString(token.text);
          continue;
        }
        if (token.whole) {
          setFont(doc, 'regular', size);
          doc.text(token.whole, x, middle - doc.currentLineHeight() / 2, { lineBreak: false });
          x += doc.widthOfString(token.whole) + 1;
        }
        setFont(doc, 'regular', small);
        const width = Math.max(doc.widthOfString(token.top), doc.widthOfString(token.bottom)) + 4;
        doc.text(token.top, x + (width - doc.widthOfString(token.top)) / 2, middle - doc.currentLineHeight() - 0.5, { lineBreak: false });
        doc
          .save()
          .moveTo(x, middle)
          .lineTo(x + width, middle)
          .lineWidth(0.7)
          .strokeColor(COLOR.text)
          .stroke()
          .restore();
        doc.text(token.bottom, x + (width - doc.widthOfString(token.bottom)) / 2, middle + 1, { lineBreak: false });
        x += width + 1;
      }
      doc.x = doc.page.margins.left;
      doc.y = middle + small * 1.3 + after;
    },
  };
}

/** A prompt: its words wrapped, and the arithmetic it ends with typeset on a line of its own when it has fractions. */
function promptParts(doc: Doc, prompt: string, size: number, options: { color?: string; after: number }): Part[] {
  const math = splitMath(prompt);
  if (!math) return [textPart(doc, prompt, 'regular', size, INDENT, options)];
  return [
    ...(math.before ? [textPart(doc, math.before, 'regular', size, INDENT, { color: options.color, after: 2 })] : []),
    mathLinePart(doc, math.expression, size, INDENT + 6, options.after),
  ];
}

function spacePart(doc: Doc, height: number): Part {
  return {
    height,
    firstLine: 0,
    draw() {
      doc.y += height;
    },
  };
}

function choicesOf(problem: Problem): string[] {
  return problem.choices ?? [];
}

function questionParts(doc: Doc, labels: Labels, problem: Problem): Part[] {
  const parts = [headingPart(doc, labels, problem), ...promptParts(doc, problem.prompt, 11, { after: 6 })];
  if (problem.type === 'multiple_choice') {
    choicesOf(problem).forEach((choice, i) => {
      const label = labels.choice[i] ?? `${i + 1}`;
      // A choice that is arithmetic with a fraction ("5/12", "x = 3/4") is typeset like the prompt's.
      const math = splitMath(choice);
      parts.push(
        math && math.before === ''
          ? mathLinePart(doc, math.expression, 11, INDENT + 6, 1, { text: label, width: CHOICE_LABEL_WIDTH })
          : labelledPart(doc, label, choice, 11, INDENT + 6, CHOICE_LABEL_WIDTH, 3),
      );
    });
    parts.push(answerBoxPart(doc, labels));
  } else {
    parts.push(answerLinesPart(doc));
  }
  return parts;
}

function answerParts(doc: Doc, labels: Labels, problem: Problem): Part[] {
  const parts = [headingPart(doc, labels, problem), ...promptParts(doc, problem.prompt, 9.5, { color: COLOR.muted, after: 6 })];
  const label = (text: string): Part => ({
    ...textPart(doc, text, 'bold', 10, INDENT, { color: COLOR.accent, after: 1 }),
    keepWithNext: true,
  });
  if (problem.type === 'multiple_choice') {
    const index = problem.correctChoiceIndex;
    const choice = index === null ? undefined : choicesOf(problem)[index];
    const answer = index === null || choice === undefined ? '—' : `${labels.choice[index] ?? index + 1}${labels.choiceGap}${choice}`;
    parts.push(answerLinePart(doc, labels.answer, answer));
  } else {
    parts.push(label(labels.modelAnswer), textPart(doc, problem.modelAnswer ?? '—', 'regular', 11, INDENT + 6, { after: 6 }));
    const rubric = problem.rubric ?? [];
    if (rubric.length > 0) {
      parts.push(label(labels.rubric));
      for (const point of rubric) parts.push(labelledPart(doc, labels.bullet, point, 10.5, INDENT + 6, 14, 2));
      parts.push(spacePart(doc, 4));
    }
  }
  parts.push(label(labels.explanation), textPart(doc, problem.explanation, 'regular', 10.5, INDENT + 6));
  return parts;
}

/** "正解：イ text" — a bold label run on into the answer, wrapping under the label. */
function answerLinePart(doc: Doc, label: string, given: string): Part {
  const answer = wrappable(given);
  const width = contentWidth(doc) - INDENT;
  const textOptions = { width, lineGap: 2 };
  setFont(doc, 'bold', 11);
  const labelWidth = doc.widthOfString(label);
  setFont(doc, 'regular', 11);
  // Measured as one run, the label's width taken as a first-line indent.
  const height = doc.heightOfString(answer, { ...textOptions, indent: labelWidth });
  return {
    height: height + 8,
    firstLine: doc.currentLineHeight(true) + 2,
    draw() {
      setFont(doc, 'bold', 11, COLOR.accent);
      doc.text(label, doc.page.margins.left + INDENT, doc.y, { ...textOptions, continued: true });
      setFont(doc, 'regular', 11);
      doc.text(answer, textOptions);
      doc.y += 8;
    },
  };
}

/**
 * Draws a problem's parts. A problem starts on a new page when it would not
 * fit on this one but fits on a fresh page; a problem longer than a page is
 * broken between its parts, and a part goes to the next page when it would not
 * fit here but fits there. A heading or a label counts together with the first
 * line of the part after it, so it never ends a page. Text longer than a page
 * wraps onto the next one (pdfkit breaks it).
 */
function drawKeptTogether(doc: Doc, parts: Part[]): void {
  const fresh = pageBottom(doc) - doc.page.margins.top;
  const total = parts.reduce((sum, part) => sum + part.height, 0);
  if (total > pageBottom(doc) - doc.y && total <= fresh) doc.addPage();
  parts.forEach((part, i) => {
    const next = parts[i + 1];
    const need = part.keepWithNext && next ? part.height + next.firstLine : part.height;
    // Blank space (firstLine 0) may run off the foot of a page: it never starts one.
    if (part.firstLine > 0 && need > pageBottom(doc) - doc.y && need <= fresh) doc.addPage();
    part.draw();
  });
}

function drawHeader(doc: Doc, worksheet: Worksheet, labels: Labels, sheet: WorksheetSheet): void {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  setFont(doc, 'bold', 19);
  doc.text(worksheet.title, left, doc.y, { width, lineGap: 2 });
  setFont(doc, 'bold', 13, COLOR.accent);
  doc.text(labels.sheet[sheet], left, doc.y + 2, { width });
  setFont(doc, 'regular', 9.5, COLOR.muted);
  doc.text(labels.meta(worksheet), left, doc.y + 4, { width, lineGap: 2 });
  doc.y += 10;

  if (sheet === 'questions') {
    // Name and date, each a label with a line to write on.
    setFont(doc, 'regular', 11);
    const y = doc.y + 6;
    const baseline = y + doc.currentLineHeight() - 2;
    const nameWidth = doc.widthOfString(labels.name);
    const dateWidth = doc.widthOfString(labels.date);
    const dateLineWidth = 120;
    const dateLabelX = left + width - dateLineWidth - dateWidth - 8;
    doc.text(labels.name, left, y, { lineBreak: false });
    doc.text(labels.date, dateLabelX, y, { lineBreak: false });
    doc.save().lineWidth(0.6).strokeColor(COLOR.text);
    doc
      .moveTo(left + nameWidth + 8, baseline)
      .lineTo(dateLabelX - 24, baseline)
      .stroke();
    doc
      .moveTo(dateLabelX + dateWidth + 8, baseline)
      .lineTo(left + width, baseline)
      .stroke();
    doc.restore();
    doc.x = left;
    doc.y = baseline + 12;
  }

  doc
    .save()
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .lineWidth(1.2)
    .strokeColor(COLOR.accent)
    .stroke()
    .restore();
  doc.y += 16;
}

/** "n / total" at the foot of every page, drawn once all pages exist. */
function drawFooters(doc: Doc): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    const bottomMargin = doc.page.margins.bottom;
    // Text below the bottom margin would otherwise make pdfkit start a new page.
    doc.page.margins.bottom = 0;
    setFont(doc, 'regular', 9, COLOR.muted);
    doc.text(`${i + 1} / ${range.count}`, doc.page.margins.left, doc.page.height - 40, {
      width: contentWidth(doc),
      align: 'center',
      lineBreak: false,
    });
    doc.page.margins.bottom = bottomMargin;
  }
}

/** Renders one sheet of a worksheet as an A4 PDF. */
export async function renderWorksheetPdf(worksheet: Worksheet, sheet: WorksheetSheet): Promise<Buffer> {
  const labels = LABELS[worksheet.language];
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    lang: worksheet.language === 'ja' ? 'ja-JP' : 'en-US',
    displayTitle: true,
    info: { Title: `${worksheet.title} — ${labels.sheet[sheet]}`, Subject: worksheet.subject, Creator: 'convo problem workbench' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  for (const name of Object.keys(FONT_FILES) as FontName[]) doc.registerFont(name, fontFile(name));

  // Layout is synchronous and grows with the text: it runs under a budget (ten text budgets: a whole worksheet
  // is laid out at once), checked between problems and in the preparation of long texts.
  withinTextBudget(() => {
    drawHeader(doc, worksheet, labels, sheet);
    const problems = [...worksheet.problems].sort((a, b) => a.index - b.index);
    for (const problem of problems) {
      checkTextBudget();
      const parts = sheet === 'questions' ? questionParts(doc, labels, problem) : answerParts(doc, labels, problem);
      parts.push(spacePart(doc, PROBLEM_GAP));
      drawKeptTogether(doc, parts);
    }
    drawFooters(doc);
    doc.end();
  }, PDF_BUDGET_FACTOR * textBudgetMs());
  return done;
}
