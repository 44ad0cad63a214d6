import { describe, expect, it } from 'vitest';
import type { Problem, Worksheet } from '@convo/contract';
import {
  analyzeIntent,
  autoFix,
  checkProblem,
  changesTo,
  editProblem,
  difficultyOf,
  generateOfflineWorksheet,
  mathTopicOf,
  otherEditIntents,
  problemLanguage,
  remakeFor,
  remakeProblem,
  ruleEdit,
  targetLanguage,
  undoTarget,
} from '@convo/workbench';

const NOW = new Date(0).toISOString();
const sheet = (subject: string, language: 'ja' | 'en', difficulty: 'easy' | 'normal' | 'hard' = 'normal', topic?: string) =>
  generateOfflineWorksheet(
    `ws-remake-${subject}-${language}-${difficulty}-${topic ?? ''}`,
    { subject, difficulty, language, ...(topic ? { topic } : {}) },
    NOW,
  );
const errorsOf = async (problem: Problem, language: 'ja' | 'en') =>
  (await checkProblem(problem, language)).issues.filter((issue) => issue.severity === 'error');
const asProblem = (from: Problem, built: Omit<Problem, 'id' | 'worksheetId' | 'index' | 'version'>): Problem => ({ ...from, ...built });
const answerText = (problem: Pick<Problem, 'type' | 'choices' | 'correctChoiceIndex' | 'modelAnswer'>) =>
  problem.type === 'written' ? problem.modelAnswer : problem.choices![problem.correctChoiceIndex!];

