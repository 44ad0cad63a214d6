import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import kuromoji from 'kuromoji';
import { beforeAll, describe, expect, it } from 'vitest';
import { toHiragana } from 'wanakana';
import { Problem } from '@convo/contract';
import { generateOfflineWorksheet } from '@convo/workbench';
import {
  englishTopicWords,
  englishWordFrequency,
  generateEnglishProblems,
  loadEnglishData,
  type EnglishData,
  type Pos,
} from '@convo/workbench/internal/generate/english';
import { generateKanjiProblems, kanjiGradeOf, kanjiWordRank, loadKanjiData } from '@convo/workbench/internal/generate/kanji';
import { placeAnswer, seededRandom, type GeneratedProblem, type GeneratorInput } from '@convo/workbench/internal/generate/random';

const DIFFICULTIES = ['easy', 'normal', 'hard'] as const;
const NOW = new Date(0).toISOString();

/** What kuromoji's tokenizer exposes beyond its typings: the trie and token info dictionary it looks words up in. */
type Tokenizer = {
  tokenize(text: string): { reading?: string }[];
  viterbi_builder: { trie: { commonPrefixSearch(key: string): { k: string; v: number }[] } };
  token_info_dictionary: { target_map: Record<number, number[]>; getFeatures(id: string): string };
};

let tokenizer: Tokenizer;
let english: EnglishData;

beforeAll(async () => {
  const dicPath = join(dirname(createRequire(import.meta.url).resolve('kuromoji/package.json')), 'dict');
  // Independent of the generator: kuromoji's own builder, its own tokenizer.
  const [built] = await Promise.all([
    new Promise<Tokenizer>((resolve, reject) =>
      kuromoji.builder({ dicPath }).build((err, t) => (err ? reject(err) : resolve(t as unknown as Tokenizer))),
    ),
    loadKanjiData(),
  ]);
  tokenizer = built;
  english = await loadEnglishData();
});

/** The reading the tokenizer gives a surface, in hiragana. */
function tokenizerReading(surface: string): string {
  return toHiragana(
    tokenizer
      .tokenize(surface)
      .map((token) => token.reading ?? '')
      .join(''),
  );
}

/** Every reading the dictionary has for the surface, over all its entries (hiragana). */
function dictionaryReadings(surface: string): Set<string> {
  const readings = new Set<string>();
  for (const { k, v } of tokenizer.viterbi_builder.trie.commonPrefixSearch(surface)) {
    if (k !== surface) continue;
    for (const id of tokenizer.token_info_dictionary.target_map[v] ?? []) {
      const reading = tokenizer.token_info_dictionary.getFeatures(String(id)).split(',')[8];
      if (reading && reading !== '*') readings.add(toHiragana(reading));
    }
  }
  return readings;
}

/** A generated problem parses as a stored Problem once the worksheet's fields are added. */
function expectValidProblem(problem: GeneratedProblem, index: number): void {
  const parsed = Problem.safeParse({ ...problem, id: `p-${index}`, worksheetId: 'w-1', index: index + 1, version: 1 });
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
}

function expectFourDistinctChoices(problem: GeneratedProblem): string[] {
  expect(problem.type).toBe('multiple_choice');
  const choices = problem.choices!;
  expect(choices).toHaveLength(4);
  expect(new Set(choices).size).toBe(4);
  for (const choice of choices) expect(choice.trim()).not.toBe('');
  expect(problem.correctChoiceIndex).toBeGreaterThanOrEqual(0);
  expect(problem.correctChoiceIndex).toBeLessThan(4);
  expect(problem.modelAnswer).toBeNull();
  return choices;
}

function expectWritten(problem: GeneratedProblem, answer: string): void {
  expect(problem.type).toBe('written');
  expect(problem.choices).toBeNull();
  expect(problem.correctChoiceIndex).toBeNull();
  expect(problem.modelAnswer).toBe(answer);
  expect(problem.rubric!.length).toBeGreaterThan(0);
}

