import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../test/support/processes.js';
import { mapLimit } from '../bench/common.js';
import { loadSet, SETS, type EvalForm, type LoadProblem, type SetName } from './data.js';
import { breakdownTables, detailLines, problemLines, setReport, totalsTable, type SetReport } from './report.js';
import { LIMITS, runSession, type SessionResult } from './run-session.js';
import { startOwn, useRunning, type SystemUnderTest } from './system.js';

/**
 * `npm run eval:forms`: simulated respondents of eval/forms/<set>/*.json talk
 * to the running system over HTTP + SSE; the sessions they leave are scored.
 * It reports; it asserts nothing (exit 0 unless the system cannot be started).
 */

export const USAGE = `usage: npm run eval:forms -- [--set dev|heldout|all] [--url http://127.0.0.1:PORT] [--json] [--details] [--concurrency N] [--only <formId>]

  --set          which sets to run (default all)
  --url          use a gateway already running on loopback; else one is started (offline model) and stopped
  --json         print the report as JSON
  --details      one line per dev session with something wrong (dev only: the held-out set is never looked into)
  --concurrency  sessions in parallel (default 4)
  --only         one dev form by id
  --transcripts  write each dev session's conversation to <dir>/<form>.<respondent>.txt (dev only)

  EVAL_FORMS_DIR (env) reads <dir>/dev and <dir>/heldout instead of eval/forms (to try the eval on other data).`;

export class UsageError extends Error {}

export interface Options {
  sets: SetName[];
  url: string | null;
  json: boolean;
  details: boolean;
  concurrency: number;
  only: string | null;
  transcripts: string | null;
}

export function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        set: { type: 'string', default: 'all' },
        url: { type: 'string' },
        json: { type: 'boolean', default: false },
        details: { type: 'boolean', default: false },
        concurrency: { type: 'string', default: '4' },
        only: { type: 'string' },
        transcripts: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) throw new UsageError('');
  const set = values.set;
  if (set !== 'all' && !(SETS as readonly string[]).includes(set)) throw new UsageError(`--set must be dev, heldout or all, got ${set}`);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`--concurrency must be a positive integer, got ${values.concurrency}`);
  // --only and --details look into single forms and sessions, which is allowed on dev only.
  if (set === 'heldout' && values.details) throw new UsageError('--details is for the dev set only: nobody may tune on the held-out set');
  if (set === 'heldout' && values.only !== undefined) throw new UsageError('--only picks a dev form; the held-out set is run whole');
  if (set !== 'dev' && values.only === undefined && values.transcripts !== undefined)
    throw new UsageError('--transcripts is for the dev set only (--set dev)');
  const sets: SetName[] = values.only !== undefined ? ['dev'] : set === 'all' ? [...SETS] : [set as SetName];
  return {
    sets,
    url: values.url ?? null,
    json: values.json,
    details: values.details,
    concurrency,
    only: values.only ?? null,
    transcripts: values.transcripts ?? null,
  };
}

/** Progress goes to stderr, so `--json` leaves stdout clean. */
const log = (msg: string): void => void process.stderr.write(`· ${msg}\n`);

interface Loaded {
  set: SetName;
  forms: EvalForm[];
  problems: LoadProblem[];
}

function load(opts: Options): Loaded[] {
  const root = process.env.EVAL_FORMS_DIR ? path.resolve(process.env.EVAL_FORMS_DIR) : path.join(REPO_ROOT, 'eval', 'forms');
  return opts.sets.map((set) => {
    const { forms, problems } = loadSet(root, set);
    const picked = opts.only === null ? forms : forms.filter((f) => f.id === opts.only);
    if (opts.only !== null && picked.length === 0) throw new UsageError(`no dev form with id ${opts.only}`);
    return { set, forms: picked, problems };
  });
}

function writeTranscript(dir: string, formId: string, respondentId: string, res: SessionResult): void {
  fs.mkdirSync(dir, { recursive: true });
  const lines = res.transcript.map((m) => `[${m.role}${m.fieldId ? ` ${m.fieldId}` : ''}] ${m.text}`);
  fs.writeFileSync(path.join(dir, `${formId}.${respondentId}.txt`), `${lines.join('\n')}\n`);
}