describe('a generated problem rebuilt from its record', () => {
  it('harder and easier: another problem of the same topic, every part rewritten together and consistent', async () => {
    const worksheet = await sheet('算数', 'ja', 'normal', '速さ');
    for (const problem of [worksheet.problems[0]!, worksheet.problems[8]!]) {
      for (const kind of ['harder', 'easier'] as const) {
        const out = await remakeProblem(problem, worksheet, { kind });
        expect(out.kind).toBe('remade');
        if (out.kind !== 'remade') continue;
        const next = asProblem(problem, out.problem);
        expect(next.prompt).not.toBe(problem.prompt);
        expect(mathTopicOf(next.source?.generator)).toBe('speed');
        expect(kind === 'harder' ? difficultyOf(next) > difficultyOf(problem) : difficultyOf(next) < difficultyOf(problem)).toBe(true);
        expect(await errorsOf(next, 'ja')).toEqual([]);
      }
    }
  });

  it('translate: the same problem in the other language, its answer and the order of its choices kept', async () => {
    for (const subject of ['math', 'kanji', 'english']) {
      const worksheet = await sheet(subject, 'en');
      const problem = worksheet.problems[0]!;
      const out = await remakeProblem(problem, worksheet, { kind: 'translate', language: 'ja' });
      expect(out.kind).toBe('remade');
      if (out.kind !== 'remade') continue;
      expect(problemLanguage(out.problem)).toBe('ja');
      expect(out.problem.correctChoiceIndex).toBe(problem.correctChoiceIndex);
      expect(out.problem.source).toEqual(problem.source);
      expect(await errorsOf(asProblem(problem, out.problem), 'ja')).toEqual([]);
    }
    // A topic sheet's wrong words come from the topic: a translation keeps them (the record does not hold the sheet's words).
    const animals = await generateOfflineWorksheet(
      'ws-remake-animals',
      { subject: 'English vocabulary', difficulty: 'easy', language: 'en', topic: 'animals' },
      NOW,
    );
    for (const problem of animals.problems.filter((candidate) => candidate.type === 'multiple_choice')) {
      const out = await remakeProblem(problem, animals, { kind: 'translate', language: 'ja' });
      expect(out.kind === 'remade' && out.problem.choices).toEqual(problem.choices);
    }
    // Already in that language: refused, with the reason in the sheet's language.
    const ja = await sheet('math', 'ja');
    const same = await remakeProblem(ja.problems[0]!, ja, { kind: 'translate', language: 'ja' });
    expect(same).toEqual({ kind: 'refused', reason: 'この問題はすでに日本語です。' });
  });

  it('another topic: the topic named, or the next one; a subject without topics refuses', async () => {
    const worksheet = await sheet('math', 'en', 'normal', 'fractions');
    const problem = worksheet.problems[2]!;
    const named = await remakeProblem(problem, worksheet, { kind: 'topic', topic: 'volume' });
    expect(named.kind === 'remade' && mathTopicOf(named.problem.source?.generator)).toBe('volume');
    const next = await remakeProblem(problem, worksheet, { kind: 'topic', topic: null });
    expect(next.kind === 'remade' && mathTopicOf(next.problem.source?.generator)).not.toBe('fractions');
    const kanji = await sheet('kanji', 'en');
    expect(await remakeProblem(kanji.problems[0]!, kanji, { kind: 'topic', topic: null })).toEqual({
      kind: 'refused',
      reason: 'Problems of this subject take no topic.',
    });
  });

  it('other wrong choices: the answer kept, the choices changed, or refused when there are no others', async () => {
    const worksheet = await sheet('math', 'en', 'hard', 'equations');
    const problem = worksheet.problems[1]!;
    for (const how of ['closest', 'different'] as const) {
      const out = await remakeProblem(problem, worksheet, { kind: 'distractors', how });
      expect(out.kind).toBe('remade');
      if (out.kind !== 'remade') continue;
      expect(out.problem.prompt).toBe(problem.prompt);
      expect(answerText(out.problem)).toBe(answerText(problem));
      expect([...out.problem.choices!].sort()).not.toEqual([...problem.choices!].sort());
    }
    const written = worksheet.problems[8]!;
    expect((await remakeProblem(written, worksheet, { kind: 'distractors', how: 'different' })).kind).toBe('refused');
  });

  it('more concrete: a math question set in an everyday scene, same numbers and answer; a kanji explanation with other words read alike', async () => {
    const worksheet = await sheet('math', 'en', 'normal', 'fractions');
    const problem = worksheet.problems[0]!;
    const out = await remakeProblem(problem, worksheet, { kind: 'concrete' });
    if (out.kind !== 'remade') throw new Error(out.reason);
    const next = asProblem(problem, out.problem);
    expect(next.prompt).toMatch(/cake|ribbon/);
    expect(next.choices).toEqual(problem.choices);
    expect(next.source).toEqual({ ...problem.source, form: 'context' });
    expect(await errorsOf(next, 'en')).toEqual([]);
    // The scene stays through a translation (the record keeps the form).
    const translated = await remakeProblem(next, worksheet, { kind: 'translate', language: 'ja' });
    expect(translated.kind === 'remade' && translated.problem.prompt).toMatch(/ケーキ|リボン/);
    const kanji = await sheet('kanji', 'ja');
    const word = kanji.problems[8]!;
    const examples = await remakeProblem(word, kanji, { kind: 'examples' });
    if (examples.kind !== 'remade') throw new Error(examples.reason);
    expect(examples.problem.prompt).toBe(word.prompt);
    expect(examples.problem.explanation.startsWith(word.explanation.trim())).toBe(true);
    expect(examples.problem.explanation).toMatch(/と読む語: .+（.+）/);
  });

  it('reads which edit "more concrete" asks for: a scene for multiple choice or when asked, the answer form for a written prompt', async () => {
    const worksheet = await sheet('math', 'ja', 'normal', 'percentages');
    const [choice, written] = [worksheet.problems[0]!, worksheet.problems[8]!];
    expect(remakeFor('specify', '問題文をもっと具体的にして', choice, 'ja', 'prompt')).toEqual({ kind: 'concrete' });
    expect(remakeFor('specify', '問題文をもっと具体的にして', written, 'ja', 'prompt')).toBeNull();
    expect(remakeFor('specify', '身近な場面の問題にして', written, 'ja', 'prompt')).toEqual({ kind: 'concrete' });
    const kanji = await sheet('kanji', 'ja');
    expect(remakeFor('specify', '解説を詳しく', kanji.problems[0]!, 'ja', 'explanation')).toEqual({ kind: 'examples' });
  });

  it('a problem with no record (a teacher wrote it) is refused, not rewritten', async () => {
    const worksheet = await sheet('math', 'ja');
    const own = { ...worksheet.problems[0]!, source: null };
    const out = await remakeProblem(own, worksheet, { kind: 'harder' });
    expect(out.kind).toBe('refused');
    expect(out.kind === 'refused' && out.reason).toMatch(/自動生成/);
  });
});

