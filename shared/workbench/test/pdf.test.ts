import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worksheet } from '@convo/contract';
import { findMissingGlyphs, renderWorksheetPdf, splitMath } from '@convo/workbench/internal/pdf';
import { generateOfflineWorksheet } from '@convo/workbench';

/**
 * The worksheet PDFs, read back with poppler's pdftotext: every prompt, choice
 * and (answers sheet) answer and explanation must come back as the same
 * characters, the pages must be A4, and the questions sheet must give nothing away.
 */

interface ChoiceSpec {
  prompt: string;
  choices: [string, string, string, string];
  correct: number;
  explanation: string;
}
interface WrittenSpec {
  prompt: string;
  modelAnswer: string;
  rubric: string[];
  explanation: string;
}

function buildWorksheet(
  head: { worksheetId: string; title: string; subject: string; topic: string | null; language: 'ja' | 'en' },
  choice: ChoiceSpec[],
  written: WrittenSpec[],
): Worksheet {
  const base = { worksheetId: head.worksheetId, version: 1, source: null };
  const problems = [
    ...choice.map((p, i) => ({
      ...base,
      id: `${head.worksheetId}-p${i + 1}`,
      index: i + 1,
      type: 'multiple_choice',
      prompt: p.prompt,
      choices: p.choices,
      correctChoiceIndex: p.correct,
      modelAnswer: null,
      rubric: null,
      explanation: p.explanation,
    })),
    ...written.map((p, i) => ({
      ...base,
      id: `${head.worksheetId}-p${choice.length + i + 1}`,
      index: choice.length + i + 1,
      type: 'written',
      prompt: p.prompt,
      choices: null,
      correctChoiceIndex: null,
      modelAnswer: p.modelAnswer,
      rubric: p.rubric,
      explanation: p.explanation,
    })),
  ];
  return Worksheet.parse({
    ...head,
    difficulty: 'normal',
    problems,
    createdAt: '2025-04-01T09:00:00.000Z',
    updatedAt: '2025-04-01T09:30:00.000Z',
  });
}