async function runAll(
  sut: SystemUnderTest,
  loaded: Loaded[],
  concurrency: number,
  transcripts: string | null,
): Promise<Map<SetName, SessionResult[]>> {
  const jobs = loaded.flatMap((l) => l.forms.flatMap((form) => form.respondents.map((respondent) => ({ form, respondent }))));
  const total = jobs.length;
  let done = 0;
  const results = await mapLimit(jobs, concurrency, async ({ form, respondent }) => {
    const res = await runSession(sut.url, form, respondent);
    done++;
    if (transcripts !== null && form.set === 'dev') writeTranscript(transcripts, form.id, respondent.id, res);
    // Held-out progress names nothing: a count is all anyone sees of it.
    const what =
      form.set === 'dev' ? `${form.id}/${respondent.id}: ${res.error ? 'error' : res.ended}, ${res.turns} turns` : 'heldout session';
    log(`[${done}/${total}] ${what}`);
    return res;
  });
  const bySet = new Map<SetName, SessionResult[]>(loaded.map((l) => [l.set, []]));
  for (const res of results) bySet.get(res.set)!.push(res);
  return bySet;
}

function problemsText(loadedSet: Loaded): string[] {
  if (loadedSet.set === 'dev') return problemLines(loadedSet.problems);
  const skipped = loadedSet.problems.filter((p) => p.fatal).length;
  const warnings = loadedSet.problems.length - skipped;
  return loadedSet.problems.length === 0 ? [] : [`heldout: ${skipped} file(s) skipped, ${warnings} warning(s) (not shown: held out)`];
}

function print(opts: Options, sut: SystemUnderTest, loaded: Loaded[], reports: SetReport[], elapsedMs: number): void {
  if (opts.json) {
    const problems = loaded.flatMap((l) => (l.set === 'dev' ? l.problems : problemsText(l).map((message) => ({ set: l.set, message }))));
    const out = { system: sut.description, limits: LIMITS, elapsedMs, problems, sets: Object.fromEntries(reports.map((r) => [r.set, r])) };
    console.log(JSON.stringify(out, null, 2));
    return;
  }
  const problems = loaded.flatMap(problemsText);
  console.log(`\nform interview evaluation — ${sut.description}, ${(elapsedMs / 1000).toFixed(0)} s`);
  if (problems.length > 0) console.log(`\ndata problems:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  console.log(`\n${totalsTable(reports)}`);
  for (const report of reports) {
    const tables = breakdownTables(report);
    if (tables !== '') console.log(`\n${tables}`);
  }
  if (reports.some((r) => r.set === 'heldout')) console.log('\n(heldout: totals only)');
  const dev = reports.find((r) => r.set === 'dev');
  if (opts.details && dev?.sessions) {
    const lines = detailLines(dev.sessions);
    console.log(`\ndev sessions with something wrong (${lines.length} of ${dev.sessions.length}):`);
    for (const l of lines) console.log(`  ${l}`);
  }
}

export async function main(argv: string[]): Promise<number> {
  let opts: Options;
  let loaded: Loaded[];
  try {
    opts = parseOptions(argv);
    loaded = load(opts);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(err.message === '' ? USAGE : `eval:forms: ${err.message}\n${USAGE}`);
    return 2;
  }
  for (const l of loaded)
    log(`${l.set}: ${l.forms.length} form(s), ${l.forms.reduce((n, f) => n + f.respondents.length, 0)} respondent(s)`);
  if (loaded.every((l) => l.forms.length === 0)) {
    // Nothing to talk to the system about: starting it would only cost time.
    print(
      opts,
      { url: '', description: 'no sessions run', stop: async () => undefined },
      loaded,
      loaded.map((l) => setReport(l.set, [], 0, opts.details)),
      0,
    );
    return 0;
  }
  let sut: SystemUnderTest;
  try {
    sut = opts.url !== null ? await useRunning(opts.url) : await startOwn(log);
  } catch (err) {
    console.error(`eval:forms: the system could not be started: ${(err as Error).message}`);
    return 1;
  }
  const started = Date.now();
  let bySet: Map<SetName, SessionResult[]>;
  try {
    bySet = await runAll(sut, loaded, opts.concurrency, opts.transcripts);
  } finally {
    await sut.stop();
  }
  const reports = loaded.map((l) => setReport(l.set, bySet.get(l.set) ?? [], l.forms.length, opts.details));
  print(opts, sut, loaded, reports, Date.now() - started);
  return 0;
}
