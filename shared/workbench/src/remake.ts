import type { Difficulty, Problem, ProblemEdit, ProblemSource, Worksheet } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import { MATH_TOPIC_NAMES } from './subjects.js';
import { type Intent, targetLanguage, topicNamed, wantsCloserChoices, wantsScene } from './edit.js';
import {
  buildMathProblem,
  drawMathProblem,
  MATH_TOPICS,
  type MathParams,
  type MathTopic,
  mathContextOf,
  mathTopicOf,
  paramsFromPrompt,
} from './generate/math.js';
import { type GeneratedProblem, type GeneratorInput, seededRandom } from './generate/random.js';
import type { Pos } from './generate/english.js';
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
  | { kind: 'distractors'; how: 'closest' | 'different' }
  /** The question set in an everyday scene (math). */
  | { kind: 'concrete' }
  /** The explanation gains other words that read each kanji the same way (kanji readings). */
  | { kind: 'examples' };

/** A field an edit records: an editable one, or the rubric and record a whole rebuild changes. */
export type RecordedField = ProblemEdit['field'];
export type FieldChange = { field: RecordedField; value: unknown };

export type RemakeOutcome = { kind: 'remade'; problem: GeneratedProblem; change: string } | { kind: 'refused'; reason: string };

type Sheet = Pick<Worksheet, 'difficulty' | 'language'>;

const LEVELS: Difficulty[] = ['easy', 'normal', 'hard'];
const say = (language: 'ja' | 'en', ja: string, en: string) => (language === 'ja' ? ja : en);
const refused = (language: 'ja' | 'en', ja: string, en: string): RemakeOutcome => ({ kind: 'refused', reason: say(language, ja, en) });

/**
 * The rebuild a request asks the rule-based editor for, or null: harder,
 * easier (a problem without a record gets a hint instead, see ruleEdit),
 * translated, another topic, other or closer wrong choices.
 */
export function remakeFor(
  intent: Intent,
  instruction: string,
  problem: Problem,
  language: 'ja' | 'en',
  section: 'prompt' | 'choices' | 'explanation',
): Remake | null {
  switch (intent) {
    case 'specify':
    case 'improve':
      // More concrete: a kanji's explanation with other words that read it so; a math question in an everyday scene when
      // the request asks for one, or when it is multiple choice (its choices already show the form of the answer, which
      // is what a written one's prompt can state instead, see ruleEdit).
      if (section === 'explanation') return problem.source?.generator === 'kanji.reading' ? { kind: 'examples' } : null;
      if (problem.type === 'written' && !wantsScene(instruction)) return null;
      return problem.source &&
        mathContextOf(problem.source.generator, problem.source.params as MathParams) &&
        problem.source.form !== 'context'
        ? { kind: 'concrete' }
        : null;
    case 'harden':
      return { kind: 'harder' };
    case 'simplify':
      return problem.source ? { kind: 'easier' } : null;
    case 'translate':
      return { kind: 'translate', language: targetLanguage(instruction, problemLanguage(problem) ?? language) };
    case 'topic':
      return { kind: 'topic', topic: topicNamed(instruction) };
    case 'distractors':
      return { kind: 'distractors', how: wantsCloserChoices(instruction) ? 'closest' : 'different' };
    default:
      return null;
  }
}

const remade = (problem: GeneratedProblem, language: 'ja' | 'en', ja: string, en: string): RemakeOutcome => ({
  kind: 'remade',
  problem,
  change: say(language, ja, en),
});

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
      // The same choices: a word's wrong choices were drawn from its sheet's words, which the record does not hold.
      const built = await rebuildFromRecord(source, problem.type, remake.language, new Set(), problem.choices ?? undefined);
      if (!built) return cannotRebuild(language);
      return remake.language === 'en'
        ? remade(built, language, '英語に翻訳', 'translated into English')
        : remade(built, language, '日本語に翻訳', 'translated into Japanese');
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
      return remake.how === 'closest'
        ? remade(built, language, '選択肢を正解に近い誤答に変更', 'wrong choices closer to the answer')
        : remade(built, language, '選択肢を別の誤答に変更', 'other wrong choices');
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
      const drawn = drawMathProblem(
        { topic: next, difficulty: sheet.difficulty, type: problem.type, language: current },
        seededRandom(`${problem.id}:${problem.version}:topic:${next}`),
      );
      if (!drawn) return cannotRebuild(language);
      return remade(drawn, language, `題材を「${MATH_TOPIC_NAMES[next].ja}」に変更`, `topic changed to ${MATH_TOPIC_NAMES[next].en}`);
    }
    case 'harder':
    case 'easier':
      return relevel(problem, source, sheet, current, remake.kind);
    case 'concrete': {
      const built = await rebuildFromRecord({ ...source, form: 'context' }, problem.type, current);
      if (!built || built.prompt === problem.prompt) return cannotRebuild(language);
      return remade(built, language, '問題文を身近な場面に変更', 'set in an everyday scene');
    }
    case 'examples': {
      const surface = String(source.params.surface ?? '');
      const { kanjiExamples } = await import('./generate/kanji.js');
      const examples = await kanjiExamples(surface, current);
      if (!examples || problem.explanation.includes(examples))
        return refused(
          language,
          'この語の漢字を同じ読みで使う語が辞書に見つかりません。',
          'No other words read its kanji the same way in the dictionary.',
        );
      return remade(
        { ...problem, explanation: `${problem.explanation.trim()}\n${examples}` },
        language,
        '解説に同じ読みの語の例を追加',
        'added words that read its kanji the same way',
      );
    }
  }
}