const japanese = buildWorksheet(
  { worksheetId: 'ws-ja', title: '中学3年 数学 二次方程式 確認テスト', subject: '数学', topic: '二次方程式の解き方と利用', language: 'ja' },
  [
    {
      prompt: '二次方程式 x² − 5x + 6 = 0 の解として正しいものを選びなさい。',
      choices: ['x = 2, 3', 'x = −2, −3', 'x = 1, 6', 'x = −1, −6'],
      correct: 0,
      explanation: '左辺を因数分解すると (x − 2)(x − 3) = 0 となるので、x = 2 または x = 3 です。',
    },
    {
      prompt: '二次方程式 x² = 49 を解きなさい。',
      choices: ['x = 7', 'x = ±7', 'x = 49', 'x = ±√7'],
      correct: 1,
      explanation: '平方根の考え方より、2乗して49になる数は7と−7の二つあります。符号の付け忘れに注意しましょう。',
    },
    {
      prompt:
        '太郎さんは、縦が横より4cm長い長方形の紙を作りました。この紙の面積が60cm²であるとき、横の長さをx cmとして方程式をつくり、横の長さを求めます。このとき、方程式の立て方と答えの組み合わせとして最も適切なものを、次のア〜エの中から一つ選び、記号で答えなさい。ただし、長さは正の数であることに注意しなさい。',
      choices: [
        'x(x + 4) = 60、横の長さは6cm',
        'x(x − 4) = 60、横の長さは10cm',
        'x + (x + 4) = 60、横の長さは28cm',
        'x(x + 4) = 60、横の長さは−10cm',
      ],
      correct: 0,
      explanation:
        '縦の長さは (x + 4) cm なので、面積の式は x(x + 4) = 60 です。展開して整理すると x² + 4x − 60 = 0、因数分解すると (x + 10)(x − 6) = 0 となり、x = 6, −10 が得られます。長さは正の数なので x = −10 は問題に適さず、横の長さは6cmです。',
    },
    {
      prompt: '二次方程式 ax² + bx + c = 0 の解の公式として正しいものはどれですか。',
      choices: ['x = (−b ± √(b² − 4ac)) / 2a', 'x = (b ± √(b² − 4ac)) / 2a', 'x = (−b ± √(b² + 4ac)) / 2a', 'x = (−b ± √(b² − 4ac)) / a'],
      correct: 0,
      explanation: '解の公式は、両辺を a で割って平方完成することで導かれます。分子の −b と分母の 2a を正確に覚えましょう。',
    },
    {
      prompt: '二次方程式 x² + 6x + 9 = 0 の解の個数はいくつですか。',
      choices: ['0個', '1個', '2個', '3個'],
      correct: 1,
      explanation: '(x + 3)² = 0 と変形できるため、解は x = −3 の一つだけです（重解）。',
    },
    {
      prompt: '次のうち、二次方程式であるものを選びなさい。',
      choices: ['3x + 2 = 0', 'x² − 2x = x² + 1', '2x² − x − 1 = 0', 'x³ = 8'],
      correct: 2,
      explanation: '移項して整理したときに、最も次数の高い項が2次になるものが二次方程式です。イは整理すると一次方程式になります。',
    },
    {
      prompt: '連続する二つの正の整数があり、その積は56です。小さいほうの整数はどれですか。',
      choices: ['6', '7', '8', '14'],
      correct: 1,
      explanation: '小さいほうを n とすると n(n + 1) = 56、すなわち (n + 8)(n − 7) = 0 より n = 7 です。',
    },
  ],
  [
    {
      prompt: '二次方程式 2x² − 3x − 2 = 0 を、解の公式を使って解きなさい。途中の計算も書くこと。',
      modelAnswer: 'a = 2, b = −3, c = −2 を代入して x = (3 ± √(9 + 16)) / 4 = (3 ± 5) / 4。よって x = 2, −1/2。',
      rubric: ['a, b, c の値を正しく読み取っている', '判別式 b² − 4ac = 25 を正しく計算している', '二つの解を約分して正しく答えている'],
      explanation: '係数の符号に注意して代入します。根号の中が平方数になるので、答えは有理数になります。',
    },
    {
      prompt: '周囲の長さが20mで、面積が24m²の長方形の花壇があります。縦と横の長さを求めなさい。求め方も説明すること。',
      modelAnswer:
        '縦を x m とすると横は (10 − x) m。x(10 − x) = 24 より x² − 10x + 24 = 0、(x − 4)(x − 6) = 0 で x = 4, 6。縦と横の長さは4mと6m。',
      rubric: ['縦と横の和が10mであることを使っている', '正しい二次方程式を立てている', '解を吟味して長さを答えている'],
      explanation: '周囲の長さの半分が縦と横の和になることがポイントです。',
    },
    {
      prompt: '二次方程式を解くとき、因数分解・平方根・解の公式のどれを使うとよいか、方程式の形に注目して説明しなさい。',
      modelAnswer: 'x² = k の形なら平方根、左辺が簡単に因数分解できるなら因数分解、どちらも難しい場合は解の公式を使う。',
      rubric: ['方程式の形と解き方を対応させている', '解の公式がいつでも使えることに触れている'],
      explanation: '解の公式はどんな二次方程式にも使えますが、計算が簡単な方法を選ぶと間違いが減ります。',
    },
  ],
);

