import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, SseParser } from '@convo/client';
import { createFaqIndex, planRuleBased, type FaqSearchIndex, type PlannerCorpus, type PlannerHistoryEntry } from '@convo/faq';
import {
  applyAudit,
  applicationDraft,
  applyPlan,
  auditTranscript,
  candidateFor,
  detectLanguageChoice,
  findCountry,
  floorViolations,
  formTurnIntake,
  newFormSession,
  preloadContentAnalyzer,
  quickCheck,
  resolveTimezone,
  resolveTopics,
  reviewAnswer,
} from '@convo/forms';
import { CHOICE_MAX_CHARS, Problem, SessionForm, Worksheet, type FactDefinition, type FaqDocument, type FormField } from '@convo/contract';
import {
  checkTextBudget,
  loadAnalyzer,
  loadKuromoji,
  setTextBudgetMs,
  textBudgetMs,
  TextBudgetExceededError,
  withinTextBudget,
  type Analyzer,
} from '@convo/text';
import {
  analyzeIntent,
  autoFix,
  checkProblem,
  findMissingGlyphs,
  renderWorksheetPdf,
  ruleEdit,
  scoreProblem,
  suggest,
  type CheckFacts,
  type EditSection,
  type Intent,
} from '@convo/workbench';
import { completionText, confirmCandidateText, questionText } from '../../services/interviewer/src/phrasing.js';

/**
 * Every synchronous text-analysis entry point, bounded on hostile input (issue 31):
 * long runs of each class of character, and alternations, at the message limit
 * (8,000 characters) and twice that. Where a schema caps the input lower (a
 * problem's fields at 4,000, a choice at 500, an FAQ question at 2,000), the
 * function behind it is still called with the long text, as it accepts it.
 *
 * Each call runs under `withinTextBudget(…, GENEROUS_MS)`: only a stall of many
 * seconds (a quadratic path on a busy 2-core machine) fails the test, with the
 * TextBudgetExceededError the budget throws. Speed itself is never asserted
 * (unit tests assert the bound, not the speed): each call's time is recorded and
 * the ten slowest are printed after the file.
 *
 * The async entry points (checkProblem, autoFix, the PDF) run their synchronous
 * part inside the same wrapper; what they do after an await runs under the
 * process's budget, which this file sets to GENEROUS_MS and puts back after.
 */

/** The budget of one call: far beyond any linear path, so only a real stall fails. */
const GENEROUS_MS = 20_000;
/** The message limit, and twice it. */
const SIZES: readonly number[] = [8_000, 16_000];
/**
 * A problem's fields are capped at 4,000 characters (PROBLEM_TEXT_MAX_CHARS) and
 * its choices at 500: the workbench's entry points run at 8,000 only, twice the
 * cap, which keeps the file short (the PDF renderer alone takes seconds per call).
 */
const PROBLEM_SIZES: readonly number[] = [8_000];

const NOW = new Date('2026-11-24T10:00:00.000Z');

