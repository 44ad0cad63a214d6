import { describe, expect, it } from 'vitest';
import { Problem } from '@convo/contract';
import {
  kanjiGradeNamed,
  analyzeIntent,
  autoFix,
  checkProblem,
  MAX_SUGGESTION_LENGTH,
  ruleEdit,
  scoreProblem,
  solvePrompt,
  suggest,
  undoTarget,
  offeredTopics,
  topicOffered,
} from '@convo/workbench';
import { buildMathProblem, generateMathProblems, type MathParams } from '@convo/workbench/internal/generate/math';
import { seededRandom } from '@convo/workbench/internal/generate/random';

const base = { id: 'w-p1', worksheetId: 'w', index: 1, version: 1, source: null, modelAnswer: null, rubric: null } as const;
const choice = (prompt: string, choices: string[], correctChoiceIndex: number, explanation: string) =>
  Problem.parse({ ...base, type: 'multiple_choice', prompt, choices, correctChoiceIndex, explanation });
const kinds = async (problem: Problem, language: 'ja' | 'en' = 'en') =>
  (await checkProblem(problem, language)).issues.filter((issue) => issue.severity === 'error').map((issue) => issue.kind);

describe('solving what a prompt asks', () => {
  it.each([
    ['What is 3/4 + 1/8?', 0.875],
    ['2/3 ÷ 4/9 を計算しなさい。', 1.5],
    ['Calculate 1 1/2 ÷ 3/4.', 2],
    ['If 4x = 24, what is x?', 6],
    ['次の方程式を解きなさい。2(x − 3) = 10', 8],
    ['80の15%はいくつですか。', 12],
    ['12 is what percent of 48?', 25],
    ['What is 2/3 of 27?', 18],
    ['A triangle has base 10 cm and height 6 cm. What is its area?', 30],
    ['1辺4 cmの正方形の面積を求めなさい。', 16],
    ['What is the perimeter of a rectangle 7 cm by 4 cm?', 22],
    ['Convert 2.75 L to mL.', 2750],
    ['時速60kmの車が2時間30分走りました。何km進みましたか。', 150],
    ['1200mを分速80mで歩くと何分かかりますか。', 15],
    ['How many hours does it take to travel 270 km at 45 km/h?', 6],
    ['A runner goes 10 km in 50 minutes. What is her average speed in km per hour?', 12],
  ])('%s → %s', (prompt, value) => {
    expect(solvePrompt(prompt)?.value).toBeCloseTo(value, 6);
  });

  it('leaves prompts that are not arithmetic alone', () => {
    expect(solvePrompt('What is the capital of France?')).toBeNull();
    // Two numbers of a word problem are not an expression to evaluate.
    expect(solvePrompt('In 2020, 3 of the 5 members left. Who stayed?')).toBeNull();
    // A quoted definition is what a vocabulary question is about, not a sum; a quoted expression is still one.
    expect(solvePrompt('Write the word that means: “a period of time equal to 1/24th of a day” (starts with h).')).toBeNull();
    expect(solvePrompt('Calculate “3/4 + 1/8”.')?.value).toBeCloseTo(7 / 8, 6);
    // Lengths in two units are not converted: not solved, rather than solved wrong.
    expect(solvePrompt('時速4kmで30分歩くと何m進みますか。')).toBeNull();
  });
});

