import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT } from './processes.js';
import { CHROMIUM_PATH, installSystemPackages, missingSystemPackages, SYSTEM_PACKAGES } from './system-packages.js';

export { CHROMIUM_PATH };

/**
 * Debian's Chromium for the browser tests, never a downloaded one. When it is
 * missing the tests install it with apt (and a Japanese font, so Japanese text
 * in screenshots is glyphs, not boxes); only where apt cannot run do they skip,
 * and they say why.
 */

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

/** Chromium and its fonts, installed when missing (npm test has done so already; this covers a file run alone). */
export function ensureChromium(): ChromiumAvailability {
  const browserPackages = SYSTEM_PACKAGES.filter((pkg) => ['chromium', 'fonts-noto-cjk', 'fonts-noto-color-emoji'].includes(pkg.name));
  const missing = missingSystemPackages(browserPackages);
  if (missing.length === 0) return { ok: true };
  if (!existsSync(CHROMIUM_PATH) && process.env.CHROMIUM_PATH !== undefined) {
    return { ok: false, reason: `CHROMIUM_PATH=${CHROMIUM_PATH} does not exist` };
  }
  const installed = installSystemPackages(missing);
  if (existsSync(CHROMIUM_PATH)) return { ok: true }; // Only a font could not be added: the tests run, screenshots may show boxes.
  return { ok: false, reason: installed.ok ? `${CHROMIUM_PATH} is missing` : installed.reason };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export function screenshotPath(name: string): string {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return join(SCREENSHOT_DIR, `${name}.png`);
}