const english = buildWorksheet(
  { worksheetId: 'ws-en', title: 'Grade 8 Science: Forces and Motion', subject: 'Physics', topic: null, language: 'en' },
  [
    {
      prompt: 'Which quantity is measured in newtons?',
      choices: ['Mass', 'Force', 'Speed', 'Energy'],
      correct: 1,
      explanation: 'The newton is the SI unit of force: one newton accelerates a one-kilogram mass at one metre per second squared.',
    },
    {
      prompt: 'A cyclist travels 150 metres in 30 seconds at a constant speed. What is the speed?',
      choices: ['3 m/s', '5 m/s', '15 m/s', '4500 m/s'],
      correct: 1,
      explanation: 'Speed is distance divided by time: 150 m ÷ 30 s = 5 m/s.',
    },
    {
      prompt:
        'A student pushes a heavy wooden box across a rough floor with a steady horizontal force, and the box moves at a constant velocity the whole time. A classmate claims that the push must be larger than the friction, because otherwise the box would not move at all. Which statement best describes the forces acting on the box while it moves at constant velocity?',
      choices: [
        'The push is larger than the friction force.',
        'The push is equal in size to the friction force, so the net force is zero.',
        'The friction force is larger than the push.',
        'There is no friction once the box starts moving.',
      ],
      correct: 1,
      explanation:
        "By Newton's first law, an object moving at constant velocity has no net force acting on it. The push and the friction are balanced; a larger push was only needed briefly to start the box moving, when static friction had to be overcome.",
    },
    {
      prompt: 'What happens to the acceleration of an object if the net force on it doubles and its mass stays the same?',
      choices: ['It halves', 'It stays the same', 'It doubles', 'It quadruples'],
      correct: 2,
      explanation: 'Newton’s second law, a = F/m, makes acceleration proportional to net force when the mass is fixed.',
    },
    {
      prompt: 'Which of these is an example of a non-contact force?',
      choices: ['Friction', 'Air resistance', 'Tension', 'Gravity'],
      correct: 3,
      explanation: 'Gravity acts between masses at a distance; the other three need the objects to touch.',
    },
    {
      prompt: 'A 2 kg ball is dropped. Ignoring air resistance, what is its weight on Earth (g ≈ 9.8 N/kg)?',
      choices: ['2 N', '9.8 N', '19.6 N', '4.9 N'],
      correct: 2,
      explanation: 'Weight is mass times gravitational field strength: 2 kg × 9.8 N/kg = 19.6 N.',
    },
    {
      prompt: 'On a distance–time graph, what does a horizontal line show?',
      choices: ['Constant speed', 'Acceleration', 'The object is stationary', 'Deceleration'],
      correct: 2,
      explanation: 'A horizontal line means the distance does not change as time passes, so the object is not moving.',
    },
  ],
  [
    {
      prompt: 'Explain why passengers lurch forward when a bus brakes suddenly.',
      modelAnswer:
        'The passengers’ bodies tend to keep moving at the bus’s original speed (inertia). The brakes slow the bus, but nothing slows the passengers at first, so they continue forward relative to the bus.',
      rubric: [
        'Mentions inertia or Newton’s first law',
        'Explains that the bus slows but the passengers keep moving',
        'Describes the motion relative to the bus',
      ],
      explanation: 'Seat belts supply the force that slows passengers together with the vehicle.',
    },
    {
      prompt:
        'A car of mass 1200 kg accelerates from rest to 20 m/s in 8 seconds. Calculate the resultant force on the car. Show your working.',
      modelAnswer: 'a = (20 − 0) / 8 = 2.5 m/s². F = m × a = 1200 × 2.5 = 3000 N.',
      rubric: ['Calculates the acceleration correctly', 'Uses F = m × a', 'Gives the answer with the unit N'],
      explanation: 'Find the acceleration from the change in velocity first, then apply the second law.',
    },
    {
      prompt: 'Describe one way to reduce friction between moving parts in a machine and explain why it works.',
      modelAnswer:
        'Add a lubricant such as oil: it forms a thin layer between the surfaces so they do not rub directly against each other.',
      rubric: [
        'Names a valid method (lubrication, ball bearings, smoother surfaces)',
        'Explains how the method reduces contact between surfaces',
      ],
      explanation: 'Ball bearings work differently: they replace sliding friction with much smaller rolling friction.',
    },
  ],
);