describe('the consistency checker', () => {
  it('passes a correct problem, and finds a wrong mark with the right answer among the choices', async () => {
    const problem = choice('What is 15% of 80?', ['12', '120', '68', '27'], 0, '80 × 15/100 = 12.');
    expect(await kinds(problem)).toEqual([]);
    expect(await kinds({ ...problem, correctChoiceIndex: 1 })).toContain('wrong_answer');
  });

  it('finds a missing answer, two right answers, duplicate, empty and off-topic choices', async () => {
    expect(await kinds(choice('What is 3/4 + 1/8?', ['1/2', '5/8', '4/12', '3/4'], 0, 'Add them.'))).toContain('no_correct_choice');
    // Shown as the problem writes its numbers: a fraction (10/9), not 1.111.
    const fractions = await checkProblem(choice('次の計算をしなさい。1/3 + 7/9', ['8/12', '8/9', '1/2', '4/3'], 1, '足します。'), 'ja');
    expect(fractions.issues.find((issue) => issue.kind === 'no_correct_choice')?.issue).toBe('正しい答え（10/9）が選択肢にありません。');
    expect(await kinds(choice('What is 1/2 + 1/4?', ['3/4', '0.75', '1/6', '2/6'], 0, '1/2 + 1/4 = 3/4.'))).toContain('multiple_correct');
    expect(await kinds(choice('Capital of Italy?', ['Rome', 'Milan', 'milan ', 'Turin'], 0, 'Rome.'))).toContain('duplicate_choice');
    expect(await kinds(choice('Capital of Italy?', ['Rome', '', 'Milan', 'Turin'], 0, 'Rome.'))).toContain('empty_choice');
    expect(await kinds(choice('What is 6 × 7?', ['42', '48', 'London', '36'], 0, '6 × 7 = 42.'))).toContain('off_topic_choice');
    expect(await kinds(choice('How far is it?', ['12 km', '15 km', '60 kg', '9 km'], 0, 'It is 12 km.'))).toContain('off_topic_choice');
  });

  it('finds an explanation that names another choice, or reaches another result', async () => {
    expect(await kinds(choice('Which planet has rings?', ['Mars', 'Saturn', 'Venus', 'Mercury'], 1, 'The answer is A.'))).toContain(
      'explanation_names_other',
    );
    expect(
      await kinds(
        choice(
          '次の計算をしなさい。4/5 − 1/2',
          ['3/5', '13/10', '1/10', '3/10'],
          3,
          '通分すると 8/10 − 5/10 となります。よって答えはイです。',
        ),
        'ja',
      ),
    ).toContain('explanation_names_other');
    expect(await kinds(choice('What is 7 + 8?', ['15', '16', '14', '25'], 0, 'Add the ones: 7 + 8 = 17.'))).toContain(
      'explanation_contradicts',
    );
    // Discussing a wrong answer is not naming it as the answer.
    expect(
      await kinds(choice('What is 8 × 5?', ['40', '26', '13', '45'], 0, '8 × 5 = 40. 26 is the perimeter, a common mistake.')),
    ).toEqual([]);
  });

  it('finds a prompt edited after its choices and explanation were written', async () => {
    const problem = choice('What is 35% of 120?', ['36', '40', '24', '30'], 0, '30% of 120 = 36.');
    expect(await kinds(problem)).toEqual(['number_mismatch']);
  });

  it('reads a kanji reading with the dictionary', async () => {
    const problem = choice(
      '「写真」の読みとして正しいものを選びなさい。',
      ['しゃしん', 'しやしん', 'うつしん', 'しゃじん'],
      0,
      '「しゃしん」と読みます。',
    );
    expect(await kinds(problem, 'ja')).toEqual([]);
    expect(await kinds({ ...problem, correctChoiceIndex: 3 }, 'ja')).toContain('wrong_answer');
  });

  it('finds a written problem whose model answer misses', async () => {
    const written = Problem.parse({
      ...base,
      type: 'written',
      prompt: 'Solve 2x + 3 = 11.',
      choices: null,
      correctChoiceIndex: null,
      modelAnswer: 'x = 5',
      rubric: ['x = 4'],
      explanation: '2x = 8.',
    });
    expect(await kinds(written)).toContain('written_missing_answer');
    expect(await kinds({ ...written, modelAnswer: 'x = 4' })).toEqual([]);
  });

  it('warns of a wrong choice nobody would pick and of an explanation without answer or reason', async () => {
    const warnings = async (problem: Problem) =>
      (await checkProblem(problem, 'en')).issues.filter((issue) => issue.severity === 'warning').map((issue) => issue.kind);
    expect(await warnings(choice('What is 15% of 80?', ['12', '1.2', '68', '5000'], 0, '80 × 15/100 = 12.'))).toEqual([
      'implausible_distractor',
    ]);
    expect(await warnings(choice('Which planet has rings?', ['Mars', 'Saturn', 'Venus', 'Mercury'], 1, 'Look it up.'))).toEqual([
      'explanation_incomplete',
    ]);
    expect(
      await warnings(choice('Which planet has rings?', ['Mars', 'Saturn', 'Venus', 'Mercury'], 1, 'Saturn has bright rings of ice.')),
    ).toEqual([]);
  });

  it('passes every generated math problem, whatever the difficulty and language', async () => {
    for (const difficulty of ['easy', 'normal', 'hard'] as const) {
      for (const language of ['ja', 'en'] as const) {
        const random = seededRandom(`${difficulty}-${language}`);
        for (const type of ['multiple_choice', 'written'] as const) {
          for (const [index, generated] of generateMathProblems({ count: 8, difficulty, language, seed: 's', type }, random).entries()) {
            const problem = Problem.parse({ ...generated, id: `w-p${index + 1}`, worksheetId: 'w', index: index + 1, version: 1 });
            expect(await kinds(problem, language), `${problem.prompt} ${JSON.stringify(problem.choices)}`).toEqual([]);
            // The same problem set in an everyday scene, where it has one, passes too.
            const scene = buildMathProblem({
              generator: generated.source!.generator,
              params: generated.source!.params as MathParams,
              type,
              language,
              form: 'context',
            });
            if (scene && scene.prompt !== problem.prompt)
              expect(await kinds({ ...problem, ...scene }, language), `${scene.prompt} ${JSON.stringify(scene.choices)}`).toEqual([]);
          }
        }
      }
    }
  });
});