/** `unit` repeated to exactly `length` characters (every unit here is made of BMP characters). */
function runOf(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** The character classes of the hostile-input probes, plus a few separators and a natural sentence. */
const CLASSES: ReadonlyArray<{ name: string; text: (length: number) => string }> = [
  { name: 'digits', text: (n) => runOf('0', n) },
  { name: 'katakana long mark', text: (n) => runOf('ー', n) },
  { name: 'katakana', text: (n) => runOf('ア', n) },
  { name: 'kanji', text: (n) => runOf('漢', n) },
  { name: 'hiragana', text: (n) => runOf('あ', n) },
  { name: 'latin', text: (n) => runOf('a', n) },
  { name: 'spaces', text: (n) => `x${' '.repeat(n - 2)}x` },
  { name: 'dots', text: (n) => runOf('.…', n) },
  { name: 'commas', text: (n) => runOf(',', n) },
  { name: 'marks', text: (n) => runOf('!?', n) },
  { name: 'ideographic full stops', text: (n) => runOf('。', n) },
  { name: 'digits and letters', text: (n) => runOf('1a', n) },
  { name: 'katakana and digits', text: (n) => runOf('ア1', n) },
  { name: 'brackets', text: (n) => runOf('(', n) },
  { name: 'decimals', text: (n) => runOf('0.', n) },
  { name: 'hyphens', text: (n) => runOf('-', n) },
  { name: 'slashes', text: (n) => runOf('/', n) },
  { name: 'at signs', text: (n) => runOf('@', n) },
  { name: 'mixed sentence', text: (n) => runOf('I have 2 cats and 3 dogs, 猫が2匹います。', n) },
];

/**
 * One entry point: `setup` builds what the call needs around the text (a problem,
 * a session; not timed) and returns the call.
 *
 * The call must return: no error is an acceptable answer. The schemas that cap
 * a text's size (zod, at the gateway) are not on these paths, and none of these
 * functions refuses a long text itself (the client's SSE parser would, past
 * 4 MiB on one line), so any error, a TextBudgetExceededError above all, fails.
 */
type EntryPoint = {
  name: string;
  /** The lengths to run at; SIZES unless the input is capped lower. */
  sizes?: readonly number[];
  setup: (text: string) => Promise<() => unknown> | (() => unknown);
};

// --- Workbench ---

const PROBLEM_BASE = { id: 'tb-p1', worksheetId: 'tb', index: 1, version: 1, source: null } as const;

/** A multiple-choice problem made of the text: prompt, explanation, a choice in full and one at the choice cap. */
function choiceProblem(text: string, prompt: string = text): Problem {
  return Problem.parse({
    ...PROBLEM_BASE,
    type: 'multiple_choice',
    prompt,
    choices: [text, text.slice(0, CHOICE_MAX_CHARS), '12', '1/2'],
    correctChoiceIndex: 0,
    modelAnswer: null,
    rubric: null,
    explanation: text,
  });
}

/** A written problem made of the text: prompt, model answer, rubric and explanation. */
function writtenProblem(text: string): Problem {
  return Problem.parse({
    ...PROBLEM_BASE,
    type: 'written',
    prompt: text,
    choices: null,
    correctChoiceIndex: null,
    modelAnswer: text,
    rubric: [text, '12'],
    explanation: text,
  });
}

/** Facts that name every kind of issue the scorer and the suggestions look at. */
const SOME_ISSUES: CheckFacts = {
  issues: (
    ['wrong_answer', 'duplicate_choice', 'off_topic_choice', 'number_mismatch', 'explanation_contradicts', 'multiple_correct'] as const
  ).map((kind) => ({
    kind,
    field: 'choices',
    severity: 'error' as const,
    issue: kind,
    suggestion: kind,
  })),
  expected: { value: 12, reading: null, solution: null },
  correctIndices: [],
};

const EDITS: ReadonlyArray<[EditSection, Intent]> = [
  ['prompt', 'simplify'],
  ['prompt', 'harden'],
  ['prompt', 'specify'],
  ['prompt', 'improve'],
  ['explanation', 'improve'],
];

/** A worksheet of the two problems above: every text it prints is the text (one choice at the choice cap). */
function worksheetOf(text: string): Worksheet {
  return Worksheet.parse({
    worksheetId: 'tb',
    title: 'Bounds',
    subject: '算数',
    difficulty: 'normal',
    language: 'ja',
    topic: null,
    problems: [choiceProblem(text), { ...writtenProblem(text), id: 'tb-p2', index: 2 }],
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
  });
}

const WORKBENCH: EntryPoint[] = (
  [
    { name: 'workbench checkProblem (choice)', setup: (text) => () => checkProblem(choiceProblem(text), 'ja') },
    { name: 'workbench checkProblem (written)', setup: (text) => () => checkProblem(writtenProblem(text), 'en') },
    // The kanji-reading rule: the quoted text is read with kuromoji.
    {
      name: 'workbench checkProblem (reading)',
      setup: (text) => () => checkProblem(choiceProblem(text, `「${text}」の読みを答えなさい。`), 'ja'),
    },
    { name: 'workbench autoFix (choice)', setup: (text) => () => autoFix(choiceProblem(text), 'ja') },
    { name: 'workbench autoFix (written)', setup: (text) => () => autoFix(writtenProblem(text), 'en') },
    {
      name: 'workbench autoFix (with issues)',
      setup: (text) => {
        const problem = choiceProblem(text);
        return () => autoFix(problem, 'ja', SOME_ISSUES);
      },
    },
    {
      name: 'workbench scoreProblem',
      setup: async (text) => {
        const problem = choiceProblem(text);
        const facts = await checkProblem(problem, 'ja');
        return () => [scoreProblem(problem, facts, 'normal', 'ja'), scoreProblem(writtenProblem(text), SOME_ISSUES, 'hard', 'en')];
      },
    },
    { name: 'workbench analyzeIntent', setup: (text) => () => analyzeIntent(text) },
    {
      name: 'workbench ruleEdit',
      setup: (text) => {
        const problems = [choiceProblem(text), writtenProblem(text)];
        return () => problems.flatMap((problem) => EDITS.map(([section, intent]) => ruleEdit(problem, section, intent, 'ja')));
      },
    },
    {
      name: 'workbench suggest',
      setup: async (text) => {
        const problem = choiceProblem(text);
        const facts = await checkProblem(problem, 'ja');
        return () => [
          suggest(problem, facts, { subject: 'math', difficulty: 'easy', language: 'ja' }),
          suggest(problem, SOME_ISSUES, { subject: 'kanji', difficulty: 'hard', language: 'en' }),
        ];
      },
    },
    { name: 'workbench findMissingGlyphs', setup: (text) => () => findMissingGlyphs(text) },
    {
      name: 'workbench renderWorksheetPdf',
      setup: (text) => {
        const worksheet = worksheetOf(text);
        // The answers sheet: prompts, choices, answers, model answers and explanations.
        return () => renderWorksheetPdf(worksheet, 'answers');
      },
    },
  ] satisfies EntryPoint[]
).map((entry) => ({ ...entry, sizes: PROBLEM_SIZES }));

// --- FAQ ---

const faqDoc = (id: string, language: 'ja' | 'en', question: string, answer: string, tags: string[]): FaqDocument => ({
  id,
  language,
  question,
  answer,
  tags,
});

/** A small shop FAQ whose shipping entries split on a region facet, so a vague question is clarified. */
const FAQ: FaqDocument[] = [
  faqDoc('ship-honshu', 'ja', '本州への送料はいくらですか？', '本州への送料は500円です。', ['送料', '配送', '地域:本州']),
  faqDoc('ship-hokkaido', 'ja', '北海道への送料はいくらですか？', '北海道への送料は800円です。', ['送料', '配送', '地域:北海道']),
  faqDoc('ship-okinawa', 'ja', '沖縄・離島への送料はいくらですか？', '沖縄・離島への送料は1200円です。', [
    '送料',
    '配送',
    '地域:沖縄・離島',
  ]),
  faqDoc('returns', 'ja', '返品ポリシーを教えてください', '返品は商品到着後30日以内に受け付けます。', ['返品']),
  faqDoc('gift-wrap', 'ja', 'ギフト包装はできますか？', '有料で承ります。', ['ギフト', '包装']),
  faqDoc('ship-us', 'en', 'How much is shipping to the US?', 'Shipping to the US costs $10.', ['shipping', 'region:US']),
  faqDoc('ship-eu', 'en', 'How much is shipping to Europe?', 'Shipping to Europe costs $15.', ['shipping', 'region:Europe']),
  faqDoc('returns-en', 'en', 'What is your return policy?', 'Returns are accepted within 30 days of delivery.', ['returns']),
];

let analyzer: Analyzer;
/** Searched and probed by the planner; never changed. */
let searchIndex: FaqSearchIndex;
/** Takes the hostile documents, one at a time under the same id. */
let uploadIndex: FaqSearchIndex;
let corpus: PlannerCorpus;
/** The planner asked which region "送料は？" is about. */
let clarifying: PlannerHistoryEntry[];

const FAQ_ENTRIES: EntryPoint[] = [
  { name: 'text analyzer tokens', setup: (text) => () => analyzer.tokens(text) },
  {
    name: 'faq planRuleBased',
    setup: (text) => () => planRuleBased({ message: text, history: [], topK: 5, language: 'auto' }, { analyzer, corpus }),
  },
  {
    name: 'faq planRuleBased (after a clarification)',
    setup: (text) => () => planRuleBased({ message: text, history: clarifying, topK: 5, language: 'auto' }, { analyzer, corpus }),
  },
  {
    // The question is capped at 2,000 characters by the upload schema; the engine takes the long text.
    name: 'faq index upsert',
    setup: (text) => () => uploadIndex.upsert([faqDoc('hostile', 'ja', text, text, [text.slice(0, 100), '配送'])]),
  },
  {
    // A search query is capped at 2,000 characters (the planner's probes, from a message, are longer).
    name: 'faq search and expansions',
    sizes: [8_000],
    setup: (text) => () => [searchIndex.search(text, { topK: 5, language: 'auto' }), searchIndex.expansions?.(text)],
  },
];

// --- Forms ---

const FORM = SessionForm.parse({
  title: 'Engineer',
  fields: [
    { id: 'f1', fieldId: 'full_name', label: 'Full name', intent: 'Identify the applicant', required: true, sortOrder: 1 },
    { id: 'f2', fieldId: 'email', label: 'Email address', intent: null, required: true, sortOrder: 2 },
    { id: 'f3', fieldId: 'phone', label: 'Phone number', intent: null, required: true, sortOrder: 3 },
    { id: 'f4', fieldId: 'size', label: 'T-shirt size (S/M/L/XL)', intent: null, required: true, sortOrder: 4 },
    { id: 'f5', fieldId: 'start', label: 'Earliest start date', intent: 'When the applicant can start', required: true, sortOrder: 5 },
    { id: 'f6', fieldId: 'experience', label: 'Years of experience', intent: null, required: true, sortOrder: 6 },
    { id: 'f7', fieldId: 'website', label: 'Portfolio URL', intent: null, required: false, sortOrder: 7 },
    {
      id: 'f8',
      fieldId: 'motivation',
      label: 'Why do you want this job?',
      intent: 'Motivation for applying',
      required: true,
      sortOrder: 8,
    },
  ],
  facts: [],
  compliance: { prohibitedTopics: ['religion'] },
});

/** An application interview: a few fields answered, the interviewer last asked about `asked`. */
function application(language: 'ja' | 'en' = 'en', asked = 'motivation') {
  const state = newFormSession({
    sessionId: 's',
    kind: 'application',
    form: FORM,
    language,
    firstAgent: 'interviewer',
    now: NOW.toISOString(),
  });
  const draft = applicationDraft(state, true);
  applyPlan(draft, {
    fields: FORM.fields.map((field) => ({
      field_id: field.fieldId,
      label: field.label,
      intent: field.intent ?? '',
      required: field.required,
    })),
  });
  draft.setCountry(language === 'ja' ? 'JP' : 'US');
  for (const [fieldId, value] of [
    ['full_name', 'Jane Doe'],
    ['email', 'jane@example.com'],
    ['size', 'M'],
    ['start', '2027-01-04'],
    ['experience', '5'],
  ] as const) {
    draft.setFieldValue(fieldId, value);
    draft.setFieldStatus(fieldId, 'done');
  }
  draft.addAssistantMessage('interviewer', 'Next question', 't0', asked);
  return draft;
}

const field = (label: string, required = true): FormField => ({ id: 'rf', fieldId: 'review', label, intent: null, required, sortOrder: 0 });
const fact = (
  factKey: string,
  text: string,
  answerType: FactDefinition['answerType'],
  extra: Partial<FactDefinition> = {},
): FactDefinition => ({
  id: `k-${factKey}`,
  formFieldId: 'rf',
  factKey,
  fact: text,
  doneCriteria: '',
  questioningHints: null,
  answerType,
  ...extra,
});

/**
 * Every kind of fact, in three fields of a few facts each (contact details, when,
 * what), so the reviews run every extractor over the answer.
 */
const REVIEW_FIELDS: ReadonlyArray<[string, FactDefinition[]]> = [
  [
    'contact',
    [
      fact('email', 'Email', 'email'),
      fact('phone', 'Phone', 'phone'),
      fact('url', 'Website', 'url'),
      fact('postal_code', 'Postal code', 'postal_code'),
      fact('name', 'Full name', 'name'),
    ],
  ],
  [
    'when',
    [
      fact('date', 'Start date', 'date'),
      fact('time', 'Preferred time', 'time'),
      fact('year', 'Year of graduation', 'year'),
      fact('period', 'Employment period', 'period'),
      fact('duration', 'How long they stayed', 'duration'),
      fact('time_range', 'Callback window', 'time_range'),
      fact('date_range', 'Leave dates', 'date_range'),
      fact('datetime', 'Appointment', 'datetime'),
    ],
  ],
  [
    'what',
    [
      fact('choice', 'Plan', 'choice', { options: ['Basic', 'Premium'] }),
      fact('yes_no', 'Whether they need parking', 'yes_no'),
      fact('number', 'Number of devices', 'number'),
      fact('text', 'What happened and what they tried', 'text', { doneCriteria: 'Describes the problem and at least one step taken' }),
    ],
  ],
];

const REVIEWS: EntryPoint[] = REVIEW_FIELDS.flatMap(([group, facts]) => [
  {
    name: `forms reviewAnswer (${group}, en)`,
    setup: (text: string) => () =>
      reviewAnswer({
        field: field('Details'),
        facts,
        answers: [text],
        language: 'en',
        country: 'US',
        timezone: 'America/New_York',
        now: NOW,
      }),
  },
  {
    name: `forms reviewAnswer (${group}, ja)`,
    setup: (text: string) => () =>
      reviewAnswer({ field: field('詳細'), facts, answers: [text], language: 'ja', country: 'JP', timezone: 'Asia/Tokyo', now: NOW }),
  },
]);

const TOPICS = resolveTopics(['religion']);

const FORMS: EntryPoint[] = [
  {
    name: 'forms quickCheck',
    setup: (text) => () =>
      quickCheck({
        question: text,
        language: 'en',
        field: { fieldId: 'motivation', label: 'Why do you want this job?', intent: 'Motivation for applying', required: true },
        facts: [{ factKey: 'why', fact: 'Why they applied', doneCriteria: 'A reason', questioningHints: null }],
        answered: [{ fieldId: 'email', label: 'Email address', facts: ['Email address'] }],
        topics: TOPICS,
      }),
  },
  {
    name: 'forms auditTranscript',
    setup: (text) => () =>
      auditTranscript({
        language: 'en',
        messages: [
          { role: 'assistant', text, fieldId: 'motivation' },
          { role: 'user', text, fieldId: 'motivation' },
        ],
        fields: [
          { fieldId: 'motivation', label: 'Why do you want this job?', intent: null, required: true, status: 'done', value: text },
          { fieldId: 'start', label: 'Earliest start date', intent: null, required: true, status: 'done', value: text },
        ],
        facts: [{ fieldId: 'start', factKey: 'start', fact: 'Earliest start date' }],
        topics: TOPICS,
        now: NOW,
      }),
  },
  { name: 'forms findCountry', setup: (text) => () => findCountry(text, { towns: true }) },
  { name: 'forms resolveTimezone', setup: (text) => () => [resolveTimezone('US', text), resolveTimezone('JP', text)] },
  { name: 'forms detectLanguageChoice', setup: (text) => () => detectLanguageChoice(text) },
  ...REVIEWS,
  {
    // A field without facts is judged by its label; earlier answers and a replaced value are read too.
    name: 'forms reviewAnswer (label only, optional)',
    setup: (text) => () =>
      reviewAnswer({
        field: field('Anything else we should know?', false),
        facts: [],
        answers: ['first', text],
        language: 'en',
        country: null,
        now: NOW,
        earlierAnswers: [text],
        replacing: '2026-01-13',
      }),
  },
  {
    name: 'forms floorViolations',
    setup: (text) => {
      const draft = application();
      return () => floorViolations(draft.state, text);
    },
  },
  {
    name: 'forms applyAudit',
    setup: (text) => {
      const draft = application();
      draft.addAssistantMessage('interviewer', text, 't1', 'motivation');
      return () => applyAudit(draft, { passed: true, violations: [], summary: text });
    },
  },
  {
    name: 'forms formTurnIntake (en)',
    setup: (text) => {
      const draft = application('en');
      return () => formTurnIntake(draft, text, 't1');
    },
  },
  {
    name: 'forms formTurnIntake (ja)',
    setup: (text) => {
      const draft = application('ja');
      return () => formTurnIntake(draft, text, 't1');
    },
  },
  {
    name: 'forms candidateFor',
    setup: (text) => {
      const draft = application('en', 'full_name');
      draft.addUserMessage(text, 't1', 'full_name');
      const website = FORM.fields.find((candidate) => candidate.fieldId === 'website')!;
      const phone = FORM.fields.find((candidate) => candidate.fieldId === 'phone')!;
      return () => [candidateFor(draft.state, website, [], NOW), candidateFor(draft.state, phone, [], NOW)];
    },
  },
];

// --- Interviewer phrasing and the client ---

const OTHER: EntryPoint[] = [
  {
    // The closing summary shows every value as the respondent gave it (an English one romanises Japanese).
    name: 'interviewer completionText',
    setup: (text) => () =>
      (['en', 'ja'] as const).map((lang) =>
        completionText(lang, [
          { label: 'Details', value: text, status: 'done' },
          { label: 'More', value: `${text}\n${text}`, status: 'done' },
        ]),
      ),
  },
  {
    name: 'interviewer confirmCandidateText',
    setup: (text) => () =>
      (['en', 'ja'] as const).map((lang) =>
        confirmCandidateText(lang, { field: { label: 'Email', intent: null, required: true }, value: text }),
      ),
  },
  {
    // A form's label (capped at 500 characters), intent, fact, criteria and hints (2,000 each) put into a question.
    name: 'interviewer questionText',
    sizes: [8_000],
    setup: (text) => () =>
      (['en', 'ja'] as const).map((lang) =>
        questionText({
          field: { label: text, intent: text, required: false },
          facts: [{ factKey: 'k', fact: text, doneCriteria: text, questioningHints: text }],
          language: lang,
          isFirst: true,
        }),
      ),
  },
  {
    // The client's text/event-stream parser: one event whose data is the text, and one long comment.
    name: 'client SseParser',
    setup: (text) => () => {
      const events: unknown[] = [];
      const parser = new SseParser({ onEvent: (message) => events.push(message) });
      parser.push(`event: message\ndata: ${text}\n\n: ${text}\n\n`);
      return events;
    },
  },
  // The base URL's trailing slashes are trimmed when the client is made.
  { name: 'client createClient base URL', setup: (text) => () => createClient({ baseUrl: `http://localhost:1/${text}` }).baseUrl },
];

const ENTRY_POINTS: EntryPoint[] = [...WORKBENCH, ...FAQ_ENTRIES, ...FORMS, ...OTHER];

// --- The runs ---

type Timing = { entry: string; characters: string; length: number; ms: number; outcome: string };
const timings: Timing[] = [];
let processBudget: number;

beforeAll(async () => {
  processBudget = textBudgetMs();
  // What the async entry points do after an await runs under the process's budget.
  setTextBudgetMs(GENEROUS_MS);
  await Promise.all([preloadContentAnalyzer(), loadKuromoji()]);
  analyzer = await loadAnalyzer();
  [searchIndex, uploadIndex] = await Promise.all([createFaqIndex(FAQ), createFaqIndex(FAQ)]);
  corpus = { probe: (query, topK) => searchIndex.search(query, { topK, language: 'auto' }) };
  const question = '送料は？';
  const plan = planRuleBased({ message: question, history: [], topK: 5, language: 'auto' }, { analyzer, corpus });
  expect(plan.needsClarification).toBe(true);
  clarifying = [
    { role: 'user', content: question },
    { role: 'assistant', content: 'どの地域についてですか？', plan },
  ];
}, 180_000);

afterAll(() => {
  setTextBudgetMs(processBudget);
  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 10);
  const rows = slowest.map((timing) => [timing.entry, timing.characters, String(timing.length), timing.ms.toFixed(1), timing.outcome]);
  const header = ['entry point', 'characters', 'length', 'ms', 'outcome'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 2 || column === 3 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ');
  console.log(
    [
      `text bounds: the ten slowest of ${timings.length} calls (budget ${GENEROUS_MS} ms each)`,
      line(header),
      line(widths.map((width) => '-'.repeat(width))),
      ...rows.map(line),
    ].join('\n'),
  );
});

/**
 * Runs the call under the generous budget. The budget is checked once more when
 * the synchronous part returns, so a path that never checks it itself is held
 * to it too. An async call's promise is carried out of the budgeted function
 * (which takes synchronous work only) and awaited after it.
 */
async function bounded(call: () => unknown): Promise<void> {
  const { pending } = withinTextBudget(() => {
    const pending = call();
    checkTextBudget();
    return { pending };
  }, GENEROUS_MS);
  await pending;
}

const CASES = ENTRY_POINTS.flatMap((entry) =>
  CLASSES.flatMap((characters) => (entry.sizes ?? SIZES).map((length) => ({ entry, characters, length }))),
);

describe('every text entry point is bounded on long runs of each character class', () => {
  it.each(CASES)(
    '$entry.name: $characters.name × $length',
    async ({ entry, characters, length }) => {
      const call = await entry.setup(characters.text(length));
      const started = performance.now();
      let failure: unknown = null;
      try {
        await bounded(call);
      } catch (error) {
        failure = error;
      }
      const outcome = failure === null ? 'returned' : failure instanceof Error ? failure.name : 'threw';
      timings.push({ entry: entry.name, characters: characters.name, length, ms: performance.now() - started, outcome });
      if (failure instanceof TextBudgetExceededError)
        throw new Error(`${entry.name} stalled on ${length} characters of ${characters.name}: past the ${GENEROUS_MS} ms budget`, {
          cause: failure,
        });
      // Any other error fails too (see EntryPoint).
      if (failure !== null) throw failure;
      // (The timeout only backs the budget up: a synchronous stall ends at the budget's next check, and an async call's rest runs under it too.)
    },
    3 * GENEROUS_MS,
  );
});