function cannotRebuild(language: 'ja' | 'en'): RemakeOutcome {
  return refused(
    language,
    'この問題の作り方の記録から問題を作り直せませんでした。',
    'The problem could not be rebuilt from the record of how it was made.',
  );
}

/**
 * The generators of word problems, by the name their records carry: the
 * recorded word, the problem built on it, how rare it is, and fresh
 * problems of a level (their dictionaries load on first use).
 */
type WordGenerator = {
  word: (params: ProblemSource['params']) => unknown;
  build: (
    source: ProblemSource,
    type: Problem['type'],
    language: 'ja' | 'en',
    variant: number,
    avoid: ReadonlySet<string>,
    keep?: readonly string[],
  ) => Promise<GeneratedProblem | null>;
  rank: (source: ProblemSource) => Promise<number | null>;
  generate: (input: GeneratorInput) => Promise<GeneratedProblem[]>;
};

const WORD_GENERATORS: Record<string, WordGenerator> = {
  'kanji.reading': {
    word: (params) => params.surface,
    build: async (source, type, language, variant, avoid) =>
      (await import('./generate/kanji.js')).kanjiProblemFor(String(source.params.surface), type, language, variant, avoid),
    rank: async (source) => (await import('./generate/kanji.js')).kanjiDifficulty(String(source.params.surface)),
    generate: async (input) => (await import('./generate/kanji.js')).generateKanjiProblems(input),
  },
  'english.vocabulary': {
    word: (params) => params.word,
    build: async (source, type, language, variant, _avoid, keep) =>
      (await import('./generate/english.js')).englishProblemFor(
        { word: String(source.params.word), pos: source.params.pos as Pos },
        type,
        language,
        variant,
        keep,
      ),
    rank: async (source) =>
      (await (await import('./generate/english.js')).englishWordFrequency(String(source.params.word), source.params.pos as Pos))?.rank ??
      null,
    generate: async (input) => (await import('./generate/english.js')).generateEnglishProblems(input),
  },
};

/** A word generator for a record that names its word, or null (a math record, or a record of no generator). */
function wordGeneratorOf(source: ProblemSource): WordGenerator | null {
  const generator = WORD_GENERATORS[source.generator];
  return generator && typeof generator.word(source.params) === 'string' ? generator : null;
}

/** The problem built again from its record (another language, or another set of wrong choices), or null. */
export async function rebuildFromRecord(
  source: ProblemSource,
  type: Problem['type'],
  language: 'ja' | 'en',
  avoid: ReadonlySet<string> = new Set(),
  keep?: readonly string[],
): Promise<GeneratedProblem | null> {
  const variant = source.variant ?? 0;
  if (mathTopicOf(source.generator))
    return buildMathProblem({
      generator: source.generator,
      params: source.params as MathParams,
      type,
      language,
      distractors: variant === 0 ? 'typical' : variant,
      ...(source.form ? { form: source.form } : {}),
    });
  // Words have no "closest" misreadings apart from their others: any variant but the first is other ones.
  return (await wordGeneratorOf(source)?.build(source, type, language, typeof variant === 'number' ? variant : 1, avoid, keep)) ?? null;
}

/**
 * A harder or easier problem of the same kind: drawn at the next level (or at
 * the same one when there is none), and kept only when it is harder or easier
 * than this one: for numbers by the quality scorer's estimate (numbers,
 * steps, then the size of the numbers), for words by how rare the word is.
 */
