import type { Difficulty, Problem, ProblemSource, Worksheet } from '@convo/contract';
import { MATH_TOPIC_NAMES } from './subjects.js';
import {
  buildMathProblem,
  drawMathProblem,
  MATH_TOPICS,
  type MathParams,
  type MathTopic,
  mathTopicOf,
  paramsFromPrompt,
} from './generate/math.js';
import { type GeneratedProblem, seededRandom } from './generate/random.js';
import { difficultyOf } from './quality.js';

/**
 * Edits that rewrite a generated problem as a whole: it is built again from
 * its record (`source`) by the generator that made it, so the prompt, the
 * answer, the choices, the explanation and the rubric change together and
 * agree — a harder or easier problem of the same kind, the same problem in
 * the other language, the same kind of problem on another topic, other
 * wrong choices. A problem with no record (a teacher or a model wrote it) is
 * refused with the reason: only a model can rewrite free text.
 */
export type Remake =
  | { kind: 'harder' }
  | { kind: 'easier' }
  | { kind: 'translate'; language: 'ja' | 'en' }
  | { kind: 'topic'; topic: MathTopic | null }
  | { kind: 'distractors'; how: 'closest' | 'different' };

export type RemakeOutcome = { kind: 'remade'; problem: GeneratedProblem; change: string } | { kind: 'refused'; reason: string };

type Sheet = Pick<Worksheet, 'difficulty' | 'language'>;

const LEVELS: Difficulty[] = ['easy', 'normal', 'hard'];
const say = (language: 'ja' | 'en', ja: string, en: string) => (language === 'ja' ? ja : en);
const refused = (language: 'ja' | 'en', ja: string, en: string): RemakeOutcome => ({ kind: 'refused', reason: say(language, ja, en) });

/** The topic a request names ("速さの問題に変えて", "make it about percentages"), or null. */
export function topicNamed(request: string): MathTopic | null {
  return MATH_TOPICS.find((topic) => MATH_TOPIC_NAMES[topic].words.test(request)) ?? null;
}

/** The language a translation request asks for ("英語に", "into Japanese"), or the other one. */
export function targetLanguage(request: string, current: 'ja' | 'en'): 'ja' | 'en' {
  if (/英語|英訳|english/i.test(request)) return 'en';
  if (/日本語|和訳|japanese/i.test(request)) return 'ja';
  return current === 'ja' ? 'en' : 'ja';
}

