import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startStack, type Stack } from '../support/processes.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * `npm run chat` as a person uses it: the real CLI in its own process, typed
 * into line by line through its stdin, read from its stdout, against the whole
 * system. Each answer is written only once the question is on screen.
 */
let stack: Stack;

beforeAll(async () => {
  // The agents are the run's shared ones; the gateway is this file's own, since a test restarts it.
  const shared = await sharedStack({ services: ['greeter', 'architect', 'interviewer', 'reviewer', 'planner', 'search'] });
  stack = await startStack({ env: shared.env, services: [] });
});
afterAll(async () => {
  await stack?.stop();
});

interface Chat {
  proc: ChildProcessWithoutNullStreams;
  /** Everything printed so far (stdout and stderr). */
  output(): string;
  /** Resolves once the output after `from` matches; rejects if the CLI exits first or after 30 s. */
  waitFor(pattern: RegExp, from?: number): Promise<RegExpMatchArray>;
  type(line: string): void;
  exited: Promise<number | null>;
}

function chat(args: string[], stdin: 'pipe' | string = 'pipe'): Chat {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/chat.ts', '--url', stack.url, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  proc.stdout.on('data', onData);
  proc.stderr.on('data', onData);
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  if (stdin !== 'pipe') proc.stdin.end(stdin);
  return {
    proc,
    output: () => out,
    type: (line) => proc.stdin.write(`${line}\n`),
    exited,
    waitFor(pattern, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.slice(from).match(pattern);
          if (!match) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} in the chat output:\n${out.slice(from)}`));
        }, 30_000);
        const onExit = () => {
          // Output can still be in the pipe when 'exit' fires.
          setImmediate(() => {
            if (!listeners.has(check)) return;
            done();
            reject(new Error(`the chat exited before printing ${pattern}:\n${out.slice(from)}`));
          });
        };
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          proc.off('exit', onExit);
        };
        listeners.add(check);
        proc.once('exit', onExit);
        check();
      });
    },
  };
}

/** Types `line`, waits for what it should bring, and returns everything printed since. */
async function answer(cli: Chat, line: string, expected: RegExp): Promise<string> {
  const from = cli.output().length;
  cli.type(line);
  await cli.waitFor(expected, from);
  return cli.output().slice(from);
}

describe('npm run chat', { timeout: 120_000 }, () => {
  it('interviews with the English form, shows agents and field progress, survives a gateway restart, submits', async () => {
    const cli = chat(['--kind', 'form', '--form', 'examples/forms/event-registration-en.json']);
    const [, sessionId, token] = await cli.waitFor(/resume later with: npm run chat -- --resume=(\S+) --token=(\S+)\s/);
    await cli.waitFor(/\[greeter\]\n {2}.*Japanese or English/s);

    await answer(cli, 'English', /language: en[\s\S]*\[greeter\][\s\S]*country/);
    const plan = await answer(cli, 'I live in Tokyo, Japan', /\[interviewer\][\s\S]*full name/i);
    expect(plan).toMatch(/time zone: Asia\/Tokyo/);
    expect(plan).toMatch(/greeter → architect/);
    expect(plan).toMatch(/plan: Full name → Email address → Number of attendees/);
    const progress = await answer(cli, 'Jane Doe', /email address\?/);
    expect(progress).toMatch(/✓ Full name: Jane Doe {2}\[1\/4 required\]/);

    // The gateway goes away and comes back on the same address: the stream resumes where it stopped.
    await stack.restartGateway();
    await cli.waitFor(/connection lost; reconnecting/);
    await cli.waitFor(/reconnected; resuming after event \d+/);
    const afterRestart = await answer(cli, 'jane.doe@example.com', /number of attendees\?/);
    expect(afterRestart).toMatch(/✓ Email address: jane.doe@example.com {2}\[2\/4 required\]/);

    await answer(cli, 'Two of us', /what you hope to get out of the meetup/i);
    await answer(cli, 'I want to learn how to build reliable event-driven systems with queues', /current role or background\?/);
    await answer(cli, 'I work as a backend engineer at a logistics company', /optional/);
    await answer(cli, 'skip', /every field is settled\. Type \/submit/);
    const status = await answer(cli, '/status', /skipped +Dietary requirements \(optional\)/);
    expect(status).toMatch(/4\/4 required fields done · agent: interviewer · status: awaiting_confirmation/);
    await answer(cli, '/submit', /Submitted\. Your answers:[\s\S]*Full name: Jane Doe/);
    await expect(cli.exited).resolves.toBe(0);

    // Every question was printed exactly once, the one asked around the restart too.
    const out = cli.output();
    expect(out.match(/Could you tell me your email address\?/g)).toHaveLength(1);
    expect(out.match(/Could you tell me the number of attendees\?/g)).toHaveLength(1);

    // Resuming the session in a new terminal prints its history once, the person's lines included.
    const again = chat([`--resume=${sessionId}`, `--token=${token}`], '');
    await expect(again.exited).resolves.toBe(0);
    expect(again.output()).toMatch(/you> jane\.doe@example\.com/);
    expect(again.output().match(/Could you tell me your email address\?/g)).toHaveLength(1);
  });

  it('asks back on an ambiguous FAQ question and answers the numbered choice', async () => {
    const cli = chat(['--kind', 'faq']);
    await cli.waitFor(/Ask a question/);
    // The choices come from what the search finds for 返品; their order follows its ranking.
    const clarify = await answer(cli, '返品', /choose one[^\n]*\n(?: {3}\d\) [^\n]+\n)*? {3}\d\) 手続き\n/);
    expect(clarify).toMatch(/ {3}1\) 返品ポリシーを教えてください\n/);
    const picked = /(\d)\) 手続き\n/.exec(clarify)![1]!;
    const reply = await answer(cli, picked, /sources: [^\n]+/);
    expect(reply).toMatch(/search "手続き 返品"/);
    expect(reply).toMatch(/\[search\]\n {2}.*返品・交換を申請/);
    expect(reply).toMatch(/sources: 返品の手続き方法を教えてください \[ja-returns-howto\]/);
    // The typed choice is not echoed back as if someone else had said it.
    expect(cli.output()).not.toMatch(/you> /);
    await answer(cli, '/quit', /$/);
    await expect(cli.exited).resolves.toBe(0);
  });

  it('answers a question piped in and exits once the answer is printed', async () => {
    const cli = chat(['--kind', 'faq'], 'Can I pay with PayPal?\n');
    await expect(cli.exited).resolves.toBe(0);
    expect(cli.output()).toMatch(/\[search\]\n {2}.*PayPal/);
  });

  it('refuses bad arguments with the usage and exit code 2', async () => {
    const cli = chat(['--kind', 'form'], '');
    await expect(cli.exited).resolves.toBe(2);
    expect(cli.output()).toMatch(/--kind form needs --form FILE[\s\S]*usage: npm run chat/);
  });
});