const CASES = [
  {
    name: 'ja',
    worksheet: japanese,
    answerLabel: '正解：',
    choiceLabels: ['ア', 'イ', 'ウ', 'エ'],
    heading: (p: Worksheet['problems'][number]) => `問${p.index}${p.type === 'written' ? '記述式' : '選択式'}`,
  },
  {
    name: 'en',
    worksheet: english,
    answerLabel: 'Answer:',
    choiceLabels: ['(A)', '(B)', '(C)', '(D)'],
    heading: (p: Worksheet['problems'][number]) => `Question${p.index}${p.type === 'written' ? 'Writtenanswer' : 'Multiplechoice'}`,
  },
] as const;

/** Whitespace carries no meaning here: pdftotext re-wraps, pads columns and indents. */
const squash = (text: string): string => text.replace(/\s+/g, '');

const POPPLER_MISSING =
  'pdftotext was not found: this test reads the worksheet PDFs back with poppler. Install poppler-utils (`apt-get install -y poppler-utils`; .ci/run installs it when pdftotext is missing).';

let workDir: string;
const rendered = new Map<string, Buffer>();
const extracted = new Map<string, string[]>();

/** The text of each page, by poppler's pdftotext; fails (never skips) when poppler is missing. */
function extractPages(pdf: Buffer, name: string): string[] {
  const file = join(workDir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const run = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (run.error) throw new Error(`${POPPLER_MISSING} (${run.error.message})`);
  if (run.status !== 0) throw new Error(`pdftotext failed on ${name}.pdf: ${run.stderr}`);
  // pdftotext ends every page with a form feed.
  return run.stdout.split('\f').slice(0, -1);
}

function sheetOf(name: string, sheet: 'questions' | 'answers'): { pdf: Buffer; pages: string[]; text: string } {
  const key = `${name}-${sheet}`;
  const pdf = rendered.get(key);
  if (!pdf) throw new Error(`${key} was not rendered`);
  let pages = extracted.get(key);
  if (!pages) {
    pages = extractPages(pdf, key);
    extracted.set(key, pages);
  }
  return { pdf, pages, text: squash(pages.join('\n')) };
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'workbench-pdf-'));
  for (const { name, worksheet } of CASES) {
    for (const sheet of ['questions', 'answers'] as const) rendered.set(`${name}-${sheet}`, await renderWorksheetPdf(worksheet, sheet));
  }
});

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

it('poppler-utils is installed (pdftotext reads the PDFs back)', () => {
  const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  if (probe.error) throw new Error(POPPLER_MISSING);
});

