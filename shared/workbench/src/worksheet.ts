import { AppError } from '@convo/runtime';
import type { WorkbenchDraft } from './workbench-draft.js';
import {
  type ConsistencyReport,
  type CreateWorksheetBody,
  type EditableField,
  type Problem,
  type ProblemEdit,
  PROBLEM_HISTORY_MAX,
  type QualityScore,
  type Suggestions,
  type Worksheet,
} from '@convo/contract';
import { type CheckFacts, checkProblem } from './check.js';
import { autoFix } from './fix.js';
import { scoreProblem } from './quality.js';
import { suggest } from './suggest.js';
import { type FieldChange, recordAfterPromptEdit } from './remake.js';
import { generateMathProblems } from './generate/math.js';
import { type GeneratedProblem, type GeneratorInput, recordKey, seededRandom } from './generate/random.js';
import { offeredTopics, offlineSubject, supportedSubjects, topicOffered } from './subjects.js';

/**
 * A worksheet: ten problems, seven multiple choice then three written, each
 * with an id derived from the worksheet's (so a problem id finds its
 * worksheet) and a version raised by every edit.
 */
export const MULTIPLE_CHOICE_COUNT = 7;
export const WRITTEN_COUNT = 3;

export function problemId(worksheetId: string, index: number): string {
  return `${worksheetId}-p${index}`;
}

/** The worksheet a problem id belongs to (null for an id of another form). */
export function worksheetIdOf(id: string): string | null {
  return /^(.+)-p(\d{1,2})$/.exec(id)?.[1] ?? null;
}

type Generator = (input: GeneratorInput & { topic: string | null }) => Promise<GeneratedProblem[]>;

async function generatorFor(subject: string): Promise<Generator | null> {
  switch (offlineSubject(subject)) {
    case 'math':
      return async (input) => generateMathProblems(input, seededRandom(`${input.seed}:${input.type}`));
    case 'kanji': {
      const { generateKanjiProblems } = await import('./generate/kanji.js');
      return generateKanjiProblems;
    }
    case 'english': {
      const { generateEnglishProblems } = await import('./generate/english.js');
      return generateEnglishProblems;
    }
    default:
      return null;
  }
}

/** Offline generation: a subject the generators do not cover is refused with the list they do. */
export async function generateOfflineWorksheet(worksheetId: string, body: CreateWorksheetBody, now: string): Promise<Worksheet> {
  const generate = await generatorFor(body.subject);
  if (!generate) throw new UnsupportedSubjectError(body.subject, body.language);
  assertTopicOffered(body);
  const base = { difficulty: body.difficulty, language: body.language, seed: worksheetId, topic: body.topic ?? null };
  const choice = await generate({ ...base, count: MULTIPLE_CHOICE_COUNT, type: 'multiple_choice' });
  const written = await generate({
    ...base,
    count: WRITTEN_COUNT,
    type: 'written',
    exclude: new Set(choice.map((problem) => recordKey(problem.source))),
  });
  // A topic whose words cannot fill the sheet (a vocabulary topic names a kind of thing, judged here with WordNet): refused, not padded.
  if (body.topic && (choice.length < MULTIPLE_CHOICE_COUNT || written.length < WRITTEN_COUNT))
    throw new UnsupportedTopicError(
      body.subject,
      body.topic,
      body.language,
      offeredTopics(offlineSubject(body.subject)!, body.language),
      'kinds',
    );
  return assembleWorksheet(worksheetId, body, [...choice, ...written], now);
}

export function assembleWorksheet(worksheetId: string, body: CreateWorksheetBody, generated: GeneratedProblem[], now: string): Worksheet {
  const problems: Problem[] = generated.map((problem, position) => ({
    ...problem,
    id: problemId(worksheetId, position + 1),
    worksheetId,
    index: position + 1,
    version: 1,
  }));
  return {
    worksheetId,
    title: worksheetTitle(body),
    subject: body.subject,
    difficulty: body.difficulty,
    language: body.language,
    topic: body.topic ?? null,
    problems,
    createdAt: now,
    updatedAt: now,
  };
}

function worksheetTitle(body: CreateWorksheetBody): string {
  const level = { easy: { ja: '基礎', en: 'Basic' }, normal: { ja: '標準', en: 'Standard' }, hard: { ja: '発展', en: 'Advanced' } }[
    body.difficulty
  ][body.language];
  const topic = body.topic ? (body.language === 'ja' ? `（${body.topic}）` : ` (${body.topic})`) : '';
  return body.language === 'ja' ? `${body.subject}${topic} ${level}問題 10問` : `${body.subject}${topic}: ${level} worksheet, 10 problems`;
}

