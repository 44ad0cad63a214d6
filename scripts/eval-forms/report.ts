import type { LoadProblem, SetName } from './data.js';
import type { SessionResult } from './run-session.js';
import type { FieldScore } from './compare.js';

/**
 * Aggregates of the session results, and their text and JSON forms. The
 * held-out set is reported by its totals only (no breakdowns, no per-session
 * lines): nobody may tune on it.
 */

export interface Ratio {
  n: number;
  of: number;
}

export interface Totals {
  forms: number;
  sessions: number;
  /** Sessions the system could not be talked to at all (refused form, HTTP errors). */
  errors: number;
  completion: Ratio;
  completionCooperative: Ratio;
  accuracy: Ratio;
  /** Fields holding a wrong value the respondent never saw (compare.ts, markSilentWrong). */
  silentWrong: number;
  /** Fields kept as given for a member of staff (needs_review) that were expected to be settled. */
  sentToReview: number;
  /** Cooperative sessions that completed with no field sent to review (issue 33's target: all). */
  cooperativeClean: Ratio;
  /** Respondent messages per field of the form, over every session (the residence answer included). */
  turnsPerField: number;
  /** Assistant messages with a phrasing defect (third person, doubled or orphaned pronoun), of all assistant messages. */
  wellFormed: Ratio;
  followUpsPerField: number;
  turnsMean: number;
  turnsMax: number;
  stuck: number;
  purity: Ratio;
  /** POST /submit answered 200, of the sessions that reached awaiting_confirmation. */
  submitOk: Ratio;
  turnsFailed: number;
  turnsTimedOut: number;
}

export interface Breakdown {
  /** Field-value accuracy, sessions and completion per group. */
  [group: string]: { sessions: number; completion: Ratio; accuracy: Ratio };
}

export interface SetReport {
  set: SetName;
  totals: Totals;
  byStyle?: Breakdown;
  byKind?: Record<string, Ratio>;
  byLanguage?: Breakdown;
  sessions?: SessionResult[];
}

const ratio = (n: number, of: number): Ratio => ({ n, of });
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** A field kept for a member of staff (needs_review) that the respondent's answers should have settled. */
const sentToReview = (field: FieldScore): boolean => field.finalStatus === 'needs_review' && field.expectedStatus !== 'needs_review';

export function totals(results: readonly SessionResult[], forms: number): Totals {
  const fields = results.flatMap((r) => r.fields);
  const coop = results.filter((r) => r.style === 'cooperative');
  const completed = results.filter((r) => r.completed);
  const turns = results.map((r) => r.turns);
  return {
    forms,
    sessions: results.length,
    errors: results.filter((r) => r.error !== null).length,
    completion: ratio(completed.length, results.length),
    completionCooperative: ratio(coop.filter((r) => r.completed).length, coop.length),
    accuracy: ratio(fields.filter((f) => f.correct).length, fields.length),
    silentWrong: fields.filter((f) => f.silentWrong === true).length,
    sentToReview: fields.filter(sentToReview).length,
    cooperativeClean: ratio(coop.filter((r) => r.completed && !r.fields.some(sentToReview)).length, coop.length),
    turnsPerField: fields.length === 0 ? NaN : sum(turns) / fields.length,
    wellFormed: ratio(sum(results.map((r) => r.assistantMessages - r.illFormed.length)), sum(results.map((r) => r.assistantMessages))),
    followUpsPerField: fields.length === 0 ? NaN : sum(fields.map((f) => f.followUps)) / fields.length,
    turnsMean: turns.length === 0 ? NaN : sum(turns) / turns.length,
    turnsMax: turns.length === 0 ? NaN : Math.max(...turns),
    stuck: results.filter((r) => r.stuck).length,
    purity: ratio(sum(results.map((r) => r.pureMessages)), sum(results.map((r) => r.assistantMessages))),
    submitOk: ratio(completed.filter((r) => r.submitStatus === 200).length, completed.length),
    turnsFailed: sum(results.map((r) => r.turnsFailed)),
    turnsTimedOut: sum(results.map((r) => r.turnsTimedOut)),
  };
}

function groupBy(results: readonly SessionResult[], key: (r: SessionResult) => string): Breakdown {
  const out: Breakdown = {};
  for (const result of results) {
    const group = (out[key(result)] ??= { sessions: 0, completion: ratio(0, 0), accuracy: ratio(0, 0) });
    group.sessions++;
    group.completion = ratio(group.completion.n + (result.completed ? 1 : 0), group.completion.of + 1);
    group.accuracy = ratio(group.accuracy.n + result.fields.filter((f) => f.correct).length, group.accuracy.of + result.fields.length);
  }
  return out;
}

function byKind(results: readonly SessionResult[]): Record<string, Ratio> {
  const out: Record<string, Ratio> = {};
  for (const fieldScore of results.flatMap((r) => r.fields)) {
    const tally = (out[fieldScore.kind] ??= ratio(0, 0));
    out[fieldScore.kind] = ratio(tally.n + (fieldScore.correct ? 1 : 0), tally.of + 1);
  }
  return out;
}

export function setReport(set: SetName, results: readonly SessionResult[], forms: number, withSessions: boolean): SetReport {
  const report: SetReport = { set, totals: totals(results, forms) };
  if (set === 'heldout' || results.length === 0) return report;
  report.byStyle = groupBy(results, (r) => r.style);
  report.byKind = byKind(results);
  report.byLanguage = groupBy(results, (r) =>
    r.sessionLanguage === r.formLanguage ? r.sessionLanguage : `${r.sessionLanguage} (form ${r.formLanguage})`,
  );
  if (withSessions) report.sessions = [...results];
  return report;
}

