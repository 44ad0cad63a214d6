/// <reference lib="dom" />
// page.evaluate callbacks run in the browser: they see the DOM's types.
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Api, type Json } from '../support/api.js';
import { ensureChromium, launchChromium, screenshotPath } from '../support/browser.js';
import { startStack, type Stack } from '../support/processes.js';
import { sharedStack } from '../support/shared-stack.js';

/**
 * The chat page at `/` as a person uses it: Debian's Chromium, headless,
 * driven through playwright-core against the whole system (gateway and every
 * agent as separate processes on a real Redis). Everything is done by clicking
 * and typing; the assertions read what is on screen, and compare it with what
 * the server holds where that proves nothing was lost or duplicated.
 */
const chromium = ensureChromium();
if (!chromium.ok) console.warn(`browser tests skipped: ${chromium.reason}`);

describe.skipIf(!chromium.ok)('chat page in Chromium', { timeout: 180_000 }, () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    // The agents are the run's shared ones; the gateway is this file's own, since a test stops and restarts it.
    const startOwnGateway = async () => {
      const shared = await sharedStack({
        services: ['greeter', 'architect', 'interviewer', 'reviewer', 'checker', 'auditor', 'planner', 'search'],
      });
      return startStack({ env: shared.env, services: [] });
    };
    [stack, browser] = await Promise.all([startOwnGateway(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  afterEach(async () => {
    await page?.context().close();
    // A script error can leave a page that looks fine and does nothing.
    expect(pageErrors).toEqual([]);
  });

  async function openPage(path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    // A context of its own per page: no storage shared between tests (and axe-core needs one).
    page = await (await browser.newContext({ viewport })).newPage();
    pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${stack.url}${path}`);
    return page;
  }

  /** Counts the assistant's messages on screen. */
  const assistantCount = (p: Page) => p.locator('.msg.assistant').count();

  /** Waits until the page shows more than `shownBefore` assistant messages and the running turn has ended. */
  async function waitForReply(chatPage: Page, shownBefore: number): Promise<string> {
    await chatPage.waitForFunction(
      (count) =>
        document.querySelectorAll('.msg.assistant').length > count &&
        document.getElementById('working')?.textContent === '' &&
        document.getElementById('pending')?.children.length === 0,
      shownBefore,
      { timeout: 30_000 },
    );
    return (await chatPage.locator('.msg.assistant .text').last().textContent()) ?? '';
  }

  /** Types an answer the way a person does (Enter sends) and waits for the agents' reply. */
  async function say(chatPage: Page, text: string, label = 'Your message'): Promise<string> {
    const shownBefore = await assistantCount(chatPage);
    await chatPage.getByLabel(label, { exact: true }).fill(text);
    await chatPage.getByLabel(label, { exact: true }).press('Enter');
    return waitForReply(chatPage, shownBefore);
  }

  /** What the server holds for the session the page shows (its id and token are in sessionStorage). */
  async function serverMessages(chatPage: Page): Promise<Json[]> {
    const saved = JSON.parse((await chatPage.evaluate(() => sessionStorage.getItem('convo.session'))) ?? 'null') as Json;
    const res = await new Api(stack.url).call('GET', `/v1/sessions/${saved.id}`, { token: saved.token });
    expect(res.status).toBe(200);
    return res.json.messages as Json[];
  }

  /** The messages on screen, in order, as `role: text`. */
  async function screenMessages(chatPage: Page): Promise<string[]> {
    return chatPage
      .locator('#log .msg[data-message-id]')
      .evaluateAll((els) => els.map((el) => `${el.getAttribute('data-role')}: ${el.querySelector('.text')?.textContent ?? ''}`));
  }

  /** WCAG 2.1 A and AA rules of axe-core on the page as it is now, as `rule: selectors` lines. */
  async function accessibilityViolations(chatPage: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page: chatPage }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  it('passes the WCAG 2.1 AA checks of axe-core on the start screen and in a running interview, in both languages', async () => {
    for (const ui of ['en', 'ja'] as const) {
      const chatPage = await openPage(`/?lang=${ui}`);
      expect(await accessibilityViolations(chatPage), `start screen (${ui})`).toEqual([]);
      await chatPage.getByRole('button', { name: ui === 'en' ? 'Start' : '開始' }).click();
      await waitForReply(chatPage, 0);
      await say(chatPage, ui === 'en' ? 'English' : '日本語', ui === 'en' ? 'Your message' : 'メッセージ');
      await say(chatPage, ui === 'en' ? 'I live in Osaka, Japan' : '大阪に住んでいます', ui === 'en' ? 'Your message' : 'メッセージ');
      expect(await accessibilityViolations(chatPage), `interview (${ui})`).toEqual([]);
      await chatPage.context().close();
    }
  });

  it('completes the English event registration form: panel follows every field, a shed turn is retried visibly, answers are submitted', async () => {
    const chatPage = await openPage('/?lang=en');
    await expect(chatPage.getByRole('heading', { name: 'Start a conversation' }).isVisible()).resolves.toBe(true);
    await chatPage.getByLabel('Form interview').check();
    await chatPage.getByLabel('Form', { exact: true }).selectOption('event-registration-en');
    await chatPage.getByRole('button', { name: 'Start' }).click();
    const greeting = await waitForReply(chatPage, 0);
    expect(greeting).toContain('Japanese or English');
    await expect(chatPage.getByTestId('current-agent').textContent()).resolves.toBe('greeter');

    // The gateway sheds the first answer once (503 + Retry-After, as under load): the page says so and retries by itself.
    let shed = 0;
    await chatPage.route('**/v1/sessions/*/turns', async (route) => {
      if (shed++ > 0) return route.continue();
      await route.fulfill({
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
        body: JSON.stringify({ error: { code: 'overloaded', message: 'the system is saturated; retry later' } }),
      });
    });
    const shownBefore = await assistantCount(chatPage);
    await chatPage.getByLabel('Your message', { exact: true }).fill('English');
    await chatPage.getByRole('button', { name: 'Send' }).click();
    await expect(chatPage.getByRole('alert').textContent()).resolves.toMatch(/busy \(overloaded\)\. Retrying in 1 s/);
    expect(await waitForReply(chatPage, shownBefore)).toMatch(/country/i);
    expect(shed).toBe(2);
    await chatPage.unroute('**/v1/sessions/*/turns');
    await expect(chatPage.getByRole('alert').isHidden()).resolves.toBe(true);

    expect(await say(chatPage, 'I live in Tokyo, Japan')).toMatch(/full name/i);
    await expect(chatPage.getByTestId('bootstrap').textContent()).resolves.toBe('en · JP · Asia/Tokyo');
    await expect(chatPage.getByTestId('current-agent').textContent()).resolves.toBe('interviewer');
    await say(chatPage, 'Jane Doe');
    const fullName = chatPage.locator('[data-field="full_name"]');
    await expect(fullName.getByTestId('field-status').textContent()).resolves.toBe('done');
    await expect(fullName.getByTestId('field-value').textContent()).resolves.toBe('Jane Doe');
    await say(chatPage, 'jane.doe@example.com');
    expect(await say(chatPage, 'none')).toMatch(/number/i);
    // The reviewer's verdict and the follow-up count are on the panel.
    await expect(chatPage.getByTestId('reviews').locator('li').first().textContent()).resolves.toMatch(/needs more.*Number of attendees/);
    await expect(chatPage.locator('[data-field="attendees"]').textContent()).resolves.toMatch(/1 follow-up/);
    await chatPage.screenshot({ path: screenshotPath('form-en-interview') });
    await say(chatPage, 'Two of us');
    await say(chatPage, 'I want to learn how to build reliable event-driven systems with queues');
    await expect(chatPage.getByRole('button', { name: 'Submit answers' }).isDisabled()).resolves.toBe(true);
    await say(chatPage, 'I work as a backend engineer at a logistics company');
    // Every required field is done: the optional one may still be asked, but the answers can be sent.
    await expect(chatPage.getByRole('button', { name: 'Submit answers' }).isEnabled()).resolves.toBe(true);
    expect(await say(chatPage, 'skip')).toMatch(/ready to submit/i);
    await expect(chatPage.getByTestId('field-progress').textContent()).resolves.toBe('4 of 4 required fields done');

    await chatPage.getByRole('button', { name: 'Submit answers' }).click();
    await chatPage.getByTestId('submitted').waitFor();
    const collected = await chatPage.getByTestId('collected').textContent();
    expect(collected).toContain('Jane Doe');
    expect(collected).toContain('jane.doe@example.com');
    await expect(chatPage.getByLabel('Your message', { exact: true }).isDisabled()).resolves.toBe(true);
    await chatPage.screenshot({ path: screenshotPath('form-en-submitted'), fullPage: true });

    expect(await screenMessages(chatPage)).toEqual((await serverMessages(chatPage)).map((m) => `${m.role}: ${m.text}`));
  });

  it('completes a Japanese job application: every question checked, the audit shown, submitted', async () => {
    const chatPage = await openPage('/?lang=ja');
    await chatPage.getByLabel('求人応募').check();
    // The page fills the form list from /samples/forms after the choice: wait for it rather than read it at once.
    const form = chatPage.getByLabel('フォーム', { exact: true });
    await chatPage.waitForFunction(
      (id) => (document.getElementById(id) as HTMLSelectElement | null)?.value === 'engineer-application-ja',
      (await form.getAttribute('id')) ?? '',
    );
    await expect(form.inputValue()).resolves.toBe('engineer-application-ja');
    await chatPage.getByLabel('会話の言語').selectOption('ja');
    await chatPage.getByRole('button', { name: '開始' }).click();
    await waitForReply(chatPage, 0);

    const label = 'メッセージ';
    expect(await say(chatPage, '大阪に住んでいます', label)).toMatch(/氏名/);
    await say(chatPage, '山田花子', label);
    await say(chatPage, 'hanako@example.jp', label);
    await say(chatPage, '5年です', label);
    expect(await say(chatPage, '決済基盤の信頼性を高める仕事がしたいからです', label)).toMatch(/貢献/);
    await say(chatPage, 'Goとデータベースの性能改善の経験で貢献できます', label);
    await say(chatPage, '2027年4月1日', label);
    await say(chatPage, 'スキップ', label);
    await chatPage.getByTestId('audit').waitFor();
    await expect(chatPage.getByTestId('audit').textContent()).resolves.toMatch(/^合格/);
    // The checker vetted every question the interviewer asked, and all of them passed.
    await expect(chatPage.getByTestId('checks').textContent()).resolves.toMatch(/^質問 (\d+) 件中 \1 件が確認を通過$/);
    await expect(chatPage.locator('[data-field="full_name"]').getByTestId('field-value').textContent()).resolves.toBe('山田花子');
    await expect(chatPage.locator('[data-field="portfolio"]').getByTestId('field-status').textContent()).resolves.toBe('スキップ');
    // Japanese text is laid out as Japanese (lang="ja" on the page and on each Japanese message).
    await expect(chatPage.evaluate(() => document.documentElement.lang)).resolves.toBe('ja');
    await expect(chatPage.locator('#log .msg.assistant').last().getAttribute('lang')).resolves.toBe('ja');
    await chatPage.screenshot({ path: screenshotPath('application-ja-audited'), fullPage: true });
    expect(await accessibilityViolations(chatPage)).toEqual([]);

    await chatPage.getByRole('button', { name: '回答を送信' }).click();
    await expect(chatPage.getByTestId('submitted').textContent()).resolves.toBe('送信しました。ありがとうございました。');
    expect(await screenMessages(chatPage)).toEqual((await serverMessages(chatPage)).map((m) => `${m.role}: ${m.text}`));
  });

  it('answers an FAQ question after a clarification picked by tapping a choice, on a phone-sized screen', async () => {
    const chatPage = await openPage('/?lang=en', { width: 390, height: 844 });
    await chatPage.getByLabel('FAQ dialog').check();
    await expect(chatPage.getByLabel('Form', { exact: true }).isHidden()).resolves.toBe(true);
    // This client is over its rate (429 + Retry-After) once: the notice shows while the page waits and retries.
    let limited = 0;
    await chatPage.route('**/v1/sessions', async (route) => {
      if (route.request().method() !== 'POST' || limited++ > 0) return route.continue();
      await route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
        body: JSON.stringify({
          error: { code: 'rate_limited', message: 'more than 600 requests in 1 minute from this client; retry later' },
        }),
      });
    });
    await chatPage.getByRole('button', { name: 'Start' }).click();
    await expect(chatPage.getByRole('alert').textContent()).resolves.toMatch(/busy \(rate_limited\)\. Retrying in 1 s/);
    await chatPage.getByText('Ask about shipping, returns').waitFor();
    expect(limited).toBe(2);
    await expect(chatPage.getByRole('alert').isHidden()).resolves.toBe(true);
    await chatPage.unroute('**/v1/sessions');

    const clarify = await say(chatPage, '返品');
    expect(clarify).toContain('どの内容をお知りになりたいですか');
    const choices = chatPage.getByRole('group', { name: 'Choose one' });
    // The choices come from what the search finds for 返品; their order follows its ranking.
    await expect(choices.getByRole('button').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['返品ポリシーを教えてください', '返品できない商品はありますか', '手続き', '送料']),
    );
    await chatPage.screenshot({ path: screenshotPath('faq-clarify-phone'), fullPage: true });

    // Keyboard only: focus the choice and press Enter.
    const shownBefore = await assistantCount(chatPage);
    await choices.getByRole('button', { name: '手続き' }).focus();
    await chatPage.keyboard.press('Enter');
    const answer = await waitForReply(chatPage, shownBefore);
    expect(answer).toContain('返品・交換を申請');
    await expect(choices.isHidden()).resolves.toBe(true);

    // On a phone the panel sits folded under the chat; opening it shows the plan, the hits and the sources.
    await expect(chatPage.locator('#panel-details').evaluate((d) => (d as HTMLDetailsElement).open)).resolves.toBe(false);
    await chatPage.getByText('What the system is doing').click();
    await expect(chatPage.getByTestId('plan').textContent()).resolves.toMatch(/followup_search/);
    await expect(chatPage.getByTestId('search-hits').locator('li').first().textContent()).resolves.toMatch(
      /返品の手続き方法を教えてください/,
    );
    await expect(chatPage.getByTestId('sources').textContent()).resolves.toMatch(/返品の手続き方法を教えてください \[ja-returns-howto\]/);
    // Nothing overflows sideways on a 390 px screen.
    await expect(chatPage.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    await chatPage.screenshot({ path: screenshotPath('faq-answer-phone'), fullPage: true });
    expect(await accessibilityViolations(chatPage)).toEqual([]);
  });

  it('resumes after the gateway restarts mid-interview: no message lost or duplicated, a message typed while it was down is sent once', async () => {
    const chatPage = await openPage('/?lang=en');
    await chatPage.getByLabel('Form interview').check();
    await chatPage.getByLabel('Form', { exact: true }).selectOption('event-registration-en');
    await chatPage.getByLabel('Conversation language').selectOption('en');
    await chatPage.getByRole('button', { name: 'Start' }).click();
    await waitForReply(chatPage, 0);
    await say(chatPage, 'I live in Berlin, Germany');
    await say(chatPage, 'Max Mustermann');
    await chatPage.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'open');

    await stack.procs.gateway?.kill();
    await chatPage.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'reconnecting');
    await expect(chatPage.locator('#connection-text').textContent()).resolves.toMatch(/Reconnecting|reconnecting in/);
    // Typed while no gateway answers: the page shows it as sending and keeps retrying.
    const shownBefore = await assistantCount(chatPage);
    await chatPage.getByLabel('Your message', { exact: true }).fill('max@example.com');
    await chatPage.getByLabel('Your message', { exact: true }).press('Enter');
    await expect(chatPage.getByRole('alert').textContent()).resolves.toMatch(/cannot be reached/);
    await chatPage.screenshot({ path: screenshotPath('gateway-down'), fullPage: true });

    await stack.restartGateway();
    expect(await waitForReply(chatPage, shownBefore)).toMatch(/number of attendees/i);
    await chatPage.waitForFunction(() => document.getElementById('connection')?.dataset.state === 'open');

    const onScreen = await screenMessages(chatPage);
    expect(onScreen).toEqual((await serverMessages(chatPage)).map((m) => `${m.role}: ${m.text}`));
    expect(onScreen.filter((m) => m === 'user: max@example.com')).toHaveLength(1);
    const ids = await chatPage
      .locator('#log .msg[data-message-id]')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-message-id')));
    expect(new Set(ids).size).toBe(ids.length);

    // A reload (the same tab) picks the same conversation up from sessionStorage and rebuilds it from the stream.
    await chatPage.reload();
    await chatPage.waitForFunction((count) => document.querySelectorAll('#log .msg[data-message-id]').length === count, onScreen.length);
    expect(await screenMessages(chatPage)).toEqual(onScreen);
    await expect(chatPage.locator('[data-field="email"]').getByTestId('field-value').textContent()).resolves.toBe('max@example.com');
  });
});