export async function remakeProblem(problem: Problem, sheet: Sheet, remake: Remake): Promise<RemakeOutcome> {
  const language = sheet.language;
  const source = problem.source;
  if (!source)
    return refused(
      language,
      'この問題は自動生成されたものではないため、モデルなしでは作り直せません。新しい文を指定してください。',
      'This problem was not generated here, so the rule-based editor cannot rebuild it. Give the new text instead.',
    );
  const current = problemLanguage(problem) ?? language;
  switch (remake.kind) {
    case 'translate': {
      if (remake.language === current)
        return refused(
          language,
          `この問題はすでに${remake.language === 'ja' ? '日本語' : '英語'}です。`,
          `This problem is already in ${remake.language === 'ja' ? 'Japanese' : 'English'}.`,
        );
      const built = await rebuildFromRecord(source, problem.type, remake.language);
      if (!built) return cannotRebuild(language);
      return {
        kind: 'remade',
        problem: built,
        change: say(
          language,
          remake.language === 'en' ? '英語に翻訳' : '日本語に翻訳',
          remake.language === 'en' ? 'translated into English' : 'translated into Japanese',
        ),
      };
    }
    case 'distractors': {
      if (problem.type !== 'multiple_choice')
        return refused(language, '記述式の問題には選択肢がありません。', 'A written problem has no choices.');
      const variant = remake.how === 'closest' ? 'closest' : typeof source.variant === 'number' ? source.variant + 1 : 1;
      if (remake.how === 'closest' && source.variant === 'closest')
        return refused(language, '選択肢はすでに正解に最も近い誤答です。', 'The wrong choices are already the ones closest to the answer.');
      // Other wrong choices than the ones shown: a word's misreadings other than these.
      const shown = new Set((problem.choices ?? []).filter((_, index) => index !== problem.correctChoiceIndex));
      const built = await rebuildFromRecord({ ...source, variant }, problem.type, current, shown);
      if (!built || sameChoices(built, problem))
        return refused(language, 'この問題では、ほかに使える誤答がありません。', 'This problem has no other wrong answers to offer.');
      return {
        kind: 'remade',
        problem: built,
        change: say(
          language,
          remake.how === 'closest' ? '選択肢を正解に近い誤答に変更' : '選択肢を別の誤答に変更',
          remake.how === 'closest' ? 'wrong choices closer to the answer' : 'other wrong choices',
        ),
      };
    }
    case 'topic': {
      const topic = mathTopicOf(source.generator);
      if (!topic) return refused(language, 'この教科の問題には題材がありません。', 'Problems of this subject take no topic.');
      const next = remake.topic ?? MATH_TOPICS[(MATH_TOPICS.indexOf(topic) + 1) % MATH_TOPICS.length]!;
      if (next === topic)
        return refused(
          language,
          `この問題はすでに「${MATH_TOPIC_NAMES[topic].ja}」の問題です。`,
          `This problem is already on ${MATH_TOPIC_NAMES[topic].en}.`,
        );
      const level = levelOf(problem, sheet);
      const drawn = drawMathProblem(
        { topic: next, difficulty: level, type: problem.type, language: current },
        seededRandom(`${problem.id}:${problem.version}:topic:${next}`),
      );
      if (!drawn) return cannotRebuild(language);
      return {
        kind: 'remade',
        problem: drawn,
        change: say(language, `題材を「${MATH_TOPIC_NAMES[next].ja}」に変更`, `topic changed to ${MATH_TOPIC_NAMES[next].en}`),
      };
    }
    case 'harder':
    case 'easier':
      return relevel(problem, source, sheet, current, remake.kind);
  }
}

function cannotRebuild(language: 'ja' | 'en'): RemakeOutcome {
  return refused(
    language,
    'この問題の作り方の記録から問題を作り直せませんでした。',
    'The problem could not be rebuilt from the record of how it was made.',
  );
}

/** The problem built again from its record (another language, or another set of wrong choices), or null. */
export async function rebuildFromRecord(
  source: ProblemSource,
  type: Problem['type'],
  language: 'ja' | 'en',
  avoid: ReadonlySet<string> = new Set(),
): Promise<GeneratedProblem | null> {
  const variant = source.variant ?? 0;
  if (mathTopicOf(source.generator))
    return buildMathProblem({
      generator: source.generator,
      params: source.params as MathParams,
      type,
      language,
      distractors: variant === 0 ? 'typical' : variant,
    });
  if (source.generator === 'kanji.reading' && typeof source.params.surface === 'string') {
    const { kanjiProblemFor } = await import('./generate/kanji.js');
    return kanjiProblemFor(source.params.surface, type, language, typeof variant === 'number' ? variant : 1, avoid);
  }
  if (source.generator === 'english.vocabulary' && typeof source.params.word === 'string') {
    const { englishProblemFor } = await import('./generate/english.js');
    const params = { word: source.params.word, pos: source.params.pos as 'noun' };
    return englishProblemFor(params, type, language, typeof variant === 'number' ? variant : 1);
  }
  return null;
}

/**
 * A harder or easier problem of the same kind: drawn at the next level (or at
 * the same one when there is none), and kept only when it is harder or easier
 * than this one by the quality scorer's estimate (numbers, steps, then the size of the numbers) or, for
 * words, by how rare the word is.
 */
