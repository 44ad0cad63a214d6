import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/processes.js';

/**
 * @convo/client as a package that left the repository: built, packed with
 * `npm pack`, installed from the tarball into a project of its own (no
 * workspace, no @convo/* package beside it), then imported by Node and
 * type-checked by tsc as its users would. Slow steps on a busy machine (a
 * build with a type-check, an install, a tsc run over zod's types), so every
 * step has minutes, not seconds.
 */
const run = promisify(execFile);
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const MINUTE = 60_000;

type PackedFile = { path: string };
type PackResult = { filename: string; files: PackedFile[] };
type Manifest = Record<'dependencies' | 'peerDependencies' | 'optionalDependencies', Record<string, string> | undefined> & {
  exports: unknown;
  sideEffects: boolean;
};

let work: string;
let project: string;
let packed: PackResult;

/** npm, with minutes to finish: a build that type-checks and an install are slow on a busy machine. */
function npm(args: string[], cwd: string, timeoutMs: number) {
  return run('npm', args, { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'client-pack-'));
  project = join(work, 'project');
  await npm(['run', 'build', '-w', '@convo/client'], REPO_ROOT, 7 * MINUTE);
  const { stdout } = await npm(['pack', '-w', '@convo/client', '--json', '--pack-destination', work], REPO_ROOT, 2 * MINUTE);
  packed = (JSON.parse(stdout) as PackResult[])[0]!;

  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'uses-convo-client', private: true, type: 'module' }, null, 2)}\n`,
  );
  const install = ['install', join(work, packed.filename), '--prefix', project, '--no-audit', '--no-fund'];
  // From npm's cache when it holds zod (it does wherever the repository was installed); else the registry.
  await npm([...install, '--offline'], project, 5 * MINUTE).catch(() => npm([...install, '--prefer-offline'], project, 5 * MINUTE));
}, 15 * MINUTE);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('@convo/client packed and installed elsewhere', { timeout: 10 * MINUTE }, () => {
  it('packs the built dist/ and its package.json only, and depends on no private @convo package', () => {
    const paths = packed.files.map((file) => file.path).sort();
    expect(paths.filter((path) => !path.startsWith('dist/') && path !== 'package.json' && !/^readme(\.md)?$/i.test(path))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['dist/index.d.ts', 'dist/index.js', 'package.json']));

    const installed = join(project, 'node_modules', '@convo', 'client');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest;
    expect(manifest.exports).toEqual({ '.': { types: './dist/index.d.ts', import: './dist/index.js' } });
    expect(manifest.sideEffects).toBe(false);
    const needed = [manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies].flatMap((deps) =>
      Object.keys(deps ?? {}),
    );
    expect(needed.filter((name) => name.startsWith('@convo/'))).toEqual([]);
    // The contract's types are inlined, not imported from the workspace package they come from.
    expect(readFileSync(join(installed, 'dist', 'index.d.ts'), 'utf8')).not.toMatch(/from ['"]@convo\//);
  });

  it('is imported by Node through its exports, with the client factory and the classes of the README example', async () => {
    const script = `import('@convo/client').then((m) => {
      const client = m.createClient({ baseUrl: 'http://127.0.0.1:9' });
      console.log(JSON.stringify({ exports: Object.keys(m), create: typeof client.sessions.create, withToken: typeof client.withToken }));
    })`;
    const { stdout } = await run(process.execPath, ['-e', script], { cwd: project, timeout: 2 * MINUTE });
    const seen = JSON.parse(stdout) as { exports: string[]; create: string; withToken: string };
    expect(seen.exports).toEqual(
      expect.arrayContaining(['createClient', 'ApiError', 'ProblemConflictError', 'EventStream', 'EVENT_TYPE_NAMES', 'newIdempotencyKey']),
    );
    expect(seen).toMatchObject({ create: 'function', withToken: 'function' });
  });

  it('type-checks a strict NodeNext program against its declarations alone, and the types are not `any`', async () => {
    writeFileSync(
      join(project, 'check.ts'),
      `import * as convo from '@convo/client';
import { ApiError, createClient, type ConvoClient, type SessionSnapshot, type StreamEvent } from '@convo/client';

const client: ConvoClient = createClient({ baseUrl: 'http://localhost:8080' });

export async function firstAssistantMessage(signal: AbortSignal): Promise<string | undefined> {
  const { sessionId, token } = await client.sessions.create({ kind: 'faq' });
  const session = client.withToken(token);
  for await (const ev of session.sessions.events(sessionId, { signal })) {
    const event: StreamEvent = ev;
    if (event.type === 'message' && event.data.role === 'assistant') return event.data.text;
  }
  return undefined;
}

export const status = (snapshot: SessionSnapshot): string => snapshot.status;
export const isApiError = (err: unknown): err is ApiError => err instanceof ApiError;

// @ts-expect-error the contract's session kinds, inlined from the workspace: no such kind
void client.sessions.create({ kind: 'no-such-kind' });
// @ts-expect-error a type of the module, not one of its values (dist/index.js has no SessionSnapshot)
void convo.SessionSnapshot;
`,
    );
    const args = [TSC, '--module', 'nodenext', '--moduleResolution', 'nodenext', '--strict', '--noEmit', 'check.ts'];
    const result = await run(process.execPath, args, { cwd: project, timeout: 5 * MINUTE }).catch(
      (err: { stdout?: string; message: string }) => ({
        stdout: err.stdout ?? err.message,
        failed: true,
      }),
    );
    expect('failed' in result ? result.stdout : '').toBe('');
  });
});
