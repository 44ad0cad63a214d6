/**
 * `npm run chat -- --kind form --form examples/forms/event-registration-en.json`
 * (or `--kind faq`, or `--resume ID --token T`): a conversation with the agents
 * in the terminal, over the public contract only. See scripts/chat/run.ts.
 */
import { parseChatArgs, USAGE, UsageError } from './chat/args.js';
import { runChat } from './chat/run.js';

async function main(): Promise<number> {
  let opts;
  try {
    opts = parseChatArgs(process.argv.slice(2), process.env, process.stdout.isTTY === true);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`chat: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (opts === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  return runChat(opts, { input: process.stdin, output: process.stdout });
}

main().then(
  (code) => process.stdout.write('', () => process.exit(code)),
  (err: unknown) => {
    process.stderr.write(`chat failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