async function relevel(
  problem: Problem,
  source: ProblemSource,
  sheet: Sheet,
  language: 'ja' | 'en',
  direction: 'harder' | 'easier',
): Promise<RemakeOutcome> {
  const up = direction === 'harder';
  const level = levelOf(problem, sheet);
  const at = LEVELS.indexOf(level);
  const targets = [LEVELS[Math.max(0, Math.min(2, at + (up ? 1 : -1)))]!, level];
  const rarity = await rarityOf(source);
  const before = rarity ?? difficultyOf(problem);
  const better = (candidate: GeneratedProblem, rank: number | null) =>
    candidate.prompt !== problem.prompt &&
    (rank !== null ? (up ? rank > before : rank < before) : up ? difficultyOf(candidate) > before : difficultyOf(candidate) < before);
  const topic = mathTopicOf(source.generator);
  for (const target of [...new Set(targets)]) {
    const random = seededRandom(`${problem.id}:${problem.version}:${direction}:${target}`);
    if (topic) {
      const drawn = drawMathProblem({ topic, difficulty: target, type: problem.type, language }, random, (candidate) =>
        better(candidate, null),
      );
      if (drawn) return { kind: 'remade', problem: drawn, change: levelChange(sheet.language, up) };
      continue;
    }
    const seed = `${problem.id}:${problem.version}:${direction}`;
    const input = { count: 12, difficulty: target, language, seed, type: problem.type };
    const candidates =
      source.generator === 'kanji.reading'
        ? await (await import('./generate/kanji.js')).generateKanjiProblems(input)
        : source.generator === 'english.vocabulary'
          ? await (await import('./generate/english.js')).generateEnglishProblems(input)
          : [];
    for (const candidate of candidates) {
      if (candidate.source && better(candidate, await rarityOf(candidate.source)))
        return { kind: 'remade', problem: candidate, change: levelChange(sheet.language, up) };
    }
  }
  return up
    ? refused(language, 'この種類の問題では、これより難しいものを作れません。', 'No harder problem of this kind can be made.')
    : refused(language, 'この種類の問題では、これより易しいものを作れません。', 'No easier problem of this kind can be made.');
}

function levelChange(language: 'ja' | 'en', up: boolean): string {
  return up ? say(language, '難易度を上げて作り直し', 'rebuilt harder') : say(language, '難易度を下げて作り直し', 'rebuilt easier');
}

/** How rare a recorded word is (its frequency rank), or null for a problem of numbers. */
async function rarityOf(source: ProblemSource): Promise<number | null> {
  if (source.generator === 'kanji.reading' && typeof source.params.surface === 'string') {
    const { kanjiWordRank } = await import('./generate/kanji.js');
    return kanjiWordRank(source.params.surface);
  }
  if (source.generator === 'english.vocabulary' && typeof source.params.word === 'string') {
    const { englishWordFrequency } = await import('./generate/english.js');
    return (await englishWordFrequency(source.params.word, source.params.pos as 'noun'))?.rank ?? null;
  }
  return null;
}

/** The level the problem was drawn at: its sheet's. */
function levelOf(_problem: Problem, sheet: Sheet): Difficulty {
  return sheet.difficulty;
}

function sameChoices(left: GeneratedProblem, right: Problem): boolean {
  return JSON.stringify([...(left.choices ?? [])].sort()) === JSON.stringify([...(right.choices ?? [])].sort());
}

/** The language a problem's prompt is written in, by its script. */
export function problemLanguage(problem: Pick<Problem, 'prompt'>): 'ja' | 'en' | null {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(problem.prompt)) return 'ja';
  return /[a-z]{3}/i.test(problem.prompt) ? 'en' : null;
}

/**
 * The record of how a problem was made, after its prompt was edited: a math
 * record takes the prompt's new numbers while the prompt still reads as the
 * generator printed it; a word's record stays while the prompt still shows
 * the word. Otherwise the record no longer says what the problem is (null).
 */
export function recordAfterPromptEdit(source: ProblemSource, prompt: string, type: Problem['type']): ProblemSource | null {
  if (mathTopicOf(source.generator)) {
    const params = paramsFromPrompt(source.generator, source.params as MathParams, prompt, type);
    return params ? { ...source, params } : null;
  }
  const word = source.params.surface ?? source.params.word;
  return typeof word === 'string' && prompt.includes(word) ? source : null;
}