describe.each(CASES)('worksheet PDF ($name)', ({ name, worksheet, answerLabel, choiceLabels, heading }) => {
  it('the fixture is a worksheet of 7 multiple-choice and 3 written problems', () => {
    expect(worksheet.problems.filter((p) => p.type === 'multiple_choice')).toHaveLength(7);
    expect(worksheet.problems.filter((p) => p.type === 'written')).toHaveLength(3);
  });

  it('the font has a glyph for every character of the worksheet (no tofu)', () => {
    const all = [
      worksheet.title,
      worksheet.subject,
      worksheet.topic ?? '',
      ...worksheet.problems.flatMap((p) => [p.prompt, p.explanation, p.modelAnswer ?? '', ...(p.choices ?? []), ...(p.rubric ?? [])]),
    ].join('\n');
    expect(findMissingGlyphs(all)).toEqual([]);
  });

  it.each(['questions', 'answers'] as const)('%s sheet: a small PDF of A4 pages numbered "n / total"', (sheet) => {
    const { pdf, pages } = sheetOf(name, sheet);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // Fonts are subset: the two Noto Sans JP files are ~5 MB each.
    expect(pdf.length).toBeLessThan(200_000);
    const boxes = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/g)].map((m) =>
      m.slice(1).map(Number),
    );
    expect(boxes.length).toBe(pages.length);
    for (const box of boxes) expect(box).toEqual([0, 0, 595.28, 841.89]);
    expect(pages.length).toBeGreaterThan(0);
    pages.forEach((page, i) => expect(squash(page)).toContain(squash(`${i + 1} / ${pages.length}`)));
  });

  it('questions sheet: title, every prompt and every labelled choice, and no answers', () => {
    const { text, pages } = sheetOf(name, 'questions');
    expect(text).toContain(squash(worksheet.title));
    for (const problem of worksheet.problems) {
      expect(text).toContain(squash(problem.prompt));
      (problem.choices ?? []).forEach((choice, i) => expect(text).toContain(squash(`${choiceLabels[i]}${choice}`)));
      expect(text).not.toContain(squash(problem.explanation));
      if (problem.modelAnswer) expect(text).not.toContain(squash(problem.modelAnswer));
      for (const point of problem.rubric ?? []) expect(text).not.toContain(squash(point));
      // The heading and the start of the prompt share a page.
      const page = pages.map(squash).find((p) => p.includes(heading(problem)));
      expect(page, `heading of problem ${problem.index}`).toBeDefined();
      expect(page).toContain(squash(problem.prompt).slice(0, 12));
    }
    expect(text).not.toContain(squash(answerLabel));
    // A student sheet: a box to write each multiple-choice answer in, lines for each written one.
    const label = name === 'ja' ? '答え' : 'Your answer';
    const boxes = pages.flatMap((page) => page.split('\n')).filter((line) => line.trim() === label).length;
    expect(boxes).toBe(worksheet.problems.filter((problem) => problem.type === 'multiple_choice').length);
  });

  it('answers sheet: the correct choice with its label, model answers, rubric points and explanations', () => {
    const { text } = sheetOf(name, 'answers');
    expect(text).toContain(squash(worksheet.title));
    expect(text).toContain(name === 'ja' ? '解答・解説' : 'Answerkey');
    for (const problem of worksheet.problems) {
      expect(text).toContain(squash(problem.explanation));
      if (problem.type === 'multiple_choice') {
        const index = problem.correctChoiceIndex!;
        expect(text).toContain(squash(`${answerLabel}${choiceLabels[index]}${problem.choices![index]}`));
      } else {
        expect(text).toContain(squash(problem.modelAnswer!));
        for (const point of problem.rubric!) expect(text).toContain(squash(point));
      }
    }
  });
});

it('findMissingGlyphs reports characters the font cannot draw', () => {
  expect(findMissingGlyphs('漢字 ok \u{1F99C}\uE000')).toEqual(['\u{1F99C}', '\uE000']);
});

describe('fractions', () => {
  it('are typeset as fractions in the students’ sheet: numerator over denominator, the words before them wrapped as text', async () => {
    const sheet = await generateOfflineWorksheet(
      'ws-pdf-fractions',
      { subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' },
      new Date(0).toISOString(),
    );
    const pages = extractPages(await renderWorksheetPdf(sheet, 'questions'), 'fractions-questions');
    const lines = pages.flatMap((page) => page.split('\n'));
    const problem = sheet.problems[0]!;
    const math = splitMath(problem.prompt)!;
    expect(math.before).toBe('次の計算をしなさい。');
    // Not "a/b" on one line: the numerator on the line above its denominator.
    const first = /(\d+)\/(\d+)/.exec(math.expression)!;
    expect(lines.some((line) => line.includes(first[0]))).toBe(false);
    const number = (value: string) => new RegExp(`(^|\\D)${value}(\\D|$)`);
    const after = lines.findIndex((line) => line.includes(math.before));
    const top = lines.findIndex((line, index) => index > after && number(first[1]!).test(line));
    // (pdftotext puts the operator, centred on the bars, on a line between them.)
    expect(lines.slice(top + 1, top + 3).some((line) => number(first[2]!).test(line))).toBe(true);
    // A written expression with no fraction, and "/ 2a" in a formula, stay text.
    expect(splitMath('x = (−b ± √(b² − 4ac)) / 2a')).toBeNull();
    expect(splitMath('What is 40% of 90?')).toBeNull();
  });
});
