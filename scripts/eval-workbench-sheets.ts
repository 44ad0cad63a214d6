import {
  checkProblem,
  generateOfflineWorksheet,
  MATH_TOPIC_NAMES,
  kanjiGrade,
  kanjiGradeNamed,
  recordKey,
  vocabularyTopicWords,
  UnsupportedTopicError,
  mathTopicOf,
  mathTopics,
  offlineSubject,
} from '@convo/workbench';
import type { CreateWorksheetBody, Difficulty } from '@convo/contract';

/**
 * `npm run eval:workbench -- --sheets N`: N generated worksheets per subject,
 * level and language (each with its own id, so its own draws), run through
 * the consistency checker. Reports, per subject and level: problems with a
 * checker error or warning, duplicate problems within a sheet (the same
 * prompt after NFKC and spacing, or the same numbers or word asked again
 * in the written part), and, for topic sheets, the share of
 * problems on the topic asked for (by the generator's record).
 */

export type SheetReport = {
  subject: string;
  difficulty: Difficulty;
  sheets: number;
  problems: number;
  errors: number;
  warnings: number;
  duplicates: number;
  offTopic: number;
  /** Sheets refused because the topic's words could not fill them. */
  refused: number;
  examples: string[];
};

const SUBJECTS: Array<{ subject: string; topics: Array<string | null> }> = [
  // Every topic the generator offers, by its Japanese name, and none.
  { subject: '算数', topics: [null, ...Object.values(MATH_TOPIC_NAMES).map((topic) => topic.ja)] },
  // School grades.
  { subject: '漢字の読み', topics: [null, '2年生', 'grade 5', '常用漢字'] },
  // Kinds of thing, in either language (a topic whose words cannot fill a sheet is refused, and counted apart).
  { subject: 'English vocabulary', topics: [null, 'animals', '食べ物', 'feelings', '乗り物'] },
];

export async function evaluateSheets(count: number): Promise<SheetReport[]> {
  const reports: SheetReport[] = [];
  for (const { subject, topics } of SUBJECTS) {
    for (const difficulty of ['easy', 'normal', 'hard'] as const) {
      const report: SheetReport = {
        subject,
        difficulty,
        sheets: 0,
        problems: 0,
        errors: 0,
        warnings: 0,
        duplicates: 0,
        offTopic: 0,
        refused: 0,
        examples: [],
      };
      for (let n = 0; n < count; n++) {
        const language = n % 2 === 0 ? 'ja' : 'en';
        const topic = topics[n % topics.length] ?? null;
        const body: CreateWorksheetBody = { subject, difficulty, language, ...(topic ? { topic } : {}) };
        const sheet = await generateOfflineWorksheet(`eval-${subject}-${difficulty}-${n}`, body, new Date(0).toISOString()).catch(
          (err: unknown) => {
            if (err instanceof UnsupportedTopicError) return null;
            throw err;
          },
        );
        if (!sheet) {
          report.refused++;
          continue;
        }
        report.sheets++;
        const seen = new Set<string>();
        const asked = topic && offlineSubject(subject) === 'math' ? mathTopics(topic) : null;
        const words = topic && offlineSubject(subject) === 'english' ? await vocabularyTopicWords(topic) : null;
        const grade = topic && offlineSubject(subject) === 'kanji' ? kanjiGradeNamed(topic) : null;
        for (const problem of sheet.problems) {
          report.problems++;
          // The same prompt twice, or the same numbers or word asked twice (in the choice part and the written one).
          const keys = [problem.prompt.normalize('NFKC').replace(/\s+/g, ' ').trim(), recordKey(problem.source)].filter(Boolean);
          if (keys.some((key) => seen.has(key))) report.duplicates++;
          for (const key of keys) seen.add(key);
          if (asked && !asked.includes(mathTopicOf(problem.source?.generator)!)) report.offTopic++;
          if (words && !words.has(String(problem.source?.params.word))) report.offTopic++;
          if (grade !== null && (await kanjiGrade(String(problem.source?.params.surface))) !== grade) report.offTopic++;
          const facts = await checkProblem(problem, language);
          const errors = facts.issues.filter((issue) => issue.severity === 'error');
          if (errors.length > 0) report.errors++;
          else if (facts.issues.length > 0) report.warnings++;
          if (facts.issues.length > 0 && report.examples.length < 3)
            report.examples.push(
              `${problem.prompt} [${problem.choices?.join(' | ') ?? problem.modelAnswer}] → ${facts.issues.map((issue) => `${issue.kind}: ${issue.issue}`).join('; ')}`,
            );
        }
      }
      reports.push(report);
    }
  }
  return reports;
}

export function printSheets(reports: SheetReport[]): void {
  console.log('\n## Generated sheets\n');
  console.log(
    '| subject | level | sheets | refused (topic too small) | problems | with an error | with a warning only | duplicates | off topic |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of reports)
    console.log(
      `| ${r.subject} | ${r.difficulty} | ${r.sheets} | ${r.refused} | ${r.problems} | ${r.errors} | ${r.warnings} | ${r.duplicates} | ${r.offTopic} |`,
    );
  for (const r of reports) for (const example of r.examples) console.log(`- ${r.subject} ${r.difficulty}: ${example}`);
}
