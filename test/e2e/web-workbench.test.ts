/// <reference lib="dom" />
// page.evaluate callbacks run in the browser: they see the DOM's types.
import { readFile } from 'node:fs/promises';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Api, type Json } from '../support/api.js';
import { ensureChromium, launchChromium, screenshotPath } from '../support/browser.js';
import { sharedStack, type SharedStackInfo } from '../support/shared-stack.js';

/**
 * The problem workbench page (/workbench.html, docs/seeds/003 UI) as a
 * teacher uses it: Debian's Chromium, headless, driven through playwright-core
 * against the gateway and the workbench agent as separate processes on a real
 * Redis, with the offline model. Everything is done by clicking and typing;
 * what the page shows is compared with what the server holds (read with the
 * worksheet's tokens, which the page keeps in localStorage and never puts in
 * its address).
 */
const chromium = ensureChromium();
if (!chromium.ok) console.warn(`browser tests skipped: ${chromium.reason}`);

describe.skipIf(!chromium.ok)('problem workbench page in Chromium', { timeout: 240_000 }, () => {
  let stack: SharedStackInfo;
  let api: Api;
  let browser: Browser;
  let contexts: BrowserContext[] = [];
  let pageErrors: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([sharedStack({ services: ['workbench'] }), launchChromium()]);
    api = new Api(stack.url);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    contexts = [];
    // A script error can leave a page that looks fine and does nothing.
    expect(pageErrors).toEqual([]);
    pageErrors = [];
  });

  /** A page in a browser context of its own (its own localStorage: another browser, as far as the page knows). */
  async function openPage(path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(path.startsWith('http') ? path : `${stack.url}${path}`);
    return page;
  }

  type Tokens = { editToken?: string; shareToken?: string };
  const TOKEN_KEY = 'convo.workbench.tokens.';
  /** The worksheet's tokens as the page keeps them in this browser's localStorage. */
  const tokensOf = (p: Page, worksheetId: string): Promise<Tokens> =>
    p.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}') as Tokens, `${TOKEN_KEY}${worksheetId}`);
  /** Puts tokens in the page's localStorage, as the page would have kept them at creation. */
  const holdTokens = (p: Page, worksheetId: string, tokens: Tokens): Promise<void> =>
    p.evaluate(([key, value]) => localStorage.setItem(key, value), [`${TOKEN_KEY}${worksheetId}`, JSON.stringify(tokens)] as const);
  /** The address shows the worksheet's id, never one of its tokens. */
  async function expectNoTokenInAddress(p: Page, tokens: Tokens): Promise<void> {
    const href = await p.evaluate(() => location.href);
    for (const token of [tokens.editToken, tokens.shareToken]) if (token) expect(href).not.toContain(token);
    expect(href).not.toContain('share=');
    expect(href).not.toContain('token');
  }
  /** The alert's words, once it shows. */
  async function alertText(p: Page): Promise<string> {
    await p.getByRole('alert').waitFor();
    return (await p.getByRole('alert').textContent())?.trim() ?? '';
  }
  /** Clicks a PDF button and answers the file the browser downloaded: its name and first bytes. */
  async function downloadPdf(p: Page, testId: string): Promise<{ name: string; head: string }> {
    const [download] = await Promise.all([p.waitForEvent('download'), p.getByTestId(testId).click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), head: (await readFile(path)).subarray(0, 5).toString() };
  }

  /** axe-core's WCAG 2.1 A/AA rules on the page as it is now; serious and critical violations, as `rule: selectors`. */
  async function seriousViolations(p: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page: p }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  /** Waits until the page shows `count` cards, every one of them with the given indicator state. */
  async function waitForCards(p: Page, count: number, state = 'ok'): Promise<void> {
    await p.waitForFunction(
      ([n, s]) => {
        const cards = document.querySelectorAll('[data-testid="problem-card"]');
        return cards.length === n && Array.from(cards).every((card) => card.getAttribute('data-consistency') === s);
      },
      [count, state] as const,
      { timeout: 60_000 },
    );
  }

  /** Waits until the page shows `count` cards, every one of them checked (whatever the result). */
  async function waitForChecked(p: Page, count: number): Promise<void> {
    await p.waitForFunction(
      (n) => {
        const cards = document.querySelectorAll('[data-testid="problem-card"]');
        return (
          cards.length === n &&
          Array.from(cards).every((card) => ['ok', 'warn', 'bad'].includes(card.getAttribute('data-consistency') ?? ''))
        );
      },
      count,
      { timeout: 60_000 },
    );
  }

  const cardOf = (p: Page, problemId: string): Locator => p.locator(`[data-testid="problem-card"][data-problem-id="${problemId}"]`);
  const worksheetIdOf = (p: Page): string => new URL(p.url()).searchParams.get('worksheet') ?? '';
  const consistent = async (problemId: string, token: string): Promise<boolean> =>
    (await api.call('POST', `/api/problems/${problemId}/check-consistency`, { token, body: {} })).json.isConsistent as boolean;

  it('a Japanese 算数 worksheet: 10 cards ✅, a wrong answer mark saved from the editor shows ❌, auto-fix approved brings ✅ back; a stale edit shows the current problem; the agent’s before/after; undo, validate, PDFs', async () => {
    const wb = await openPage('/workbench.html?lang=ja');
    await expect(wb.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('問題ワークベンチ');
    await expect(wb.getByRole('link', { name: 'チャットページ' }).getAttribute('href')).resolves.toBe('/?lang=ja');
    expect(await seriousViolations(wb), 'start').toEqual([]);

    // Generate: 算数, 標準, 日本語, topic 分数.
    await wb.getByLabel('教科').fill('算数');
    await wb.getByLabel('難易度').selectOption('normal');
    await wb.getByLabel('問題の言語').selectOption('ja');
    await wb.getByLabel('トピック（任意）').fill('分数');
    await wb.getByRole('button', { name: '10問を作成' }).click();
    await waitForCards(wb, 10);
    const worksheetId = worksheetIdOf(wb);
    expect(worksheetId).toMatch(/^ws-/);
    const tokens = await tokensOf(wb, worksheetId);
    expect(tokens).toEqual({ editToken: expect.any(String), shareToken: expect.any(String) });
    const token = tokens.editToken as string;
    await expectNoTokenInAddress(wb, tokens);
    const sheet = (await api.call('GET', `/api/worksheets/${worksheetId}`, { token })).json;
    expect(sheet).toMatchObject({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    await expect(wb.getByRole('heading', { name: sheet.title }).isVisible()).resolves.toBe(true);
    await expect(
      wb.locator('[data-testid="problem-card"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-problem-id'))),
    ).resolves.toEqual(sheet.problems.map((problem: Json) => problem.id));
    for (const text of await wb.getByTestId('consistency').allTextContents()) expect(text).toMatch(/✅\s*整合性OK/);
    await expect(wb.getByTestId('summary').textContent()).resolves.toBe('✅ 整合 10 問 · ⚠️ 軽微 0 問 · ❌ 不整合 0 問');
    await expect(wb.getByTestId('status').textContent()).resolves.toBe('整合性を確認しました: 10 問中 10 問が整合しています。');
    // Multiple choice shows the choices with the correct one marked; written shows the model answer and rubric.
    const choice = sheet.problems.find((problem: Json) => problem.type === 'multiple_choice');
    const written = sheet.problems.find((problem: Json) => problem.type === 'written');
    await expect(cardOf(wb, choice.id).locator('[data-correct="true"] .choice-text').textContent()).resolves.toBe(
      choice.choices[choice.correctChoiceIndex],
    );
    await expect(cardOf(wb, choice.id).getByTestId('prompt').textContent()).resolves.toBe(choice.prompt);
    await expect(cardOf(wb, written.id).getByTestId('modelAnswer').textContent()).resolves.toContain(written.modelAnswer);
    await expect(cardOf(wb, written.id).getByTestId('modelAnswer').locator('li').allTextContents()).resolves.toEqual(written.rubric);
    await wb.screenshot({ path: screenshotPath('workbench-ja-generated'), fullPage: true });

    // Edit the choices: the suggestions for the problem show beside the editor; mark a wrong choice as correct and save.
    const card = cardOf(wb, choice.id);
    await card.getByRole('button', { name: '選択肢を編集' }).click();
    await expect(card.getByRole('button', { name: '選択肢を編集' }).getAttribute('aria-expanded')).resolves.toBe('true');
    const ideas = (await api.call('GET', `/api/suggestions/${choice.id}`, { token })).json;
    await card.getByTestId('suggestions').locator('li').first().waitFor();
    await expect(card.getByTestId('suggestions').locator('li').allTextContents()).resolves.toEqual(ideas.choices);
    for (const [i, text] of (choice.choices as string[]).entries()) {
      await expect(card.getByRole('textbox', { name: `選択肢 ${i + 1}` }).inputValue()).resolves.toBe(text);
    }
    expect(await seriousViolations(wb), 'editor open').toEqual([]);
    const wrong = (choice.correctChoiceIndex + 1) % 4;
    await card
      .getByRole('group', { name: '正解の選択肢' })
      .getByRole('radio', { name: `選択肢 ${wrong + 1}` })
      .check();
    await card.getByRole('button', { name: '保存' }).click();
    await card.locator('[data-testid="consistency"][data-state="bad"]').waitFor();
    await expect(card.getByTestId('consistency').textContent()).resolves.toMatch(/❌\s*重大な不整合/);
    await expect(card.getByTestId('issues').textContent()).resolves.toContain(`正解は選択肢${choice.correctChoiceIndex + 1}`);
    await expect(card.getByTestId('version').textContent()).resolves.toBe('バージョン 2');
    await expect(wb.getByTestId('status').textContent()).resolves.toMatch(
      new RegExp(`^問題 ${choice.index}: ❌ 重大な不整合（\\d+ 件）。$`),
    );
    await expect(wb.getByTestId('summary').textContent()).resolves.toBe('✅ 整合 9 問 · ⚠️ 軽微 0 問 · ❌ 不整合 1 問');
    expect((await api.call('GET', `/api/problems/${choice.id}`, { token })).json.correctChoiceIndex).toBe(wrong);
    expect(await consistent(choice.id, token)).toBe(false);

    // One click on Auto-fix: the proposal with its confidence, field by field before → after; approved, ✅ again.
    await card.getByRole('button', { name: '自動修正' }).click();
    const proposal = card.getByTestId('proposal');
    await proposal.waitFor();
    await expect(proposal.getByTestId('confidence').textContent()).resolves.toMatch(/^信頼度: \d+%$/);
    const answerRow = proposal.locator('.compare-row[data-field="correctChoiceIndex"]');
    await expect(answerRow.getByTestId('before').textContent()).resolves.toContain(`選択肢 ${wrong + 1}`);
    await expect(answerRow.getByTestId('after').textContent()).resolves.toContain(`選択肢 ${choice.correctChoiceIndex + 1}`);
    // Not applied until approved.
    expect((await api.call('GET', `/api/problems/${choice.id}`, { token })).json.correctChoiceIndex).toBe(wrong);
    expect(await seriousViolations(wb), 'issues and proposal').toEqual([]);
    await card.screenshot({ path: screenshotPath('workbench-ja-autofix-proposal') });
    await proposal.getByRole('button', { name: '承認' }).click();
    await card.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    await expect(card.getByTestId('consistency').textContent()).resolves.toMatch(/✅\s*整合性OK/);
    await expect(card.getByTestId('issues').count()).resolves.toBe(0);
    await expect(card.getByTestId('proposal').count()).resolves.toBe(0);
    const fixed = (await api.call('GET', `/api/problems/${choice.id}`, { token })).json;
    expect(fixed.correctChoiceIndex).toBe(choice.correctChoiceIndex);
    expect(await consistent(choice.id, token)).toBe(true);
    await expect(card.getByTestId('version').textContent()).resolves.toBe(`バージョン ${fixed.version}`);
    await expect(card.locator('[data-correct="true"] .choice-text').textContent()).resolves.toBe(choice.choices[choice.correctChoiceIndex]);

    // Someone else edits the problem while the prompt editor is open: saving says so and shows the current problem.
    await card.getByRole('button', { name: '問題文を編集' }).click();
    await card.getByRole('textbox', { name: '問題文' }).fill(`${choice.prompt}（途中の式も書きなさい）`);
    const elsewhere = await api.call('PATCH', `/api/problems/${choice.id}`, {
      token,
      body: { field: 'explanation', value: `${fixed.explanation}（別のタブで追記）`, version: fixed.version },
    });
    expect(elsewhere.status).toBe(200);
    await card.getByRole('button', { name: '保存' }).click();
    await card.getByTestId('card-note').waitFor();
    await expect(card.getByTestId('card-note').textContent()).resolves.toBe(
      `問題 ${choice.index} は別の場所で更新されていました。最新の内容（バージョン ${elsewhere.json.version}）を表示しています。変更は保存されていません。`,
    );
    await expect(card.getByTestId('explanation').textContent()).resolves.toBe(elsewhere.json.explanation);
    await expect(card.getByTestId('prompt').textContent()).resolves.toBe(choice.prompt);
    await expect(card.getByTestId('version').textContent()).resolves.toBe(`バージョン ${elsewhere.json.version}`);
    expect((await api.call('GET', `/api/problems/${choice.id}`, { token })).json.prompt).toBe(choice.prompt);

    // Ask the agent 「問題文をもっと具体的にして」 on another problem: its message, the tools it ran, before/after and the scores.
    // A written problem: the prompt can state the form of its model answer (a multiple-choice problem's choices already show it).
    const target = sheet.problems.find((problem: Json) => problem.type === 'written' && problem.id !== choice.id);
    const agentCard = cardOf(wb, target.id);
    await agentCard.getByText('エージェントに依頼', { exact: true }).click();
    await agentCard.getByRole('group', { name: 'よく使う依頼' }).getByRole('button', { name: '問題文をもっと具体的にして' }).click();
    const result = agentCard.getByTestId('agent-result');
    await result.waitFor({ timeout: 60_000 });
    await agentCard.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    await expect(result.getAttribute('data-intent')).resolves.toBe('specify');
    await expect(result.getByTestId('agent-message').textContent()).resolves.toMatch(/品質スコア/);
    const tools = await result
      .getByTestId('tools')
      .locator('li')
      .evaluateAll((els) => els.map((el) => el.getAttribute('data-tool')));
    expect(tools).toEqual(expect.arrayContaining(['editor', 'consistency_checker', 'quality_scorer']));
    const promptRow = result.locator('.compare-row[data-field="prompt"]');
    await expect(promptRow.getByTestId('before').locator('.value').textContent()).resolves.toBe(target.prompt);
    const specified = (await api.call('GET', `/api/problems/${target.id}`, { token })).json;
    expect(specified.prompt).not.toBe(target.prompt);
    expect(specified.prompt.startsWith(target.prompt)).toBe(true);
    await expect(promptRow.getByTestId('after').locator('.value').textContent()).resolves.toBe(specified.prompt);
    await expect(result.getByTestId('quality').textContent()).resolves.toMatch(/^総合: \d\.\d\d → \d\.\d\d$/);
    await expect(
      result.locator('table.metrics tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-metric'))),
    ).resolves.toEqual(['clarity', 'difficulty', 'educationalValue', 'consistency']);
    // The card shows the problem as the agent left it.
    await expect(agentCard.getByTestId('prompt').textContent()).resolves.toBe(specified.prompt);
    await expect(agentCard.getByTestId('version').textContent()).resolves.toBe(`バージョン ${specified.version}`);
    await expect(wb.getByTestId('status').textContent()).resolves.toMatch(
      new RegExp(`^問題 ${target.index}: エージェントが完了しました（問題文[^）]*）。 問題 ${target.index}: ✅ 整合性OK。$`),
    );
    expect(await seriousViolations(wb), 'agent result').toEqual([]);
    await agentCard.screenshot({ path: screenshotPath('workbench-ja-agent') });

    // Undo takes the agent's edit back.
    await agentCard.getByRole('button', { name: '元に戻す' }).click();
    await expect.poll(() => agentCard.getByTestId('prompt').textContent()).toBe(target.prompt);
    await agentCard.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    expect((await api.call('GET', `/api/problems/${target.id}`, { token })).json.prompt).toBe(target.prompt);

    // Validate the worksheet: the overall score, as the server computes it.
    await wb.getByRole('button', { name: '問題セットを検証' }).click();
    await wb.getByTestId('overall-score').waitFor();
    const validation = (await api.call('POST', `/api/worksheets/${worksheetId}/validate`, { token })).json;
    await expect(wb.getByTestId('overall-score').textContent()).resolves.toBe(`総合スコア: ${validation.overallScore.toFixed(2)}`);
    await expect(wb.getByTestId('validation').textContent()).resolves.toContain('10 問中 10 問に問題はありません。');

    // The PDFs: fetched with the worksheet's token (a plain link cannot send it) and downloaded under their names.
    for (const [testId, kind] of [
      ['pdf-questions', 'questions'],
      ['pdf-answers', 'answers'],
    ] as const) {
      await expect(downloadPdf(wb, testId)).resolves.toEqual({ name: `${worksheetId}-${kind}.pdf`, head: '%PDF-' });
    }
    await expect(wb.getByRole('button', { name: '問題用紙（PDF）' }).isVisible()).resolves.toBe(true);
    await expect(wb.getByRole('button', { name: '解答用紙（PDF）' }).isVisible()).resolves.toBe(true);
    await expectNoTokenInAddress(wb, tokens);
    expect(await seriousViolations(wb), 'validated').toEqual([]);
    await wb.evaluate(() => window.scrollTo(0, 0));
    await wb.screenshot({ path: screenshotPath('workbench-ja-desktop'), fullPage: true });
  });

  it('on a phone-sized screen: a worksheet opened by its address (/workbench?worksheet=), an editor and the agent’s comparison, nothing overflowing sideways', async () => {
    const created = await api.call('POST', '/api/worksheets', {
      body: { subject: '算数', difficulty: 'easy', language: 'ja', topic: '分数' },
    });
    expect(created.status).toBe(201);
    const sheet = created.json;
    // This browser created it: it holds its tokens.
    const phone = await openPage('/workbench.html', { width: 390, height: 844 });
    await holdTokens(phone, sheet.worksheetId, { editToken: sheet.editToken, shareToken: sheet.shareToken });
    // No ?lang=: the page follows the worksheet's language.
    await phone.goto(`${stack.url}/workbench?worksheet=${sheet.worksheetId}`);
    await waitForCards(phone, 10);
    expect(new URL(phone.url()).pathname).toBe('/workbench.html');
    await expect(phone.evaluate(() => document.documentElement.lang)).resolves.toBe('ja');
    await expect(phone.title()).resolves.toBe('問題ワークベンチ');
    await expect(phone.getByRole('heading', { name: sheet.title }).isVisible()).resolves.toBe(true);
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath('workbench-phone-loaded') });

    const first = cardOf(phone, sheet.problems[0].id);
    await first.getByRole('button', { name: '問題文を編集' }).click();
    await first.getByTestId('suggestions').locator('li').first().waitFor();
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    await first.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: screenshotPath('workbench-phone-editor') });
    await first.getByRole('button', { name: 'キャンセル' }).click();
    await expect(first.getByTestId('editor').count()).resolves.toBe(0);

    await first.getByText('エージェントに依頼', { exact: true }).click();
    await first.getByRole('button', { name: 'この問題を改善して' }).click();
    const result = first.getByTestId('agent-result');
    await result.waitFor({ timeout: 60_000 });
    await first.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    await expect(result.getAttribute('data-intent')).resolves.toBe('improve');
    await expect(result.getByTestId('quality').textContent()).resolves.toMatch(/^総合: \d\.\d\d → \d\.\d\d$/);
    await expect(phone.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
    expect(await seriousViolations(phone)).toEqual([]);
    await result.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: screenshotPath('workbench-phone-agent') });
    await phone.evaluate(() => window.scrollTo(0, 0));
    await phone.screenshot({ path: screenshotPath('workbench-phone'), fullPage: true });
  });

  it('in English, reached from the chat page: an unsupported subject is explained, English vocabulary generated, the agent checks consistency; the page language switches in place and links back', async () => {
    const chat = await openPage('/?lang=en');
    await chat.getByRole('link', { name: /Problem workbench/ }).click();
    await chat.waitForURL('**/workbench.html');
    const wb = chat;
    await expect(wb.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Problem workbench');

    await wb.getByLabel('Subject').fill('Ancient history');
    await wb.getByLabel('Worksheet language').selectOption('en');
    await wb.getByRole('button', { name: 'Generate 10 problems' }).click();
    await expect(
      wb
        .getByRole('alert')
        .textContent()
        .then((text) => text?.trim()),
    ).resolves.toBe('Worksheets for "Ancient history" cannot be made here. Subjects offered: Math, Kanji readings, English vocabulary');
    await expect(wb.evaluate(() => document.activeElement?.id)).resolves.toBe('subject');

    await wb.getByLabel('Subject').fill('English vocabulary');
    await wb.getByLabel('Difficulty').selectOption('easy');
    await wb.getByRole('button', { name: 'Generate 10 problems' }).click();
    await waitForCards(wb, 10);
    await expect(wb.getByRole('alert').isHidden()).resolves.toBe(true);
    for (const text of await wb.getByTestId('consistency').allTextContents()) expect(text).toMatch(/✅\s*Consistent/);
    const token = (await tokensOf(wb, worksheetIdOf(wb))).editToken as string;
    const sheet = (await api.call('GET', `/api/worksheets/${worksheetIdOf(wb)}`, { token })).json;
    expect(sheet).toMatchObject({ subject: 'English vocabulary', difficulty: 'easy', language: 'en' });

    const card = cardOf(wb, sheet.problems[0].id);
    await card.getByText('Ask the agent', { exact: true }).click();
    await card.getByRole('button', { name: 'Check consistency' }).click();
    const result = card.getByTestId('agent-result');
    await result.waitFor({ timeout: 60_000 });
    await expect(result.getAttribute('data-intent')).resolves.toBe('check');
    await expect(result.getByTestId('tools').locator('li[data-tool="consistency_checker"]').count()).resolves.toBeGreaterThan(0);
    // A consistent problem is left as it is, unless its quality is under the bar (the agent then improves it once).
    const edits = (await api.call('GET', `/api/problems/${sheet.problems[0].id}/history`, { token })).json.edits as Json[];
    if (edits.length === 0) await expect(result.textContent()).resolves.toContain('Nothing was changed.');
    else await expect(result.locator('.compare-row').count()).resolves.toBeGreaterThan(0);
    await card.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    expect(await seriousViolations(wb)).toEqual([]);
    await card.screenshot({ path: screenshotPath('workbench-en-agent-check') });

    // The page language switches in place: labels change, the agent's answer and the problems stay.
    await wb.getByLabel('Page language').selectOption('ja');
    await expect(card.getByRole('button', { name: '問題文を編集' }).isVisible()).resolves.toBe(true);
    await expect(card.getByTestId('consistency').textContent()).resolves.toMatch(/✅\s*整合性OK/);
    await expect(result.getByTestId('quality').textContent()).resolves.toMatch(/^総合: /);
    await expect(card.getByTestId('prompt').textContent()).resolves.toBe(sheet.problems[0].prompt);
    expect(new URL(wb.url()).searchParams.get('lang')).toBe('ja');
    await wb.getByRole('link', { name: 'チャットページ' }).click();
    await wb.waitForURL('**/?lang=ja');
    await expect(wb.getByRole('heading', { name: '会話を始める' }).isVisible()).resolves.toBe(true);
  });

  it('the owner’s worksheet survives a reload (token from localStorage); its share link opens it read-only in another browser; no token is ever in the address; delete asks, then forgets it', async () => {
    const wb = await openPage('/workbench.html?lang=en');
    await wb.getByLabel('Subject').fill('math');
    await wb.getByLabel('Difficulty').selectOption('easy');
    await wb.getByLabel('Worksheet language').selectOption('en');
    await wb.getByRole('button', { name: 'Generate 10 problems' }).click();
    await waitForCards(wb, 10);
    const worksheetId = worksheetIdOf(wb);
    const tokens = await tokensOf(wb, worksheetId);
    expect(tokens).toEqual({ editToken: expect.any(String), shareToken: expect.any(String) });
    const token = tokens.editToken as string;
    const sheet = (await api.call('GET', `/api/worksheets/${worksheetId}`, { token })).json;
    await expectNoTokenInAddress(wb, tokens);
    await expect(wb.getByTestId('readonly-notice').isHidden()).resolves.toBe(true);

    // A reload opens the same worksheet, editable: the token comes from localStorage, not from the address.
    await wb.reload();
    await waitForCards(wb, 10);
    expect(worksheetIdOf(wb)).toBe(worksheetId);
    await expect(wb.getByRole('heading', { name: sheet.title }).isVisible()).resolves.toBe(true);
    await expect(cardOf(wb, sheet.problems[0].id).getByRole('button', { name: 'Edit prompt' }).isVisible()).resolves.toBe(true);
    await expect(wb.getByRole('button', { name: 'Delete worksheet' }).isVisible()).resolves.toBe(true);
    await expectNoTokenInAddress(wb, tokens);

    // Share: the read-only link carries the share token in its fragment, never in the query.
    await wb.getByRole('button', { name: 'Share (read-only link)' }).click();
    const link = await wb.getByTestId('share-link').inputValue();
    expect(link).toBe(`${stack.url}/workbench?worksheet=${worksheetId}#share=${tokens.shareToken}`);
    await expect(wb.getByTestId('status').textContent()).resolves.toMatch(/^The read-only link (was copied\.|is shown under the buttons)/);
    await expectNoTokenInAddress(wb, tokens);
    expect(await seriousViolations(wb), 'share link shown').toEqual([]);

    // Meanwhile the owner breaks a problem: the reader sees it ❌, with no way to fix it.
    const broken = sheet.problems.find((problem: Json) => problem.type === 'multiple_choice');
    const wrong = (broken.correctChoiceIndex + 1) % 4;
    expect(
      (
        await api.call('PATCH', `/api/problems/${broken.id}`, {
          token,
          body: { field: 'correctChoiceIndex', value: wrong, version: broken.version },
        })
      ).status,
    ).toBe(200);

    // Another browser opens the share link: read-only, the fragment gone from the address at once.
    const reader = await openPage(link);
    await reader.getByTestId('readonly-notice').waitFor();
    await waitForChecked(reader, 10);
    expect(new URL(reader.url()).pathname).toBe('/workbench.html');
    expect(new URL(reader.url()).hash).toBe('');
    expect(worksheetIdOf(reader)).toBe(worksheetId);
    await expectNoTokenInAddress(reader, tokens);
    await expect(tokensOf(reader, worksheetId)).resolves.toEqual({ shareToken: tokens.shareToken });
    await expect(reader.getByTestId('readonly-notice').textContent()).resolves.toMatch(/^Read-only: this worksheet was shared with you\./);
    await expect(reader.getByRole('heading', { name: sheet.title }).isVisible()).resolves.toBe(true);
    // No control that changes anything: edit, undo, the agent, auto-fix, delete.
    for (const name of [/^Edit /, /^Undo$/, /^Auto-fix$/, /^Approve$/, /^Send to the agent$/, /^Delete worksheet$/]) {
      await expect(reader.getByRole('button', { name }).count(), String(name)).resolves.toBe(0);
    }
    await expect(reader.getByText('Ask the agent', { exact: true }).count()).resolves.toBe(0);
    await expect(reader.getByRole('button', { name: 'Delete worksheet' }).isVisible()).resolves.toBe(false);
    // The checks run as for the owner: the broken problem is ❌ with its issues shown.
    const brokenCard = cardOf(reader, broken.id);
    await expect(brokenCard.getAttribute('data-consistency')).resolves.toBe('bad');
    await expect(brokenCard.getByTestId('issues').isVisible()).resolves.toBe(true);
    await expect(reader.getByTestId('summary').textContent()).resolves.toBe('✅ 9 consistent · ⚠️ 0 minor issues · ❌ 1 inconsistent');
    // Suggestions, validation and PDFs still work with the share token.
    const first = cardOf(reader, sheet.problems[0].id);
    await first.getByRole('button', { name: 'Suggestions for the prompt' }).click();
    await first.getByTestId('suggestions').locator('li').first().waitFor();
    const ideas = (await api.call('GET', `/api/suggestions/${sheet.problems[0].id}`, { token: tokens.shareToken })).json;
    await expect(first.getByTestId('suggestions').locator('li').allTextContents()).resolves.toEqual(ideas.prompt);
    await reader.getByRole('button', { name: 'Validate worksheet' }).click();
    await reader.getByTestId('overall-score').waitFor();
    await expect(reader.getByTestId('validation').textContent()).resolves.toContain('9 of 10 problems are valid.');
    await expect(downloadPdf(reader, 'pdf-answers')).resolves.toEqual({ name: `${worksheetId}-answers.pdf`, head: '%PDF-' });
    expect(await seriousViolations(reader), 'read-only').toEqual([]);
    await reader.screenshot({ path: screenshotPath('workbench-en-read-only'), fullPage: true });
    // A reload stays read-only, from the share token kept in localStorage.
    await reader.reload();
    await reader.getByTestId('readonly-notice').waitFor();
    await waitForChecked(reader, 10);
    await expect(reader.getByRole('button', { name: /^Edit / }).count()).resolves.toBe(0);
    await expectNoTokenInAddress(reader, tokens);

    // The worksheet's id with no token known in this browser: the page says so instead of a generic error.
    const stranger = await openPage(`/workbench.html?worksheet=${worksheetId}&lang=ja`);
    await expect(alertText(stranger)).resolves.toBe(
      'この問題セットはここでは開けません: このブラウザーには鍵が保存されていません。作成したブラウザーで開くか、閲覧専用の共有リンクを使ってください。',
    );
    await expect(stranger.locator('#worksheet').isHidden()).resolves.toBe(true);

    // Delete: a dismissed confirm deletes nothing; an accepted one deletes, forgets the tokens and shows the empty form.
    wb.once('dialog', (dialog) => void dialog.dismiss());
    await wb.getByRole('button', { name: 'Delete worksheet' }).click();
    expect((await api.call('GET', `/api/worksheets/${worksheetId}`, { token })).status).toBe(200);
    await expect(wb.locator('#worksheet').isVisible()).resolves.toBe(true);
    let asked = '';
    wb.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await wb.getByRole('button', { name: 'Delete worksheet' }).click();
    await wb.locator('#worksheet').waitFor({ state: 'hidden' });
    expect(asked).toBe(`Delete “${sheet.title}” with its history? This cannot be undone, and its share link stops working.`);
    await expect(wb.getByTestId('status').textContent()).resolves.toBe(`Deleted “${sheet.title}”.`);
    expect(new URL(wb.url()).searchParams.has('worksheet')).toBe(false);
    await expect(wb.getByLabel('Subject').inputValue()).resolves.toBe('');
    await expect(tokensOf(wb, worksheetId)).resolves.toEqual({});
    expect((await api.call('GET', `/api/worksheets/${worksheetId}`, { token })).status).toBe(404);
    // The share link opens it no more.
    await reader.reload();
    await expect(alertText(reader)).resolves.toBe('That worksheet no longer exists, or its link is not valid. Generate a new one.');
    await expect(tokensOf(reader, worksheetId)).resolves.toEqual({});
  });
});