describe('the auto-fixer', () => {
  it('re-marks a wrong answer, rewrites a contradicting explanation and replaces a duplicate, each then passing the checker', async () => {
    const cases = [
      choice('What is 15% of 80?', ['12', '120', '68', '27'], 1, '80 × 15/100 = 12.'),
      choice('What is 7 + 8?', ['15', '16', '14', '25'], 0, 'Add the ones: 7 + 8 = 17.'),
      choice('What is 9 × 3?', ['27', '12', '12', '30'], 0, '9 × 3 = 27.'),
      choice('What is 35% of 120?', ['36', '40', '24', '30'], 0, '30% of 120 = 36.'),
    ];
    for (const problem of cases) {
      const { fixes, confidence } = await autoFix(problem, 'en');
      expect(Object.keys(fixes).length, problem.prompt).toBeGreaterThan(0);
      expect(confidence).toBeGreaterThan(0);
      expect(await kinds({ ...problem, ...fixes }), JSON.stringify(fixes)).toEqual([]);
    }
  });

  it('offers nothing for a problem it cannot work out', async () => {
    const problem = choice('Which animal is a mammal?', ['Shark', 'Dolphin', 'Trout', 'Eel'], 0, 'Sharks are fish.');
    expect((await autoFix(problem, 'en')).fixes).toEqual({});
  });
});