const input = (
  difficulty: GeneratorInput['difficulty'],
  type: GeneratorInput['type'],
  seed = 'seed-1',
  language: GeneratorInput['language'] = 'ja',
  count = type === 'written' ? 3 : 7,
): GeneratorInput => ({
  count,
  difficulty,
  language,
  seed,
  type,
});

describe('random helpers', () => {
  it('seededRandom repeats for one seed and differs between seeds', () => {
    const a = seededRandom('x');
    const b = seededRandom('x');
    const c = seededRandom('y');
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect([c(), c(), c()]).not.toEqual(first);
    for (const value of first) expect(value >= 0 && value < 1).toBe(true);
  });

  it('placeAnswer keeps every item and says where the answer went', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const { choices, correctIndex } = placeAnswer('right', ['a', 'b', 'c'], seededRandom(`s${i}`));
      expect([...choices].sort()).toEqual(['a', 'b', 'c', 'right']);
      expect(choices[correctIndex]).toBe('right');
      seen.add(correctIndex);
    }
    expect(seen.size).toBe(4);
  });
});

describe('kanji readings (kanji.reading)', () => {
  for (const difficulty of DIFFICULTIES) {
    it(`${difficulty}: 7 multiple choice and 3 written problems, answers as kuromoji reads them`, async () => {
      const choice = await generateKanjiProblems(input(difficulty, 'multiple_choice'));
      const written = await generateKanjiProblems(input(difficulty, 'written'));
      expect(choice).toHaveLength(7);
      expect(written).toHaveLength(3);
      [...choice, ...written].forEach(expectValidProblem);
      const surfaces = choice.map((p) => p.source!.params.surface as string);
      expect(new Set(surfaces).size).toBe(7);
      for (const problem of choice) {
        const { surface, reading } = problem.source!.params as { surface: string; reading: string };
        expect(problem.source!.generator).toBe('kanji.reading');
        expect(surface).toMatch(/^\p{Unified_Ideograph}{2,3}$/u);
        expect(problem.prompt).toContain(`『${surface}』`);
        const choices = expectFourDistinctChoices(problem);
        expect(choices[problem.correctChoiceIndex!]).toBe(reading);
        expect(tokenizerReading(surface)).toBe(reading);
        const valid = dictionaryReadings(surface);
        expect(valid.has(reading)).toBe(true);
        for (const [i, kana] of choices.entries()) {
          expect(kana).toMatch(/^[ぁ-ゖ]+$/);
          if (i !== problem.correctChoiceIndex) expect(valid.has(kana), `${surface}: ${kana} is a dictionary reading`).toBe(false);
        }
        expect(problem.explanation).toContain(reading);
      }
      for (const problem of written) {
        const { surface, reading } = problem.source!.params as { surface: string; reading: string };
        expectWritten(problem, reading);
        expect(tokenizerReading(surface)).toBe(reading);
        expect(problem.prompt).toBe(`『${surface}』の読みをひらがなで書きなさい。`);
      }
    });
  }

  it('writes English prompts for an English worksheet', async () => {
    const [problem] = await generateKanjiProblems(input('easy', 'multiple_choice', 'seed-1', 'en', 1));
    const surface = problem!.source!.params.surface as string;
    expect(problem!.prompt).toBe(`Choose the correct reading of 『${surface}』.`);
  });

  it('is deterministic for a seed and varies with it', async () => {
    const a = await generateKanjiProblems(input('normal', 'multiple_choice', 'alpha'));
    const b = await generateKanjiProblems(input('normal', 'multiple_choice', 'alpha'));
    const c = await generateKanjiProblems(input('normal', 'multiple_choice', 'beta'));
    expect(b).toEqual(a);
    expect(c.map((p) => p.source!.params.surface)).not.toEqual(a.map((p) => p.source!.params.surface));
  });

  it('draws easy words from commoner ones than hard words', async () => {
    const mean = async (difficulty: GeneratorInput['difficulty']): Promise<number> => {
      const problems = await generateKanjiProblems(input(difficulty, 'written', 'freq', 'ja', 20));
      const ranks = await Promise.all(problems.map((p) => kanjiWordRank(p.source!.params.surface as string)));
      return ranks.reduce<number>((sum, rank) => sum + rank!, 0) / ranks.length;
    };
    const [easy, normal, hard] = [await mean('easy'), await mean('normal'), await mean('hard')];
    expect(easy).toBeLessThan(normal);
    expect(normal).toBeLessThan(hard);
  });
});

