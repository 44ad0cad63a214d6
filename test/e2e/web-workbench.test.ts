/// <reference lib="dom" />
// page.evaluate callbacks run in the browser: they see the DOM's types.
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Api, type Json } from '../support/api.js';
import { ensureChromium, launchChromium, screenshotPath } from '../support/browser.js';
import { sharedStack, type SharedStackInfo } from '../support/shared-stack.js';

/**
 * The problem workbench page (/workbench.html, docs/seeds/003 UI) as a
 * teacher uses it: Debian's Chromium, headless, driven through playwright-core
 * against the gateway and the workbench agent as separate processes on a real
 * Redis, with the offline model. Everything is done by clicking and typing;
 * what the page shows is compared with what the server holds.
 */
const chromium = ensureChromium();
if (!chromium.ok) console.warn(`browser tests skipped: ${chromium.reason}`);

describe.skipIf(!chromium.ok)('problem workbench page in Chromium', { timeout: 240_000 }, () => {
  let stack: SharedStackInfo;
  let api: Api;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([sharedStack({ services: ['workbench'] }), launchChromium()]);
    api = new Api(stack.url);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await page?.context().close();
    // A script error can leave a page that looks fine and does nothing.
    expect(pageErrors).toEqual([]);
  });

  async function openPage(path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    page = await (await browser.newContext({ viewport })).newPage();
    pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${stack.url}${path}`);
    return page;
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

  const cardOf = (p: Page, problemId: string): Locator => p.locator(`[data-testid="problem-card"][data-problem-id="${problemId}"]`);
  const worksheetIdOf = (p: Page): string => new URL(p.url()).searchParams.get('worksheet') ?? '';
  const consistent = async (problemId: string): Promise<boolean> =>
    (await api.call('POST', `/api/problems/${problemId}/check-consistency`, { body: {} })).json.isConsistent as boolean;

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
    const sheet = (await api.call('GET', `/api/worksheets/${worksheetId}`)).json;
    expect(sheet).toMatchObject({ subject: '算数', difficulty: 'normal', language: 'ja', topic: '分数' });
    await expect(wb.getByRole('heading', { name: sheet.title }).isVisible()).resolves.toBe(true);
    await expect(wb.locator('[data-testid="problem-card"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-problem-id')))).resolves.toEqual(
      sheet.problems.map((problem: Json) => problem.id),
    );
    for (const text of await wb.getByTestId('consistency').allTextContents()) expect(text).toMatch(/✅\s*整合性OK/);
    await expect(wb.getByTestId('summary').textContent()).resolves.toBe('✅ 整合 10 問 · ⚠️ 軽微 0 問 · ❌ 不整合 0 問');
    await expect(wb.getByTestId('status').textContent()).resolves.toBe('整合性を確認しました: 10 問中 10 問が整合しています。');
    // Multiple choice shows the choices with the correct one marked; written shows the model answer and rubric.
    const choice = sheet.problems.find((problem: Json) => problem.type === 'multiple_choice');
    const written = sheet.problems.find((problem: Json) => problem.type === 'written');
    await expect(cardOf(wb, choice.id).locator('[data-correct="true"] .choice-text').textContent()).resolves.toBe(choice.choices[choice.correctChoiceIndex]);
    await expect(cardOf(wb, choice.id).getByTestId('prompt').textContent()).resolves.toBe(choice.prompt);
    await expect(cardOf(wb, written.id).getByTestId('modelAnswer').textContent()).resolves.toContain(written.modelAnswer);
    await expect(cardOf(wb, written.id).getByTestId('modelAnswer').locator('li').allTextContents()).resolves.toEqual(written.rubric);
    await wb.screenshot({ path: screenshotPath('workbench-ja-generated'), fullPage: true });

    // Edit the choices: the suggestions for the problem show beside the editor; mark a wrong choice as correct and save.
    const card = cardOf(wb, choice.id);
    await card.getByRole('button', { name: '選択肢を編集' }).click();
    await expect(card.getByRole('button', { name: '選択肢を編集' }).getAttribute('aria-expanded')).resolves.toBe('true');
    const ideas = (await api.call('GET', `/api/suggestions/${choice.id}`)).json;
    await card.getByTestId('suggestions').locator('li').first().waitFor();
    await expect(card.getByTestId('suggestions').locator('li').allTextContents()).resolves.toEqual(ideas.choices);
    for (const [i, text] of (choice.choices as string[]).entries()) {
      await expect(card.getByRole('textbox', { name: `選択肢 ${i + 1}` }).inputValue()).resolves.toBe(text);
    }
    expect(await seriousViolations(wb), 'editor open').toEqual([]);
    const wrong = (choice.correctChoiceIndex + 1) % 4;
    await card.getByRole('group', { name: '正解の選択肢' }).getByRole('radio', { name: `選択肢 ${wrong + 1}` }).check();
    await card.getByRole('button', { name: '保存' }).click();
    await card.locator('[data-testid="consistency"][data-state="bad"]').waitFor();
    await expect(card.getByTestId('consistency').textContent()).resolves.toMatch(/❌\s*重大な不整合/);
    await expect(card.getByTestId('issues').textContent()).resolves.toContain(`正解は選択肢${choice.correctChoiceIndex + 1}`);
    await expect(card.getByTestId('version').textContent()).resolves.toBe('バージョン 2');
    await expect(wb.getByTestId('status').textContent()).resolves.toMatch(new RegExp(`^問題 ${choice.index}: ❌ 重大な不整合（\\d+ 件）。$`));
    await expect(wb.getByTestId('summary').textContent()).resolves.toBe('✅ 整合 9 問 · ⚠️ 軽微 0 問 · ❌ 不整合 1 問');
    expect((await api.call('GET', `/api/problems/${choice.id}`)).json.correctChoiceIndex).toBe(wrong);
    expect(await consistent(choice.id)).toBe(false);

    // One click on Auto-fix: the proposal with its confidence, field by field before → after; approved, ✅ again.
    await card.getByRole('button', { name: '自動修正' }).click();
    const proposal = card.getByTestId('proposal');
    await proposal.waitFor();
    await expect(proposal.getByTestId('confidence').textContent()).resolves.toMatch(/^信頼度: \d+%$/);
    const answerRow = proposal.locator('.compare-row[data-field="correctChoiceIndex"]');
    await expect(answerRow.getByTestId('before').textContent()).resolves.toContain(`選択肢 ${wrong + 1}`);
    await expect(answerRow.getByTestId('after').textContent()).resolves.toContain(`選択肢 ${choice.correctChoiceIndex + 1}`);
    // Not applied until approved.
    expect((await api.call('GET', `/api/problems/${choice.id}`)).json.correctChoiceIndex).toBe(wrong);
    expect(await seriousViolations(wb), 'issues and proposal').toEqual([]);
    await card.screenshot({ path: screenshotPath('workbench-ja-autofix-proposal') });
    await proposal.getByRole('button', { name: '承認' }).click();
    await card.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    await expect(card.getByTestId('consistency').textContent()).resolves.toMatch(/✅\s*整合性OK/);
    await expect(card.getByTestId('issues').count()).resolves.toBe(0);
    await expect(card.getByTestId('proposal').count()).resolves.toBe(0);
    const fixed = (await api.call('GET', `/api/problems/${choice.id}`)).json;
    expect(fixed.correctChoiceIndex).toBe(choice.correctChoiceIndex);
    expect(await consistent(choice.id)).toBe(true);
    await expect(card.getByTestId('version').textContent()).resolves.toBe(`バージョン ${fixed.version}`);
    await expect(card.locator('[data-correct="true"] .choice-text').textContent()).resolves.toBe(choice.choices[choice.correctChoiceIndex]);

    // Someone else edits the problem while the prompt editor is open: saving says so and shows the current problem.
    await card.getByRole('button', { name: '問題文を編集' }).click();
    await card.getByRole('textbox', { name: '問題文' }).fill(`${choice.prompt}（途中の式も書きなさい）`);
    const elsewhere = await api.call('PATCH', `/api/problems/${choice.id}`, {
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
    expect((await api.call('GET', `/api/problems/${choice.id}`)).json.prompt).toBe(choice.prompt);

    // Ask the agent 「問題文をもっと具体的にして」 on another problem: its message, the tools it ran, before/after and the scores.
    const target = sheet.problems.find((problem: Json) => problem.type === 'multiple_choice' && problem.id !== choice.id);
    const agentCard = cardOf(wb, target.id);
    await agentCard.getByText('エージェントに依頼', { exact: true }).click();
    await agentCard.getByRole('group', { name: 'よく使う依頼' }).getByRole('button', { name: '問題文をもっと具体的にして' }).click();
    const result = agentCard.getByTestId('agent-result');
    await result.waitFor({ timeout: 60_000 });
    await agentCard.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    await expect(result.getAttribute('data-intent')).resolves.toBe('specify');
    await expect(result.getByTestId('agent-message').textContent()).resolves.toMatch(/品質スコア/);
    const tools = await result.getByTestId('tools').locator('li').evaluateAll((els) => els.map((el) => el.getAttribute('data-tool')));
    expect(tools).toEqual(expect.arrayContaining(['editor', 'consistency_checker', 'quality_scorer']));
    const promptRow = result.locator('.compare-row[data-field="prompt"]');
    await expect(promptRow.getByTestId('before').locator('.value').textContent()).resolves.toBe(target.prompt);
    const specified = (await api.call('GET', `/api/problems/${target.id}`)).json;
    expect(specified.prompt).not.toBe(target.prompt);
    expect(specified.prompt.startsWith(target.prompt)).toBe(true);
    await expect(promptRow.getByTestId('after').locator('.value').textContent()).resolves.toBe(specified.prompt);
    await expect(result.getByTestId('quality').textContent()).resolves.toMatch(/^総合: \d\.\d\d → \d\.\d\d$/);
    await expect(result.locator('table.metrics tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-metric')))).resolves.toEqual([
      'clarity',
      'difficulty',
      'educationalValue',
      'consistency',
    ]);
    // The card shows the problem as the agent left it.
    await expect(agentCard.getByTestId('prompt').textContent()).resolves.toBe(specified.prompt);
    await expect(agentCard.getByTestId('version').textContent()).resolves.toBe(`バージョン ${specified.version}`);
    await expect(wb.getByTestId('status').textContent()).resolves.toMatch(new RegExp(`^問題 ${target.index}: エージェントが完了しました（問題文[^）]*）。 問題 ${target.index}: ✅ 整合性OK。$`));
    expect(await seriousViolations(wb), 'agent result').toEqual([]);
    await agentCard.screenshot({ path: screenshotPath('workbench-ja-agent') });

    // Undo takes the agent's edit back.
    await agentCard.getByRole('button', { name: '元に戻す' }).click();
    await expect.poll(() => agentCard.getByTestId('prompt').textContent()).toBe(target.prompt);
    await agentCard.locator('[data-testid="consistency"][data-state="ok"]').waitFor();
    expect((await api.call('GET', `/api/problems/${target.id}`)).json.prompt).toBe(target.prompt);

    // Validate the worksheet: the overall score, as the server computes it.
    await wb.getByRole('button', { name: '問題セットを検証' }).click();
    await wb.getByTestId('overall-score').waitFor();
    const validation = (await api.call('POST', `/api/worksheets/${worksheetId}/validate`)).json;
    await expect(wb.getByTestId('overall-score').textContent()).resolves.toBe(`総合スコア: ${validation.overallScore.toFixed(2)}`);
    await expect(wb.getByTestId('validation').textContent()).resolves.toContain('10 問中 10 問に問題はありません。');

    // The PDF links: the question and answer sheets of this worksheet.
    for (const [testId, kind] of [
      ['pdf-questions', 'questions'],
      ['pdf-answers', 'answers'],
    ] as const) {
      const href = await wb.getByTestId(testId).getAttribute('href');
      expect(href).toBe(`/api/worksheets/${worksheetId}/pdf?sheet=${kind}`);
      const pdf = await fetch(`${stack.url}${href}`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toMatch(/application\/pdf/);
      expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    }
    await expect(wb.getByRole('link', { name: '問題用紙（PDF）' }).isVisible()).resolves.toBe(true);
    await expect(wb.getByRole('link', { name: '解答用紙（PDF）' }).isVisible()).resolves.toBe(true);
    expect(await seriousViolations(wb), 'validated').toEqual([]);
    await wb.evaluate(() => window.scrollTo(0, 0));
    await wb.screenshot({ path: screenshotPath('workbench-ja-desktop'), fullPage: true });
  });

  it('on a phone-sized screen: a worksheet opened by its address (/workbench?worksheet=), an editor and the agent’s comparison, nothing overflowing sideways', async () => {
    const created = await api.call('POST', '/api/worksheets', { body: { subject: '算数', difficulty: 'easy', language: 'ja', topic: '分数' } });
    expect(created.status).toBe(201);
    const sheet = created.json;
    // No ?lang=: the page follows the worksheet's language.
    const phone = await openPage(`/workbench?worksheet=${sheet.worksheetId}`, { width: 390, height: 844 });
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
    await expect(wb.getByRole('alert').textContent()).resolves.toMatch(/not supported offline.*math.*kanji.*English vocabulary/s);
    await expect(wb.evaluate(() => document.activeElement?.id)).resolves.toBe('subject');

    await wb.getByLabel('Subject').fill('English vocabulary');
    await wb.getByLabel('Difficulty').selectOption('easy');
    await wb.getByRole('button', { name: 'Generate 10 problems' }).click();
    await waitForCards(wb, 10);
    await expect(wb.getByRole('alert').isHidden()).resolves.toBe(true);
    for (const text of await wb.getByTestId('consistency').allTextContents()) expect(text).toMatch(/✅\s*Consistent/);
    const sheet = (await api.call('GET', `/api/worksheets/${worksheetIdOf(wb)}`)).json;
    expect(sheet).toMatchObject({ subject: 'English vocabulary', difficulty: 'easy', language: 'en' });

    const card = cardOf(wb, sheet.problems[0].id);
    await card.getByText('Ask the agent', { exact: true }).click();
    await card.getByRole('button', { name: 'Check consistency' }).click();
    const result = card.getByTestId('agent-result');
    await result.waitFor({ timeout: 60_000 });
    await expect(result.getAttribute('data-intent')).resolves.toBe('check');
    await expect(result.getByTestId('tools').locator('li[data-tool="consistency_checker"]').count()).resolves.toBeGreaterThan(0);
    // A consistent problem is left as it is, unless its quality is under the bar (the agent then improves it once).
    const edits = (await api.call('GET', `/api/problems/${sheet.problems[0].id}/history`)).json.edits as Json[];
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
});