// ---- text ----

const pct = (r: Ratio): string => (r.of === 0 ? 'n/a' : `${((100 * r.n) / r.of).toFixed(1)}% (${r.n}/${r.of})`);
const num = (x: number, digits = 2): string => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('-+-'), ...rows.map(line)].join('\n');
}

export function totalsTable(reports: readonly SetReport[]): string {
  const metrics: Array<[string, (t: Totals) => string]> = [
    ['forms', (t) => String(t.forms)],
    ['sessions', (t) => String(t.sessions)],
    ['completion (awaiting_confirmation)', (t) => pct(t.completion)],
    ['completion, cooperative respondents', (t) => pct(t.completionCooperative)],
    ['field-value accuracy (correct fields / fields)', (t) => pct(t.accuracy)],
    ['silent wrong values (stored wrong, never shown)', (t) => String(t.silentWrong)],
    ['fields sent to staff review (not expected)', (t) => String(t.sentToReview)],
    ['cooperative sessions with no field sent to review', (t) => pct(t.cooperativeClean)],
    ['respondent turns per field', (t) => num(t.turnsPerField)],
    ['follow-ups per field', (t) => num(t.followUpsPerField)],
    ['respondent turns per session (mean / max)', (t) => `${num(t.turnsMean, 1)} / ${Number.isFinite(t.turnsMax) ? t.turnsMax : 'n/a'}`],
    ['sessions stuck (60 messages or 120 s)', (t) => String(t.stuck)],
    ['language purity (pure / assistant messages)', (t) => pct(t.purity)],
    ['well-formed (no third person, doubled or orphaned pronoun)', (t) => pct(t.wellFormed)],
    ['submit OK (200 / completed sessions)', (t) => pct(t.submitOk)],
    ['turns failed / timed out (20 s)', (t) => `${t.turnsFailed} / ${t.turnsTimedOut}`],
    ['sessions with errors', (t) => String(t.errors)],
  ];
  return table(
    ['metric', ...reports.map((r) => r.set)],
    metrics.map(([name, f]) => [name, ...reports.map((r) => f(r.totals))]),
  );
}

export function breakdownTables(report: SetReport): string {
  const parts: string[] = [];
  const groups = (title: string, breakdown: Breakdown | undefined) => {
    if (!breakdown) return;
    const rows = Object.entries(breakdown)
      .sort(([a], [c]) => a.localeCompare(c))
      .map(([g, v]) => [g, String(v.sessions), pct(v.completion), pct(v.accuracy)]);
    parts.push(table([title, 'sessions', 'completion', 'field accuracy'], rows));
  };
  groups(`${report.set}: style`, report.byStyle);
  if (report.byKind) {
    const rows = Object.entries(report.byKind)
      .sort(([a], [c]) => a.localeCompare(c))
      .map(([k, v]) => [k, String(v.of), pct(v)]);
    parts.push(table([`${report.set}: expected kind`, 'fields', 'accuracy'], rows));
  }
  groups(`${report.set}: session language`, report.byLanguage);
  return parts.join('\n\n');
}

const clip = (text: string, maxLength = 90): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > maxLength ? `${one.slice(0, maxLength - 1)}…` : one;
};

/** One line per dev session that has anything wrong: unfinished, a wrong field, an impure message. */
export function detailLines(results: readonly SessionResult[]): string[] {
  const out: string[] = [];
  for (const result of results) {
    const wrong = result.fields.filter((f) => !f.correct);
    if (
      result.completed &&
      wrong.length === 0 &&
      result.impure.length === 0 &&
      result.illFormed.length === 0 &&
      result.submitStatus === 200
    )
      continue;
    const head = `${result.formId}/${result.respondentId} [${result.style}, ${result.sessionLanguage}] ${result.ended || 'unfinished'}, ${result.turns} turns, submit ${result.submitStatus ?? '-'}`;
    const fields = wrong.map((field) => {
      const want = field.expectedStatus === 'done' ? `done ${JSON.stringify(field.want)}` : field.expectedStatus;
      const got =
        field.finalStatus === 'done' || field.finalStatus === 'needs_review'
          ? `${field.finalStatus} ${JSON.stringify(clip(field.value ?? '', 60))}`
          : field.finalStatus;
      return `${field.fieldId}: want ${want}, got ${got}${field.silentWrong ? ' (SILENT)' : ''}`;
    });
    const impure = [
      ...result.impure.map((t) => `impure: ${JSON.stringify(clip(t))}`),
      ...result.illFormed.map((t) => `ill-formed ${JSON.stringify(clip(t, 120))}`),
    ];
    const extra = [
      result.error ? `error: ${clip(result.error, 120)}` : '',
      result.correctionsUnsent > 0 ? `${result.correctionsUnsent} correction(s) never sent` : '',
    ].filter(Boolean);
    out.push([head, ...fields, ...impure, ...extra].join(' | '));
  }
  return out;
}

export function problemLines(problems: readonly LoadProblem[]): string[] {
  return problems.map((p) => `${p.fatal ? 'skipped' : 'warning'}: ${p.set}/${p.file}: ${p.message}`);
}