describe('one check before and after saving', () => {
  const percentProblem = async (): Promise<{ worksheet: Worksheet; problem: Problem }> => {
    const worksheet = await sheet('math', 'en', 'normal', 'percentages');
    return { worksheet, problem: worksheet.problems[0]! };
  };

  it('new numbers typed into a generated prompt: the record follows them, the check flags the old answer, the fix rebuilds every part', async () => {
    const { problem } = await percentProblem();
    const percent = Number(problem.source!.params.percent);
    const edited = problem.prompt.replace(`${percent}%`, `${percent === 50 ? 20 : 50}%`);
    const { problem: saved, edits } = editProblem(problem, { field: 'prompt', value: edited }, 'user', NOW);
    expect(saved.source?.params.percent).toBe(percent === 50 ? 20 : 50);
    expect(edits.map((edit) => edit.field)).toEqual(['prompt', 'source']);
    const errors = await errorsOf(saved, 'en');
    expect(errors.length).toBeGreaterThan(0);
    const { fixes } = await autoFix(saved, 'en');
    // Choices, mark and explanation together, not the marked choice alone.
    expect(Object.keys(fixes)).toEqual(expect.arrayContaining(['choices', 'explanation']));
    expect(await errorsOf({ ...saved, ...fixes }, 'en')).toEqual([]);
  });

  it('text added around the prompt (a hint) keeps the record', async () => {
    const { problem } = await percentProblem();
    const { problem: saved } = editProblem(
      problem,
      { field: 'prompt', value: `${problem.prompt} (hint: a percent is a number out of 100)` },
      'agent',
      NOW,
    );
    expect(saved.source).toEqual(problem.source);
  });

  it('a prompt rewritten freely drops the record, and the text is checked', async () => {
    const { problem } = await percentProblem();
    const { problem: saved } = editProblem(problem, { field: 'prompt', value: 'A shop takes some money off. How much?' }, 'user', NOW);
    expect(saved.source).toBeNull();
  });
});

describe('a whole rebuild is one edit', () => {
  it('its fields share one version and are undone together', async () => {
    const worksheet = await sheet('math', 'en', 'easy');
    const problem = worksheet.problems[0]!;
    const out = await remakeProblem(problem, worksheet, { kind: 'harder' });
    if (out.kind !== 'remade') throw new Error(out.reason);
    const { problem: next, edits } = editProblem(problem, changesTo(problem, asProblem(problem, out.problem)), 'agent', NOW);
    expect(next.version).toBe(problem.version + 1);
    expect(new Set(edits.map((edit) => edit.version))).toEqual(new Set([next.version]));
    const earlier = { version: 1, field: 'explanation' as const, before: 'a', after: 'b', by: 'user' as const, at: NOW };
    expect(undoTarget([earlier, ...edits])).toEqual(edits);
  });
});

describe('what a request asks for', () => {
  it('reads "too easy" as harder, a named topic with a change as a topic change, and several edits at once', () => {
    expect(analyzeIntent('これちょっと簡単すぎました。むずかしめにしてください').intent).toBe('harden');
    expect(analyzeIntent('This is too hard for my class').intent).toBe('simplify');
    expect(analyzeIntent('この問題を体積の問題に変えてください').intent).toBe('topic');
    expect(analyzeIntent('Can you swap this for a percentages question instead?').intent).toBe('topic');
    expect(analyzeIntent('問題文ながいです。もっとみじかくして').intent).toBe('shorten');
    expect(analyzeIntent('Can you make this more concrete, real life?').intent).toBe('specify');
    const { intent } = analyzeIntent('もう少しやさしくして、ヒントも付けてください');
    expect(otherEditIntents('もう少しやさしくして、ヒントも付けてください', intent)).toEqual(intent === 'hint' ? ['simplify'] : ['hint']);
    expect(otherEditIntents('too easy, make it harder', 'harden')).toEqual([]);
    // Both languages named: the one the problem is not in yet is the target.
    expect(targetLanguage('Put the question in Japanese but leave the options in English', 'en')).toBe('ja');
    expect(targetLanguage('英語にしてください', 'ja')).toBe('en');
    expect(targetLanguage('translate this', 'en')).toBe('ja');
  });
});

describe('the rule-based editor', () => {
  it('adds a hint to the prompt even when the request also names the choices', async () => {
    const worksheet = await sheet('math', 'en', 'normal', 'areas');
    const own = { ...worksheet.problems[0]!, source: null };
    const edit = ruleEdit(own, 'choices', 'hint', 'en');
    expect(edit.kind).toBe('edited');
    expect(edit.kind === 'edited' && edit.field).toBe('prompt');
  });

  it('gives no first-letter hint for a number (it would give half the answer away), and says so', async () => {
    const worksheet = await sheet('math', 'en', 'normal', 'areas');
    const own = {
      ...worksheet.problems[0]!,
      source: null,
      prompt: 'How many legs do 3 spiders have?',
      choices: ['24', '18', '32', '21'],
      correctChoiceIndex: 0,
    };
    expect(ruleEdit(own, 'prompt', 'hint', 'en').kind).toBe('refused');
  });
});
