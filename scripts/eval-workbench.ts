import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Problem } from '@convo/contract';
import { autoFix, checkProblem } from '@convo/workbench';
import { startOwn, useRunning } from './eval-forms/system.js';
import { evaluateSheets, printSheets } from './eval-workbench-sheets.js';
import { judge, loadRequests, printRequests } from './eval-workbench-requests.js';

/**
 * `npm run eval:workbench`: the consistency checker and the auto-fixer on a
 * blind set of problems with planted defects (eval/workbench, written from a
 * brief by someone who had not read the checker).
 *
 *   --set dev|heldout|all   which part (default: both, reported apart)
 *   --details               one line per item the checker got wrong
 *   --sheets N              instead: N generated worksheets per subject and level (eval-workbench-sheets.ts)
 *   --requests [--url U] [--trials N]
 *                           instead: the blind set of teacher requests, on a system of our own
 *                           (gateway + workbench agent) or a running one, N times each (default 3:
 *                           each run gets other worksheets) (eval-workbench-requests.ts)
 *
 * Per defect kind: precision (of the items the checker flags with that kind,
 * how many have it) and recall (of the items with it, how many it flags with
 * it); clean items flagged with any error are false alarms. Auto-fix: of the
 * defective items the checker flags, how many get a fix, and how many of the
 * fixed problems then pass the checker without an error.
 */

const Item = z.object({ id: z.string(), defect: z.string(), note: z.string(), problem: Problem });
type Item = z.infer<typeof Item>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'both' },
    details: { type: 'boolean', default: false },
    sheets: { type: 'string' },
    requests: { type: 'boolean', default: false },
    trials: { type: 'string', default: '3' },
    url: { type: 'string' },
  },
});

const load = (name: string) => z.array(Item).parse(JSON.parse(readFileSync(path.join(ROOT, 'eval', 'workbench', `${name}.json`), 'utf8')));
const language = (item: Item) =>
  (/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u.test(item.problem.prompt) ? 'ja' : 'en') as 'ja' | 'en';

type Outcome = { item: Item; flagged: Set<string>; errors: number; fixAttempted: boolean; fixPassed: boolean };

async function evaluate(items: Item[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const item of items) {
    const lang = language(item);
    const facts = await checkProblem(item.problem, lang);
    const errors = facts.issues.filter((issue) => issue.severity === 'error');
    const flagged = new Set(errors.map((issue) => issue.kind));
    let fixAttempted = false;
    let fixPassed = false;
    if (errors.length > 0) {
      const fix = await autoFix(item.problem, lang, facts);
      if (Object.keys(fix.fixes).length > 0) {
        fixAttempted = true;
        const fixed = { ...item.problem, ...fix.fixes };
        fixPassed = !(await checkProblem(fixed, lang)).issues.some((issue) => issue.severity === 'error');
      }
    }
    outcomes.push({ item, flagged, errors: errors.length, fixAttempted, fixPassed });
  }
  return outcomes;
}

function report(name: string, outcomes: Outcome[]): void {
  const kinds = [...new Set(outcomes.map((outcome) => outcome.item.defect).filter((defect) => defect !== 'clean'))].sort();
  console.log(`\n## ${name} (${outcomes.length} items)\n`);
  console.log('| defect | items | precision | recall |');
  console.log('|---|---:|---:|---:|');
  let [truePositives, flaggedTotal, positives] = [0, 0, 0];
  for (const kind of kinds) {
    const withKind = outcomes.filter((outcome) => outcome.item.defect === kind);
    const flaggedKind = outcomes.filter((outcome) => outcome.flagged.has(kind));
    const hits = flaggedKind.filter((outcome) => outcome.item.defect === kind).length;
    truePositives += hits;
    flaggedTotal += flaggedKind.length;
    positives += withKind.length;
    console.log(
      `| ${kind} | ${withKind.length} | ${flaggedKind.length ? (hits / flaggedKind.length).toFixed(2) : '–'} (${hits}/${flaggedKind.length}) | ${(withKind.length ? hits / withKind.length : 0).toFixed(2)} (${hits}/${withKind.length}) |`,
    );
  }
  console.log(
    `| all kinds (micro) | ${positives} | ${(flaggedTotal ? truePositives / flaggedTotal : 0).toFixed(2)} | ${(positives ? truePositives / positives : 0).toFixed(2)} |`,
  );
  const clean = outcomes.filter((outcome) => outcome.item.defect === 'clean');
  const alarms = clean.filter((outcome) => outcome.errors > 0).length;
  const defective = outcomes.filter((outcome) => outcome.item.defect !== 'clean');
  const detected = defective.filter((outcome) => outcome.errors > 0);
  const attempted = detected.filter((outcome) => outcome.fixAttempted);
  const passed = attempted.filter((outcome) => outcome.fixPassed);
  console.log(
    `\nDefective items flagged with any error: ${detected.length}/${defective.length} (${pct(detected.length, defective.length)}).`,
  );
  console.log(`Clean items flagged with an error (false alarms): ${alarms}/${clean.length} (${pct(alarms, clean.length)}).`);
  console.log(
    `Auto-fix: a fix offered for ${attempted.length}/${detected.length} flagged items; ${passed.length}/${attempted.length} fixed problems pass the checker (${pct(passed.length, attempted.length)}).`,
  );
  if (values.details) {
    for (const outcome of outcomes) {
      const right = outcome.item.defect === 'clean' ? outcome.errors === 0 : outcome.flagged.has(outcome.item.defect);
      if (!right || (outcome.item.defect !== 'clean' && outcome.flagged.size > 1)) {
        console.log(`- ${outcome.item.id} ${outcome.item.defect} → [${[...outcome.flagged].join(', ')}] ${outcome.item.note}`);
      }
    }
  }
}

function pct(part: number, whole: number): string {
  return whole ? `${Math.round((100 * part) / whole)}%` : '–';
}

const sets = values.set === 'both' ? ['dev', 'heldout'] : values.set === 'all' ? ['dev', 'heldout'] : [values.set!];
if (values.sheets) printSheets(await evaluateSheets(Number(values.sheets)));
else if (values.requests) {
  const system = values.url
    ? await useRunning(values.url)
    : await startOwn(console.error, { name: 'eval-workbench', services: ['workbench'] });
  try {
    const parts = loadRequests(ROOT);
    for (const name of sets) {
      // Each trial makes its worksheets anew (the gateway names them at random, so their problems differ): an item is judged per trial.
      const verdicts = [];
      for (let trial = 0; trial < Number(values.trials); trial++)
        for (const item of parts[name as 'dev' | 'heldout']) verdicts.push(await judge(system.url, item));
      printRequests(name, verdicts, values.details ?? false);
    }
  } finally {
    await system.stop();
  }
} else for (const name of sets) report(name, await evaluate(load(name)));