async function relevel(
  problem: Problem,
  source: ProblemSource,
  sheet: Sheet,
  language: 'ja' | 'en',
  direction: 'harder' | 'easier',
): Promise<RemakeOutcome> {
  const up = direction === 'harder';
  const at = LEVELS.indexOf(sheet.difficulty);
  const targets = new Set([LEVELS[Math.max(0, Math.min(2, at + (up ? 1 : -1)))]!, sheet.difficulty]);
  const words = wordGeneratorOf(source);
  const levelOf = async (candidate: Pick<Problem, 'prompt' | 'source'>) =>
    words && candidate.source ? await words.rank(candidate.source) : difficultyOf(candidate);
  const before = await levelOf(problem);
  const better = async (candidate: GeneratedProblem) => {
    if (candidate.prompt === problem.prompt || before === null) return false;
    const level = await levelOf(candidate);
    return level !== null && (up ? level > before : level < before);
  };
  const topic = mathTopicOf(source.generator);
  for (const target of targets) {
    if (topic) {
      const random = seededRandom(`${problem.id}:${problem.version}:${direction}:${target}`);
      // Numbers: difficultyOf is synchronous, so the draw can test each candidate as it goes.
      const drawn = drawMathProblem(
        { topic, difficulty: target, type: problem.type, language },
        random,
        (candidate) => candidate.prompt !== problem.prompt && (up ? difficultyOf(candidate) > before! : difficultyOf(candidate) < before!),
      );
      if (drawn) return remade(drawn, sheet.language, ...levelChange(up));
      continue;
    }
    if (!words) break;
    const input = { count: 12, difficulty: target, language, seed: `${problem.id}:${problem.version}:${direction}`, type: problem.type };
    for (const candidate of await words.generate(input))
      if (await better(candidate)) return remade(candidate, sheet.language, ...levelChange(up));
  }
  return up
    ? refused(language, 'この種類の問題では、これより難しいものを作れません。', 'No harder problem of this kind can be made.')
    : refused(language, 'この種類の問題では、これより易しいものを作れません。', 'No easier problem of this kind can be made.');
}

function levelChange(up: boolean): [string, string] {
  return up ? ['難易度を上げて作り直し', 'rebuilt harder'] : ['難易度を下げて作り直し', 'rebuilt easier'];
}

function sameChoices(left: GeneratedProblem, right: Problem): boolean {
  return JSON.stringify([...(left.choices ?? [])].sort()) === JSON.stringify([...(right.choices ?? [])].sort());
}

/**
 * The language a problem's prompt is written in: kana make it Japanese.
 * Not @convo/text's detectLanguage, which counts kanji: an English kanji
 * question ("Choose the correct reading of 『学校』.") is English.
 */
export function problemLanguage(problem: Pick<Problem, 'prompt'>): 'ja' | 'en' | null {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(problem.prompt)) return 'ja';
  return /[a-z]{3}/i.test(problem.prompt) ? 'en' : null;
}

/**
 * The record of how a problem was made, after its prompt was edited: it
 * stays when the edit only added text around the prompt; a math record takes
 * the prompt's new numbers while the prompt still reads as the generator
 * printed it; a word's record stays while the prompt still shows the word. Otherwise the record no longer says what the problem is (null).
 */
export function recordAfterPromptEdit(source: ProblemSource, prompt: string, type: Problem['type'], before: string): ProblemSource | null {
  // Text added around the prompt as it was (a hint, an instruction) changes nothing the record says.
  if (prompt.includes(before.trim())) return source;
  if (mathTopicOf(source.generator)) {
    // Bounded: the prompt is read on whichever process saves the edit (the gateway, for a PATCH).
    const params = withinTextBudget(() => paramsFromPrompt(source.generator, source.params as MathParams, prompt, type, source.form));
    return params ? { ...source, params } : null;
  }
  const word = WORD_GENERATORS[source.generator]?.word(source.params);
  return typeof word === 'string' && prompt.includes(word) ? source : null;
}

/** The fields a rebuilt problem changes, as one edit. */
export function changesTo(problem: Problem, rebuilt: GeneratedProblem): FieldChange[] {
  const fields: Array<FieldChange['field']> = ['prompt', 'choices', 'correctChoiceIndex', 'explanation', 'modelAnswer', 'rubric', 'source'];
  return fields
    .filter((field) => JSON.stringify(problem[field] ?? null) !== JSON.stringify(rebuilt[field] ?? null))
    .map((field) => ({ field, value: rebuilt[field] ?? null }));
}