describe('quality, suggestions, intent and the editor', () => {
  it('scores a problem with working and a word on mistakes above a bare one, each metric in [0, 1]', async () => {
    const good = choice(
      'What is 15% of 80?',
      ['12', '120', '68', '27'],
      0,
      '80 × 15/100 = 12. 120 comes from dividing by 10 instead of 100, a common mistake.',
    );
    const bare = choice('15% 80', ['12', '120', '68', '27'], 0, '12');
    const goodScore = scoreProblem(good, await checkProblem(good, 'en'), 'normal', 'en');
    const bareScore = scoreProblem(bare, await checkProblem(bare, 'en'), 'normal', 'en');
    expect(goodScore.overallScore).toBeGreaterThan(bareScore.overallScore);
    expect(goodScore.metrics.educationalValue).toBeGreaterThan(bareScore.metrics.educationalValue);
    expect(goodScore.metrics.clarity).toBeGreaterThan(bareScore.metrics.clarity);
    for (const value of Object.values(goodScore.metrics)) expect(value).toBeGreaterThanOrEqual(0);
  });

  it('suggests four short ideas per section, led by the problem’s own weakness', async () => {
    const duplicate = choice('What is 9 × 3?', ['27', '12', '12', '30'], 0, '27');
    const ideas = suggest(duplicate, await checkProblem(duplicate, 'en'), { subject: 'math', difficulty: 'easy', language: 'en' });
    for (const section of [ideas.prompt, ideas.choices!, ideas.explanation]) {
      expect(section).toHaveLength(4);
      for (const idea of section) expect([...idea].length).toBeLessThanOrEqual(MAX_SUGGESTION_LENGTH);
    }
    expect(ideas.choices![0]).toBe('Drop duplicates');
    expect(ideas.explanation).toContain('Show working');
  });

  it('suggests for the subject: no working to show or numbers to simplify on a kanji reading', async () => {
    const reading = choice(
      '「学校」の読み方はどれですか。',
      ['がっこう', 'がくこう', 'まなびや', 'がっこ'],
      0,
      '学（がく）＋校（こう）で、がっこうと読みます。',
    );
    const ideas = suggest(reading, await checkProblem(reading, 'ja'), { subject: 'kanji', difficulty: 'easy', language: 'ja' });
    expect([...ideas.prompt, ...ideas.explanation]).not.toContain('途中の式を示す');
    expect(ideas.prompt).not.toContain('数を易しくする');
    expect(ideas.prompt).toContain('よく使う語にする');
  });

  it.each([
    ['もっと簡単にして', 'simplify', null],
    ['問題文をもっと具体的にして', 'specify', 'prompt'],
    ['この問題を改善して', 'improve', null],
    ['整合性チェック', 'check', null],
    ['make it harder', 'harden', null],
    ['解説を詳しくして', 'specify', 'explanation'],
  ])('reads %s as %s', (request, intent, section) => {
    expect(analyzeIntent(request)).toEqual({ intent, section });
  });

  it.each([
    ['この問題を英語に翻訳して', 'translate', null],
    ['translate this into Japanese', 'translate', null],
    ['選択肢をもっと紛らわしくして', 'distractors', 'choices'],
    ['make the distractors more plausible', 'distractors', 'choices'],
    ['ヒントを追加して', 'hint', null],
    ['問題文を短くして', 'shorten', 'prompt'],
    ['change the topic of this problem', 'topic', null],
  ])('reads %s as %s, not as "improve"', (request, intent, section) => {
    expect(analyzeIntent(request)).toEqual({ intent, section });
  });

  it("never restates in the prompt the form a multiple-choice problem's choices already show: it says why", () => {
    const problem = choice('次の計算をしなさい。1/4 + 1/8', ['3/8', '2/12', '1/32', '1/2'], 0, '2/8 + 1/8 = 3/8');
    for (const intent of ['specify', 'improve'] as const) {
      const edit = ruleEdit(problem, 'prompt', intent, 'ja');
      expect(edit).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/選択式の問題では/) });
    }
  });

  it("states the answer form a written problem's model answer uses", () => {
    const problem = {
      ...choice('次の計算をしなさい。1/4 + 1/8', ['3/8', '2/12', '1/32', '1/2'], 0, '2/8 + 1/8 = 3/8'),
      type: 'written' as const,
      choices: null,
      correctChoiceIndex: null,
      modelAnswer: '3/8',
    };
    expect(ruleEdit(problem, 'prompt', 'specify', 'ja')).toMatchObject({
      kind: 'edited',
      field: 'prompt',
      value: '次の計算をしなさい。1/4 + 1/8。答えは既約分数で答えなさい。',
    });
  });

  it('adds the working to an explanation without it, and refuses one that already shows it, without appending a stock sentence', () => {
    const bare = choice('次の計算をしなさい。1/4 + 1/8', ['3/8', '2/12', '1/32', '1/2'], 0, '通分して足します。');
    const edited = ruleEdit(bare, 'explanation', 'improve', 'ja');
    expect(edited).toMatchObject({ kind: 'edited', field: 'explanation' });
    expect(edited.kind === 'edited' && String(edited.value)).toMatch(/=.*答えは 3\/8 です。通分して足します。$/);
    const worked = choice('次の計算をしなさい。1/4 + 1/8', ['3/8', '2/12', '1/32', '1/2'], 0, '2/8 + 1/8 = 3/8');
    expect(ruleEdit(worked, 'explanation', 'improve', 'ja')).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/すでに途中の式/),
    });
  });

  it.each([
    ['translate', 'ja', /訳す/],
    ['harden', 'ja', /難しくするには/],
    ['shorten', 'en', /Shortening/],
    ['topic', 'en', /topic/],
    ['distractors', 'ja', /新しい選択肢/],
  ] as const)('refuses %s with the reason in the sheet language (%s)', (intent, language, reason) => {
    const problem = choice('次の計算をしなさい。1/4 + 1/8', ['3/8', '2/12', '1/32', '1/2'], 0, '2/8 + 1/8 = 3/8');
    for (const section of ['prompt', 'choices', 'explanation'] as const)
      expect(ruleEdit(problem, section, intent, language)).toEqual({ kind: 'refused', reason: expect.stringMatching(reason) });
  });

  it('makes a problem easier with a hint of its kind, once', () => {
    const problem = choice('次の計算をしなさい。1/4 + 1/8', ['3/8', '2/12', '1/32', '1/2'], 0, '2/8 + 1/8 = 3/8');
    const edit = ruleEdit(problem, 'prompt', 'simplify', 'ja');
    expect(edit).toMatchObject({
      kind: 'edited',
      field: 'prompt',
      value: '次の計算をしなさい。1/4 + 1/8（分数は分母をそろえてから計算します）',
    });
    const again = ruleEdit({ ...problem, prompt: String(edit.kind === 'edited' && edit.value) }, 'prompt', 'hint', 'ja');
    expect(again).toMatchObject({ kind: 'refused' });
  });

  it('undoes the last edit not itself undone', () => {
    const edit = (version: number, by: 'user' | 'undo') => ({
      version,
      field: 'prompt' as const,
      before: `v${version - 1}`,
      after: `v${version}`,
      by,
      at: '',
    });
    expect(undoTarget([edit(2, 'user'), edit(3, 'user')])?.[0]?.version).toBe(3);
    expect(undoTarget([edit(2, 'user'), edit(3, 'user'), edit(4, 'undo')])?.[0]?.version).toBe(2);
    expect(undoTarget([edit(2, 'user'), edit(3, 'undo')])).toBeNull();
  });
});

