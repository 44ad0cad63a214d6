/// <reference lib="dom" />
// page.evaluate callbacks run in the browser: they see the DOM's types.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureChromium, launchChromium } from '../support/browser.js';
import { startStack, type Stack } from '../support/processes.js';

/**
 * The chat page shows a question while it is written: the offline model,
 * given a latency, streams its tool call the way a remote model does, and
 * the page grows the message from its deltas before the stored message
 * replaces it.
 */
const chromium = ensureChromium();
if (!chromium.ok) console.warn(`browser tests skipped: ${chromium.reason}`);

describe.skipIf(!chromium.ok)('chat page with a streaming model', { timeout: 120_000 }, () => {
  let stack: Stack;
  let browser: Browser;

  beforeAll(async () => {
    const id = randomUUID().slice(0, 8);
    [stack, browser] = await Promise.all([
      startStack({
        env: { REDIS_URL: inject('redisUrl'), KEY_PREFIX: `webs-${id}`, QUEUE_PREFIX: `{webs-${id}}`, OFFLINE_LATENCY_MS: '1600' },
        services: ['greeter'],
      }),
      launchChromium(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('grows the greeting on screen as it is written, then shows it whole under the same message', async () => {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${stack.url}/?lang=en`);
    await page.getByLabel('Form interview').check();
    await page.getByLabel('Form', { exact: true }).selectOption('event-registration-en');
    await page.getByRole('button', { name: 'Start' }).click();

    // While it streams: a message marked as being written, holding part of the text.
    const partial = await page.waitForFunction(
      () => {
        const el = document.querySelector('#log .msg.assistant.streaming');
        const text = el?.querySelector('.text')?.textContent ?? '';
        return text.length > 0 ? { id: el!.getAttribute('data-message-id'), text } : null;
      },
      null,
      { timeout: 60_000, polling: 20 },
    );
    const seen = (await partial.jsonValue()) as { id: string; text: string };

    // Then the whole greeting, no longer streaming, in the same list item.
    await page.waitForFunction(
      (id) => {
        const el = document.querySelector(`#log .msg[data-message-id="${id}"]`);
        return el !== null && !el.classList.contains('streaming');
      },
      seen.id,
      { timeout: 20_000 },
    );
    const final = (await page.locator(`#log .msg[data-message-id="${seen.id}"] .text`).textContent()) ?? '';
    expect(final).toContain('Japanese or English');
    expect(final.length).toBeGreaterThan(seen.text.length);
    expect(final.startsWith(seen.text.trim())).toBe(true);
    await expect(page.locator('#log .msg.assistant').count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