describe('kanji readings by school grade', () => {
  it('keeps each level to the grades it teaches, and a grade topic to words whose hardest kanji is of that grade', async () => {
    const easy = await generateKanjiProblems(input('easy', 'multiple_choice', 'grades', 'ja', 7));
    expect(easy.every((problem) => kanjiGradeOf(String(problem.source!.params.surface)) <= 3)).toBe(true);
    const second = await generateKanjiProblems({ ...input('normal', 'multiple_choice', 'grade-2', 'ja', 7), topic: '2年生' });
    expect(second).toHaveLength(7);
    expect(second.every((problem) => kanjiGradeOf(String(problem.source!.params.surface)) === 2)).toBe(true);
    expect([kanjiGradeOf('学校'), kanjiGradeOf('勧誘'), kanjiGradeOf('醤油')]).toEqual([1, 8, 9]);
  });
});

describe('English vocabulary (english.vocabulary)', () => {
  for (const difficulty of DIFFICULTIES) {
    it(`${difficulty}: 7 multiple choice and 3 written problems over WordNet glosses`, async () => {
      const choice = await generateEnglishProblems(input(difficulty, 'multiple_choice', 'seed-1', 'en'));
      const written = await generateEnglishProblems(input(difficulty, 'written', 'seed-1', 'en'));
      expect(choice).toHaveLength(7);
      expect(written).toHaveLength(3);
      [...choice, ...written].forEach(expectValidProblem);
      expect(new Set(choice.map((p) => p.source!.params.word)).size).toBe(7);
      for (const problem of choice) {
        const { word, pos, synsetOffset } = problem.source!.params as { word: string; pos: Pos; synsetOffset: number };
        expect(problem.source!.generator).toBe('english.vocabulary');
        const entry = english.byKey.get(`${word}:${pos}`)!;
        expect(entry.synsetOffset).toBe(synsetOffset);
        const choices = expectFourDistinctChoices(problem);
        const byGloss = problem.prompt.startsWith('What does');
        expect(choices[problem.correctChoiceIndex!]).toBe(byGloss ? entry.gloss : word);
        // Every wrong choice is a word (or the gloss of a word) of the same part of speech that is no synonym.
        for (const [i, choice] of choices.entries()) {
          if (i === problem.correctChoiceIndex) continue;
          const other = byGloss ? english.words.find((w) => w.pos === pos && w.gloss === choice) : english.byKey.get(`${choice}:${pos}`);
          expect(other, `${word}: ${choice}`).toBeDefined();
          expect(other!.gloss).not.toBe(entry.gloss);
          expect(entry.related.has(other!.word)).toBe(false);
          expect(other!.synsets.some((offset) => entry.synsets.includes(offset))).toBe(false);
        }
      }
      for (const problem of written) {
        const { word, pos } = problem.source!.params as { word: string; pos: Pos };
        expectWritten(problem, word);
        expect(problem.prompt).toContain(`starts with '${word[0]}'`);
        expect(problem.prompt).toContain(english.byKey.get(`${word}:${pos}`)!.gloss);
      }
    });
  }

  it('writes Japanese prompts for a Japanese worksheet, the gloss in English', async () => {
    const problems = await generateEnglishProblems(input('easy', 'multiple_choice', 'seed-2', 'ja', 6));
    for (const problem of problems)
      expect(problem.prompt).toMatch(/^(次の意味を表す英単語を選びなさい：“.+”|“[a-z]+” の意味として正しいものを選びなさい。)$/);
  });

  it('is deterministic for a seed and varies with it', async () => {
    const a = await generateEnglishProblems(input('easy', 'multiple_choice', 'alpha', 'en'));
    const b = await generateEnglishProblems(input('easy', 'multiple_choice', 'alpha', 'en'));
    const c = await generateEnglishProblems(input('easy', 'multiple_choice', 'beta', 'en'));
    expect(b).toEqual(a);
    expect(c.map((p) => p.source!.params.word)).not.toEqual(a.map((p) => p.source!.params.word));
  });

  it('draws easy words from more frequent ones than hard words', async () => {
    const mean = async (difficulty: GeneratorInput['difficulty']): Promise<number> => {
      const problems = await generateEnglishProblems(input(difficulty, 'written', 'freq', 'en', 20));
      const counts = await Promise.all(
        problems.map((p) => englishWordFrequency(p.source!.params.word as string, p.source!.params.pos as Pos)),
      );
      return counts.reduce((sum, count) => sum + count!.tagCount, 0) / counts.length;
    };
    const [easy, normal, hard] = [await mean('easy'), await mean('normal'), await mean('hard')];
    expect(easy).toBeGreaterThan(normal);
    expect(normal).toBeGreaterThan(hard);
  });

  it('offers short choices: a meaning too long to read four of is the question, and the words are the choices', async () => {
    for (const difficulty of DIFFICULTIES) {
      const problems = await generateEnglishProblems(input(difficulty, 'multiple_choice', 'short', 'en', 20));
      for (const problem of problems)
        expect(Math.max(...problem.choices!.map((choice) => choice.split(/\s+/).length))).toBeLessThanOrEqual(8);
    }
  });

  it('on a topic, asks only about kinds of that thing, named in either language, and refuses a topic too small for a sheet', async () => {
    const animals = new Set((await englishTopicWords('animals')).map((word) => word.word));
    expect(animals.has('horse')).toBe(true);
    expect(animals.has('apple')).toBe(false);
    // The Japanese name reaches the same kind through EDICT's gloss.
    expect(new Set((await englishTopicWords('動物')).map((word) => word.word))).toEqual(animals);
    // A plural that is also a lemma of its own ("feelings": sensitivity) still names the kind ("feeling").
    expect((await englishTopicWords('feelings')).map((word) => word.word)).toContain('anger');
    // A topic in kana is read through the kanji word it spells (くだもの → 果物 → fruit); its kinds may be each other's wrong choices.
    expect((await englishTopicWords('くだもの')).map((word) => word.word)).toContain('apple');
    const fruit = await generateOfflineWorksheet(
      'ws-topic-fruit',
      { subject: 'English vocabulary', difficulty: 'easy', language: 'ja', topic: 'くだもの' },
      NOW,
    );
    expect(fruit.problems).toHaveLength(10);
    const sheet = await generateOfflineWorksheet(
      'ws-topic-animals',
      { subject: 'English vocabulary', difficulty: 'easy', language: 'ja', topic: '動物' },
      NOW,
    );
    expect(sheet.problems).toHaveLength(10);
    expect(sheet.problems.every((problem) => animals.has(String(problem.source?.params.word)))).toBe(true);
    // Each word once on the sheet, the written part included.
    expect(new Set(sheet.problems.map((problem) => problem.source?.params.word)).size).toBe(10);
    await expect(
      generateOfflineWorksheet(
        'ws-topic-school',
        { subject: 'English vocabulary', difficulty: 'easy', language: 'en', topic: 'school life' },
        NOW,
      ),
    ).rejects.toMatchObject({ code: 'unsupported_topic', message: expect.stringMatching(/Too few words.*kind of thing/) });
  });
});