/** The school grade of a word's hardest kanji (1–6, 8 for the rest of the 常用漢字, 9 beyond them). */
export async function kanjiGrade(surface: string): Promise<number> {
  return (await import('./generate/kanji.js')).kanjiGradeOf(surface);
}

/** The words a vocabulary topic names (loaded on first use, with WordNet). */
export async function vocabularyTopicWords(topic: string): Promise<Set<string>> {
  const { englishTopicWords } = await import('./generate/english.js');
  return new Set((await englishTopicWords(topic)).map((word) => word.word));
}

/** A subject no generator covers, told to the teacher in the request's language with the subjects offered (no internal words). */
export class UnsupportedSubjectError extends AppError {
  constructor(subject: string, language: 'ja' | 'en') {
    const offered = supportedSubjects(language);
    super(
      'unsupported_subject',
      language === 'ja'
        ? `「${subject}」のワークシートはここでは作れません。作れる教科: ${offered.join('、')}`
        : `Worksheets for "${subject}" cannot be made here. Subjects offered: ${offered.join(', ')}`,
      { status: 422 },
    );
  }
}

/**
 * A topic the subject's generator cannot honour, told to the teacher in the
 * request's language with the topics offered: the worksheet is not made with
 * other topics under the asked one's title.
 */
export class UnsupportedTopicError extends AppError {
  /** `kinds`: the subject takes a topic that is a kind of thing, and this one names too few words. */
  constructor(subject: string, topic: string, language: 'ja' | 'en', offered: string[], takes: 'listed' | 'kinds' = 'listed') {
    const message =
      takes === 'kinds'
        ? language === 'ja'
          ? `「${subject}」の題材「${topic}」に当たる単語が足りません。題材は「動物」「食べ物」「気持ち」のように、ものの種類を漢字か英語で指定するか、空欄にしてください。`
          : `Too few words fall under the topic "${topic}" for "${subject}". Name a kind of thing ("animals", "food", "feelings"), or leave the topic empty.`
        : language === 'ja'
          ? offered.length > 0
            ? `「${subject}」の題材「${topic}」には対応していません。選べる題材: ${offered.join('、')}（空欄ならすべて）`
            : `「${subject}」のワークシートは題材を指定できません。題材を空欄にしてください。`
          : offered.length > 0
            ? `The topic "${topic}" is not offered for "${subject}". Topics offered: ${offered.join(', ')} (or leave it empty for all)`
            : `Worksheets for "${subject}" take no topic. Leave the topic empty.`;
    super('unsupported_topic', message, { status: 422 });
  }
}

/** Refuses a topic the offline generator of the body's subject cannot honour (the subject is one it covers). */
export function assertTopicOffered(body: CreateWorksheetBody): void {
  const subject = offlineSubject(body.subject);
  if (subject && !topicOffered(subject, body.topic))
    throw new UnsupportedTopicError(body.subject, body.topic ?? '', body.language, offeredTopics(subject, body.language));
}

/** Checks a new value for a field of a problem; the message says what is expected. */
export function validateEditValue(problem: Problem, field: EditableField, value: unknown): string | null {
  switch (field) {
    case 'prompt':
    case 'explanation':
      return typeof value === 'string' && value.trim() !== '' ? null : `${field} must be a non-empty string`;
    case 'choices':
      if (problem.type !== 'multiple_choice') return 'a written problem has no choices';
      return Array.isArray(value) && value.length === 4 && value.every((choice) => typeof choice === 'string')
        ? null
        : 'choices must be an array of 4 strings';
    case 'correctChoiceIndex':
      if (problem.type !== 'multiple_choice') return 'a written problem has no correct choice';
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 3 ? null : 'correctChoiceIndex must be 0, 1, 2 or 3';
    case 'modelAnswer':
      if (problem.type !== 'written') return 'a multiple-choice problem has no model answer';
      return typeof value === 'string' && value.trim() !== '' ? null : 'modelAnswer must be a non-empty string';
  }
}

/**
 * One edit of one or more fields, in one new version: the problem's next
 * version and a history record per field. A changed prompt keeps the record
 * of how the problem was made only while the prompt still reads as the
 * generator printed it (the same words, numbers maybe changed): the record
 * then takes the prompt's numbers, so the check and the auto-fix work from
 * what the prompt now says. A prompt rewritten freely drops the record and
 * the checker works from the text. Preview and save go through here, so they
 * check the same problem.
 */
