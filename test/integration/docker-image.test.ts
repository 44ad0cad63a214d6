import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../support/processes.js';

/**
 * The Docker image, where a Docker daemon answers: it builds (two stages: compile, then the
 * compiled JavaScript with the production dependencies), holds no compiler, and runs a compiled
 * service until it is ready. Without Docker the file is skipped; the same build (`npm run build`)
 * runs before every test run, and compiled-services.test.ts checks the production dependencies.
 */
const dockerAnswers = spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0;
const IMAGE = 'convo-agents:test';

const docker = (args: string[], timeoutMs: number) => {
  const run = spawnSync('docker', args, { cwd: REPO_ROOT, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`docker ${args.join(' ')} failed (${run.status}): ${run.stderr.slice(-2000)}`);
  return run.stdout;
};

describe.skipIf(!dockerAnswers)('the Docker image', () => {
  it('builds, holds no TypeScript, tsx or esbuild, and runs a compiled service until it is ready', { timeout: 20 * 60_000 }, async () => {
    docker(['build', '-t', IMAGE, '.'], 18 * 60_000);
    const listing = docker(
      ['run', '--rm', '--entrypoint', 'sh', IMAGE, '-c', 'ls node_modules; ls node_modules/.bin 2>/dev/null; true'],
      60_000,
    );
    for (const tool of ['typescript', 'tsx', 'esbuild', 'vitest']) expect(listing.split(/\s+/), tool).not.toContain(tool);

    // The host's network: the test's Redis listens on the host's loopback.
    const child = spawn(
      'docker',
      [
        'run',
        '--rm',
        '--network',
        'host',
        '-e',
        `REDIS_URL=${inject('redisUrl')}`,
        '-e',
        'KEY_PREFIX=docker-image-test',
        IMAGE,
        'services/architect/dist/main.js',
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the architect did not log ready within 60 s')), 60_000);
        for (const stream of [child.stdout, child.stderr])
          createInterface({ input: stream }).on('line', (line) => {
            if (!line.startsWith('{')) return;
            const json = JSON.parse(line) as Record<string, unknown>;
            if (json.msg === 'ready') {
              clearTimeout(timer);
              resolve(json);
            }
          });
        child.once('exit', (code) => reject(new Error(`the container exited (${code}) before it was ready`)));
      });
      expect(ready.service).toBe('architect');
      expect(ready.startupMs).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
