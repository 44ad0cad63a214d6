import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from './processes.js';

/**
 * Debian's Chromium for the browser tests, never a downloaded one. When it is
 * missing the tests install it with apt (and a Japanese font, so Japanese text
 * in screenshots is glyphs, not boxes); only where apt cannot run do they skip,
 * and they say why.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where screenshots go; CI keeps the folder as the run's artifacts. */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-artifacts', 'screenshots');

/** Without the networking flags, Chromium keeps dialling Google's hosts, which this closed network refuses. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export type ChromiumAvailability = { ok: true } | { ok: false; reason: string };

export function ensureChromium(): ChromiumAvailability {
  const missing = [
    ...(existsSync(CHROMIUM_PATH) ? [] : ['chromium']),
    ...(hasJapaneseFont() ? [] : ['fonts-noto-cjk']),
    // The workbench page's ✅ / ⚠️ / ❌ in screenshots.
    ...(existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf') ? [] : ['fonts-noto-color-emoji']),
  ];
  if (missing.length === 0) return { ok: true };
  if (!existsSync(CHROMIUM_PATH) && process.env.CHROMIUM_PATH !== undefined) {
    return { ok: false, reason: `CHROMIUM_PATH=${CHROMIUM_PATH} does not exist` };
  }
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' });
  if (apt.status !== 0) {
    if (!existsSync(CHROMIUM_PATH)) return { ok: false, reason: `${CHROMIUM_PATH} is missing and apt-get is not available to install it` };
    return { ok: true }; // Chromium is there; only the font could not be added.
  }
  const sudo = process.getuid?.() === 0 ? '' : 'sudo -n ';
  process.stderr.write(`browser tests: installing ${missing.join(' ')} with apt-get\n`);
  const install = spawnSync(
    'sh',
    ['-c', `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`],
    { stdio: ['ignore', 'inherit', 'inherit'], timeout: 15 * 60_000 },
  );
  if (!existsSync(CHROMIUM_PATH)) {
    return { ok: false, reason: `apt-get could not install chromium (exit ${install.status ?? install.signal}); run as root or with passwordless sudo` };
  }
  return { ok: true };
}

function hasJapaneseFont(): boolean {
  const fc = spawnSync('fc-list', [':lang=ja', 'family'], { encoding: 'utf8' });
  // No fontconfig tools: Chromium brings fontconfig with it, so this is a machine without Chromium yet.
  return fc.status === 0 && fc.stdout.trim() !== '';
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}