describe('topics offered', () => {
  it('takes a math topic named in either language, and no topic for the others', () => {
    expect(topicOffered('math', '分数')).toBe(true);
    expect(topicOffered('math', 'percentages and areas')).toBe(true);
    expect(topicOffered('math', '速さ')).toBe(true);
    expect(topicOffered('math', 'probability')).toBe(false);
    expect(topicOffered('kanji', null)).toBe(true);
    expect(topicOffered('kanji', '動物')).toBe(false);
    // A kanji sheet takes a school grade.
    expect(topicOffered('kanji', '2年生の漢字')).toBe(true);
    expect([kanjiGradeNamed('小4'), kanjiGradeNamed('grade 3'), kanjiGradeNamed('常用漢字'), kanjiGradeNamed('動物')]).toEqual([
      4,
      3,
      8,
      null,
    ]);
    expect(offeredTopics('math', 'en')).toEqual([
      'fractions',
      'percentages',
      'equations',
      'areas',
      'speed',
      'ratio and proportion',
      'decimals',
      'volume',
      'unit conversion',
    ]);
    expect(offeredTopics('english', 'ja')).toEqual([]);
  });
});

describe('a written answer in the wrong kind of unit', () => {
  const conversion = (modelAnswer: string) =>
    Problem.parse({
      id: 'ws-u-p8',
      worksheetId: 'ws-u',
      index: 8,
      type: 'written',
      prompt: 'Convert 2.75 litres to millilitres.',
      choices: null,
      correctChoiceIndex: null,
      modelAnswer,
      rubric: ['Gives 2750 mL'],
      explanation: 'There are 1000 millilitres in one litre.',
      version: 1,
      source: null,
    });

  it('flags the right number in a unit of another kind, and passes it in the asked unit or bare', async () => {
    expect(await kinds(conversion('2.75 kg = 2750 g'))).toContain('written_missing_answer');
    for (const right of ['2.75 L = 2750 mL', '2750 millilitres', '2750'])
      expect(await kinds(conversion(right))).not.toContain('written_missing_answer');
  });
});

describe('a choice in the wrong kind of unit', () => {
  it('is not a second correct answer: 60 kg among distances is off topic, 60 km is the answer', async () => {
    const problem = Problem.parse({
      id: 'ws-u-p1',
      worksheetId: 'ws-u',
      index: 1,
      type: 'multiple_choice',
      prompt: '時速30kmで2時間走ると、何km進みますか。',
      choices: ['60kg', '32km', '15km', '60km'],
      correctChoiceIndex: 3,
      modelAnswer: null,
      rubric: null,
      explanation: '道のり = 速さ × 時間 = 30 × 2 = 60（km）です。',
      version: 1,
      source: null,
    });
    const found = await kinds(problem);
    expect(found).toContain('off_topic_choice');
    expect(found).not.toContain('multiple_correct');
    // The answer marked wrongly is found as the speed problem's answer.
    expect(await kinds({ ...problem, correctChoiceIndex: 1 })).toContain('wrong_answer');
  });
});

describe("a written problem's explanation", () => {
  const speed = (modelAnswer: string, explanation: string) =>
    Problem.parse({
      id: 'ws-w-p8',
      worksheetId: 'ws-w',
      index: 8,
      type: 'written',
      prompt: '時速60kmの車が2時間30分走りました。何km進みましたか。式も書きましょう。',
      choices: null,
      correctChoiceIndex: null,
      modelAnswer,
      rubric: ['式が正しく書けている', '答えと単位が正しい'],
      explanation,
      version: 1,
      source: null,
    });

  it('is checked like a multiple-choice one, and fixed with the model answer', async () => {
    const wrong = speed('60×2＝120　答え 120km', '道のり＝速さ×時間なので、60×2＝120km です。');
    expect(await kinds(wrong)).toEqual(expect.arrayContaining(['written_missing_answer', 'explanation_contradicts']));
    const { fixes } = await autoFix(wrong, 'ja');
    expect(Object.keys(fixes).sort()).toEqual(['explanation', 'modelAnswer']);
    expect(await kinds({ ...wrong, ...fixes })).toEqual([]);
    // A formula or a check of the answer is no result: "= 1⁄2 × base", "60 × 2.5 = 150, 150 ÷ 2.5 = 60".
    expect(await kinds(speed('60 × 2.5 = 150　答え 150km', '道のり＝速さ×時間＝60×2.5＝150km。検算: 150÷2.5＝60'))).toEqual([]);
  });
});
