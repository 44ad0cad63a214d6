import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findOnPath } from '../../scripts/ensure-redis.js';

/**
 * The machine packages the tests use besides Node's, by the Debian package
 * that brings each. `npm test` installs the missing ones with apt-get before
 * the first test (scripts/test-prerequisites.ts), so a newcomer installs
 * nothing by hand; the browser tests call the same when run alone.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export type SystemPackage = { name: string; why: string; present: () => boolean };

export const SYSTEM_PACKAGES: readonly SystemPackage[] = [
  {
    name: 'redis-server',
    why: 'the chaos and Redis-fault tests restart a Redis of their own',
    present: () => findOnPath('redis-server') !== undefined,
  },
  {
    name: 'poppler-utils',
    why: 'the worksheet PDF tests read PDFs back with pdftotext',
    present: () => findOnPath('pdftotext') !== undefined,
  },
  { name: 'chromium', why: 'the browser tests drive Debian’s Chromium', present: () => existsSync(CHROMIUM_PATH) },
  { name: 'fonts-noto-cjk', why: 'Japanese text in screenshots is glyphs, not boxes', present: hasJapaneseFont },
  // The workbench page's ✅ / ⚠️ / ❌ in screenshots.
  {
    name: 'fonts-noto-color-emoji',
    why: 'emoji in screenshots',
    present: () => existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf'),
  },
];

export function missingSystemPackages(packages: readonly SystemPackage[] = SYSTEM_PACKAGES): SystemPackage[] {
  return packages.filter((pkg) => !pkg.present());
}

export type InstallResult = { ok: true } | { ok: false; reason: string };

/** apt-get install as root or with passwordless sudo; says why not where neither works. */
export function installSystemPackages(
  packages: readonly SystemPackage[],
  log: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): InstallResult {
  if (packages.length === 0) return { ok: true };
  const names = packages.map((pkg) => pkg.name).join(' ');
  if (spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status !== 0)
    return { ok: false, reason: `apt-get is not available to install ${names}` };
  const root = process.getuid?.() === 0;
  if (!root && spawnSync('sudo', ['-n', 'true']).status !== 0)
    return { ok: false, reason: `installing ${names} needs root or passwordless sudo` };
  const sudo = root ? '' : 'sudo -n ';
  log(`installing ${names} with apt-get`);
  const install = spawnSync(
    'sh',
    ['-c', `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names}`],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 15 * 60_000,
    },
  );
  const still = missingSystemPackages(packages);
  if (still.length > 0)
    return {
      ok: false,
      reason: `apt-get could not install ${still.map((pkg) => pkg.name).join(' ')} (exit ${install.status ?? install.signal})`,
    };
  return { ok: true };
}

function hasJapaneseFont(): boolean {
  const fc = spawnSync('fc-list', [':lang=ja', 'family'], { encoding: 'utf8' });
  // No fontconfig tools: Chromium brings fontconfig with it, so this is a machine without Chromium yet.
  return fc.status === 0 && fc.stdout.trim() !== '';
}
