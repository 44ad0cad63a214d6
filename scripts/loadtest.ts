/**
 * `npm run loadtest -- --kind form|application|faq --sessions N --concurrency C --turns T
 * [--duration S] [--url U] [--json]`: parses the arguments, runs
 * {@link runLoadtest} (scripts/loadtest/run.ts, where the decisions are
 * documented) and prints its report. Exit codes: 0 ok, 1 not ok or the
 * gateway is unreachable, 2 bad arguments (including a non-loopback --url).
 */
import { UnreachableError, UsageError } from './loadtest/errors.js';
import { parseCli, USAGE } from './loadtest/options.js';
import { formatTable } from './loadtest/report.js';
import { runLoadtest } from './loadtest/run.js';

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseCli(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`loadtest: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { options, json } = command;
  process.stderr.write(
    `loadtest: ${options.sessions} ${options.kind} session(s) × ${options.turns} turn(s), ${options.concurrency} at once, ` +
      `against ${options.url} (at most ${(options.durationMs + options.graceMs) / 1000} s)\n`,
  );
  try {
    const report = await runLoadtest(options);
    process.stdout.write(`${json ? JSON.stringify(report, null, 2) : formatTable(report)}\n`);
    return report.ok ? 0 : 1;
  } catch (err) {
    if (!(err instanceof UnreachableError)) throw err;
    process.stderr.write(`loadtest: ${err.message}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Exit once stdout has drained: the report may be larger than a pipe's buffer.
    process.stdout.write('', () => process.exit(code));
  },
  (err: unknown) => {
    process.stderr.write(`loadtest failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