export function editProblem(
  problem: Problem,
  changes: FieldChange | FieldChange[],
  by: ProblemEdit['by'],
  at: string,
): { problem: Problem; edits: ProblemEdit[] } {
  const list = Array.isArray(changes) ? [...changes] : [changes];
  const prompt = list.find((change) => change.field === 'prompt');
  if (prompt && !list.some((change) => change.field === 'source') && problem.source) {
    const source = recordAfterPromptEdit(problem.source, String(prompt.value), problem.type, problem.prompt);
    if (JSON.stringify(source) !== JSON.stringify(problem.source)) list.push({ field: 'source', value: source });
  }
  const next: Problem = {
    ...problem,
    ...Object.fromEntries(list.map((change) => [change.field, change.value])),
    version: problem.version + 1,
  };
  return {
    problem: next,
    edits: list.map((change) => ({
      version: next.version,
      field: change.field,
      before: problem[change.field],
      after: change.value,
      by,
      at,
    })),
  };
}

/**
 * Undo: the last edit that is not itself undone goes back to its values
 * before, as a new edit. Edits of one version (a problem rebuilt as a whole)
 * are one edit.
 */
export function undoTarget(history: readonly ProblemEdit[]): ProblemEdit[] | null {
  const groups: ProblemEdit[][] = [];
  for (const edit of history) {
    const last = groups.at(-1);
    if (last && last[0]!.version === edit.version) last.push(edit);
    else groups.push([edit]);
  }
  let pending = 0;
  for (let index = groups.length - 1; index >= 0; index--) {
    const group = groups[index]!;
    if (group[0]!.by === 'undo') pending++;
    else if (pending > 0) pending--;
    else return group;
  }
  return null;
}

/** An edit of a problem in a workbench session's draft: the problem replaced, the edit kept in its history. */
export function applyEdit(draft: WorkbenchDraft, problem: Problem, changes: FieldChange | FieldChange[], by: ProblemEdit['by']): Problem {
  const { problem: next, edits } = editProblem(problem, changes, by, draft.now());
  draft.updateWorkbench((workbench) => {
    const sheet = workbench.worksheet!;
    sheet.problems = sheet.problems.map((candidate) => (candidate.id === next.id ? next : candidate));
    sheet.updatedAt = draft.now();
    const history = (workbench.history[next.id] ??= []);
    history.push(...edits);
    // Bounded: a problem edited forever keeps its newest edits (older ones can no longer be undone), whole versions only.
    while (history.length > PROBLEM_HISTORY_MAX) {
      const oldest = history[0]!.version;
      const end = history.findIndex((edit) => edit.version !== oldest);
      history.splice(0, end < 0 ? history.length : end);
    }
  });
  return next;
}

/** The seed's consistency report of a problem: errors make it inconsistent; a fix is "available" only when the auto-fixer has one. */
export async function consistencyReport(problem: Problem, language: 'ja' | 'en', known?: CheckFacts): Promise<ConsistencyReport> {
  const facts = known ?? (await checkProblem(problem, language));
  const broken = facts.issues.some((issue) => issue.severity === 'error');
  const fix = broken ? await autoFix(problem, language, facts) : null;
  return { isConsistent: !broken, issues: facts.issues, autoFixAvailable: fix !== null && Object.keys(fix.fixes).length > 0 };
}

/** The SuggestionGenerator on a problem of a worksheet (its subject, difficulty and language). */
export async function suggestionsFor(
  problem: Problem,
  worksheet: Pick<Worksheet, 'subject' | 'difficulty' | 'language'>,
): Promise<Suggestions> {
  return suggest(problem, await checkProblem(problem, worksheet.language), {
    subject: offlineSubject(worksheet.subject),
    difficulty: worksheet.difficulty,
    language: worksheet.language,
  });
}

/** The QualityScorer on a problem of a worksheet. */
export async function qualityFor(
  problem: Problem,
  worksheet: Pick<Worksheet, 'difficulty' | 'language'>,
  known?: CheckFacts,
): Promise<QualityScore> {
  return scoreProblem(problem, known ?? (await checkProblem(problem, worksheet.language)), worksheet.difficulty, worksheet.language);
}

/** A problem's consistency report and quality score from one run of the checker. */
export async function assessProblem(
  problem: Problem,
  worksheet: Pick<Worksheet, 'difficulty' | 'language'>,
): Promise<{ quality: QualityScore; consistency: ConsistencyReport }> {
  const facts = await checkProblem(problem, worksheet.language);
  return { quality: await qualityFor(problem, worksheet, facts), consistency: await consistencyReport(problem, worksheet.language, facts) };
}
