import { beforeAll, describe, expect, it } from 'vitest';
import { Api, loadForm, type Json } from '../support/api.js';
import { SHARED_STACK_KEYS, sharedStack } from '../support/shared-stack.js';
import { SseRecorder } from '../support/sse.js';

/**
 * The FAQ dialog (seed 002) through HTTP and SSE with the gateway, planner and
 * search as separate processes on a real Redis, the offline model, and the
 * sample corpus loaded on first start.
 */
let api: Api;
const WRITE_KEY = SHARED_STACK_KEYS.FAQ_WRITE_KEY;

beforeAll(async () => {
  const stack = await sharedStack({ services: ['planner', 'search'] });
  api = new Api(stack.url);
});

const dialog = (body: Json) => api.dialog(body);
const ja = { topK: 3, language: 'ja', useMultiStepPlanner: true, useLlmPlanner: false, mode: 'local' };

describe('seed cases over JSON', () => {
  it('clarifies "送料は？" (the shipping answers depend on the region), then answers with the region the user names', async () => {
    const first = await dialog({ message: '送料は？', options: ja });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      answer: null,
      needsClarification: true,
      final: false,
      steps: [],
      meta: { orchestratorMode: 'local' },
    });
    expect(first.json.clarifyingQuestions.length).toBeGreaterThan(0);
    expect(first.json.clarifyingQuestions.join(' ')).toMatch(/北海道/);
    const orchestration = first.json.meta.orchestrationSteps as Json[];
    expect(orchestration[0]).toMatchObject({ type: 'clarify' });
    expect(orchestration.at(-1)).toMatchObject({ type: 'clarify_plan', questions: first.json.clarifyingQuestions });
    expect(first.json.meta.multiStepPlan).toMatchObject({ needsClarification: true });

    const second = await dialog({ sessionId: first.json.sessionId, message: '北海道', options: ja });
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ sessionId: first.json.sessionId, needsClarification: false, final: true });
    expect(second.json.answer).toMatch(/800円/);
    expect(second.json.meta.sources).toContain('ja-ship-hokkaido');
    expect(second.json.steps[0]).toMatchObject({ type: 'search', message: '検索を実行しました', topK: 3 });
    expect(second.json.steps[0].query).toMatch(/北海道/);
    expect(second.json.steps[0].query).toMatch(/送料/);
  });

  it('searches "北海道への送料を教えてください" directly, then follows up on "じゃあ返品ポリシーも知りたい" in the same session', async () => {
    const first = await dialog({ message: '北海道への送料を教えてください', options: ja });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ needsClarification: false, final: true });
    expect(first.json.answer).toMatch(/800円/);
    expect(first.json.steps).toEqual([expect.objectContaining({ type: 'search', message: '検索を実行しました', topK: 3 })]);
    expect(first.json.meta.orchestrationSteps).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'step_search_1', type: 'search' }),
        expect.objectContaining({ type: 'search_executed', topK: 3, source: 'searchAgent' }),
      ]),
    );
    expect(first.json.meta.latencyMs).toBeGreaterThanOrEqual(0);

    const follow = await dialog({ sessionId: first.json.sessionId, message: 'じゃあ返品ポリシーも知りたい', options: { ...ja, topK: 5 } });
    expect(follow.status, JSON.stringify(follow.json)).toBe(200);
    expect(follow.json.answer).toMatch(/30日以内/);
    expect(follow.json.steps[0]).toMatchObject({ type: 'search', topK: 5 });
    expect(follow.json.steps[0].query).toMatch(/返品/);
    expect(follow.json.meta.orchestrationSteps).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'followup_search' })]));
  });

  it('splits a compound question into one search per part and answers both', async () => {
    const response = await dialog({ message: 'ギフト配送と領収書発行の条件をまとめて教えて', options: { ...ja, topK: 8, debug: true } });
    expect(response.status).toBe(200);
    expect(response.json.steps.length).toBeGreaterThanOrEqual(2);
    expect(response.json.meta.multiStepPlan.followupQueries.length).toBeGreaterThanOrEqual(2);
    expect(response.json.answer).toMatch(/領収書/);
    const sources = response.json.meta.sources as string[];
    expect(sources.some((id) => id.startsWith('ja-gift-'))).toBe(true);
    expect(sources.some((id) => id.startsWith('ja-receipt-'))).toBe(true);
    expect(response.json.meta.hits.length).toBeGreaterThan(0);
  });

  it('answers in English from the English corpus', async () => {
    const response = await dialog({ message: 'How much does shipping to Europe cost?', options: { language: 'auto' } });
    expect(response.status).toBe(200);
    expect(response.json.answer).toMatch(/\$20/);
    expect(response.json.steps[0]).toMatchObject({ type: 'search', message: 'Searched the FAQ' });
  });
});

describe('seed cases over SSE (Accept: text/event-stream)', () => {
  it('streams the clarify turn and ends after clarify; then the answer turn, ending after answer', async () => {
    const first = await api.dialogStream({ message: '送料は？', options: ja });
    expect(first.status).toBe(200);
    const sessionId = first.headers.get('x-session-id');
    expect(sessionId).toBeTruthy();
    const types = first.events.map((e) => e.type);
    expect(types[0]).toBe('turn.started');
    expect(types).toContain('plan');
    expect(types.at(-1)).toBe('clarify');
    expect(first.events.find((e) => e.type === 'plan')!.data).toMatchObject({ needsClarification: true });
    expect(first.events.find((e) => e.type === 'message' && e.data.role === 'user')!.data.text).toBe('送料は？');

    const second = await api.dialogStream({ sessionId, message: '北海道です', options: ja });
    const t2 = second.events.map((e) => e.type);
    // Only this turn's events: the stream resumes after the first turn's.
    expect(second.events[0]!.id).toBeGreaterThan(first.events.at(-1)!.id);
    expect(t2).toEqual(expect.arrayContaining(['turn.started', 'plan', 'search', 'message', 'answer']));
    expect(t2.at(-1)).toBe('answer');
    expect(t2.indexOf('plan')).toBeLessThan(t2.indexOf('search'));
    const search = second.events.find((e) => e.type === 'search')!.data;
    expect(search).toMatchObject({ topK: 3 });
    expect((search.hits as Json[])[0]).toMatchObject({ id: 'ja-ship-hokkaido', title: expect.stringMatching(/北海道/) });
    expect(second.events.at(-1)!.data).toMatchObject({ final: true, sources: expect.arrayContaining(['ja-ship-hokkaido']) });
    expect(String(second.events.at(-1)!.data.answer)).toMatch(/800円/);
    const ids = [...first.events, ...second.events].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Every event these streams carried is one the AsyncAPI document lists for the dialog channel.
    const asyncapi = (await (await fetch(`${api.base}/docs/asyncapi.json`)).json()) as { channels: { dialogTurn: { messages: Json } } };
    const listed = Object.keys(asyncapi.channels.dialogTurn.messages);
    expect([...new Set([...types, ...t2])].filter((type) => !listed.includes(type))).toEqual([]);
  });

  it('streams only its own turn when another turn of the session is posted at the same time', async () => {
    const first = await dialog({ message: '北海道への送料を教えてください', options: ja });
    const sessionId = first.json.sessionId as string;
    const [other, streamed] = await Promise.all([
      dialog({ sessionId, message: '沖縄は？', options: ja }),
      api.dialogStream({ sessionId, message: 'ギフトラッピングはできますか？', options: ja }),
    ]);
    expect(other.status).toBe(200);
    const turnId = streamed.headers.get('x-turn-id');
    const withTurn = streamed.events.filter((e) => typeof e.data.turnId === 'string');
    expect(withTurn.length).toBeGreaterThan(0);
    expect(withTurn.every((e) => e.data.turnId === turnId)).toBe(true);
    expect(streamed.events.filter((e) => e.type === 'plan')).toHaveLength(1);
    expect(streamed.events.filter((e) => e.type === 'answer')).toHaveLength(1);
    expect(String(streamed.events.at(-1)!.data.answer)).toMatch(/ラッピング/);
  });

  it('a follow-up streams followup search events', async () => {
    const first = await dialog({ message: '北海道への送料を教えてください', options: ja });
    const follow = await api.dialogStream({ sessionId: first.json.sessionId, message: 'じゃあ返品ポリシーも知りたい', options: ja });
    const plan = follow.events.find((e) => e.type === 'plan')!.data as Json;
    expect(plan.steps.map((s: Json) => s.type)).toContain('followup_search');
    expect(String(follow.events.at(-1)!.data.answer)).toMatch(/30日以内/);
  });
});

describe('FAQ sessions through the session API', () => {
  it('POST /v1/sessions kind faq: turns and the session stream carry plan, search and answer; /agent.dialog needs the token', async () => {
    const session = await api.createSession(undefined, 'faq', { language: 'en' });
    const sse = await SseRecorder.open(api.eventsUrl(session.sessionId, session.token));
    const response = await api.turn(session.sessionId, session.token, 'What is your return policy?');
    expect(response.status).toBe(202);
    await sse.waitFor((evs) => evs.some((e) => e.type === 'turn.completed'), 15_000, 'turn.completed');
    const types = sse.events.map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['turn.started', 'message', 'agent.changed', 'plan', 'search', 'answer', 'turn.completed']),
    );
    expect(String(sse.events.find((e) => e.type === 'answer')!.data.answer)).toMatch(/30 days/);
    sse.close();

    expect((await dialog({ sessionId: session.sessionId, message: 'and gift wrapping?' })).status).toBe(401);
    // Any token is not enough: it has to be this session's (a wrong one is answered as an unknown session).
    const other = await api.call('POST', '/agent.dialog', {
      token: `${session.token}x`,
      body: { sessionId: session.sessionId, message: 'and gift wrapping?' },
    });
    expect(other.status).toBe(404);
    const withToken = await api.call('POST', '/agent.dialog', {
      token: session.token,
      body: { sessionId: session.sessionId, message: 'Do you offer gift wrapping?' },
    });
    expect(withToken.status).toBe(200);
    expect(withToken.json.answer).toMatch(/\$5/);
  });
});

describe('single-shot /agent.search', () => {
  it('returns hits with scores and an extractive answer', async () => {
    const response = await api.call('POST', '/agent.search', { body: { query: '領収書の宛名を変えたい', topK: 3, language: 'ja' } });
    expect(response.status).toBe(200);
    expect(response.json.hits.length).toBeGreaterThan(0);
    expect(response.json.hits.length).toBeLessThanOrEqual(3);
    expect(response.json.hits[0]).toMatchObject({
      id: 'ja-receipt-addressee',
      question: expect.any(String),
      answer: expect.any(String),
      score: expect.any(Number),
    });
    expect(response.json.answer).toBe(response.json.hits[0].answer);
    expect(response.json).toMatchObject({ abstained: false, message: null });
    expect(response.json.confidence).toBeGreaterThanOrEqual(0.3);
    expect(response.json.steps[0]).toMatchObject({
      type: 'search',
      query: '領収書の宛名を変えたい',
      topK: 3,
      confidence: response.json.confidence,
    });
  });

  it.each([
    ['how do I bake sourdough bread', /rephrase/],
    ['zzqx flurb', /rephrase/],
    ['おすすめの映画ある?', /言い換え/],
  ])('abstains on a question the FAQ does not answer, in its language: %s', async (query, message) => {
    const response = await api.call('POST', '/agent.search', { body: { query, topK: 3 } });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ answer: null, abstained: true });
    expect(response.json.confidence).toBeLessThan(0.3);
    expect(response.json.message).toMatch(message);
  });

  it('tolerates a misspelling and full-width text', async () => {
    const typo = await api.call('POST', '/agent.search', { body: { query: 'retrun policy', topK: 3 } });
    expect(typo.json.hits.map((h: Json) => h.id)).toContain('en-returns-period');
    const wide = await api.call('POST', '/agent.search', { body: { query: 'ｷﾞﾌﾄﾗｯﾋﾟﾝｸﾞ', topK: 3 } });
    expect(wide.json.hits[0].id).toBe('ja-gift-wrapping');
  });
});

describe('corpus versions', () => {
  it('names the corpus version a search answered from, and answers 503 with Retry-After for a version not indexed yet', async () => {
    const now = await api.call('POST', '/agent.search', { body: { query: 'gift wrapping', topK: 1 } });
    expect(now.json.corpusVersion).toEqual(expect.any(Number));
    const same = await api.call('POST', '/agent.search', {
      body: { query: 'gift wrapping', topK: 1, minCorpusVersion: now.json.corpusVersion },
    });
    expect(same.status).toBe(200);

    const ahead = await api.call('POST', '/agent.search', {
      body: { query: 'gift wrapping', topK: 1, minCorpusVersion: now.json.corpusVersion + 1000 },
    });
    expect(ahead.status).toBe(503);
    expect(ahead.json.error).toMatchObject({ code: 'corpus_not_ready' });
    expect(Number(ahead.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('answer or abstain in the dialog', () => {
  it('tells the user the FAQ has no answer, as JSON and as the assistant message and answer event of the turn', async () => {
    const first = await dialog({ message: 'how do I bake sourdough bread', options: { language: 'en' } });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json).toMatchObject({ answer: null, abstained: true, needsClarification: false, final: true });
    expect(first.json.message).toMatch(/couldn't find an answer/);
    expect(first.json.meta.sources).toEqual([]);
    expect(first.json.meta.planner.answer).toEqual({ method: 'none' });

    // The same dialog goes on: a question the FAQ answers is answered, with its confidence.
    const token = first.json.sessionToken as string;
    const second = await api.dialog({ sessionId: first.json.sessionId, message: 'How much does shipping to Canada cost?' }, { token });
    expect(second.json).toMatchObject({ abstained: false, message: null });
    expect(second.json.answer).toEqual(expect.any(String));
    expect(second.json.confidence).toBeGreaterThanOrEqual(0.3);
  });

  it('streams the abstention: the assistant message with the reply, then answer with abstained', async () => {
    const response = await api.dialogStream({ message: 'おすすめの映画ある?', options: { language: 'ja' } });
    expect(response.status).toBe(200);
    const types = response.events.map((e) => e.type);
    expect(types.at(-1)).toBe('answer');
    const reply = response.events.find((e) => e.type === 'message' && e.data.role === 'assistant')!.data;
    expect(reply).toMatchObject({ agent: 'search', text: expect.stringMatching(/^ご質問にお答えできるFAQが見つかりませんでした/) });
    expect(response.events.at(-1)!.data).toMatchObject({ answer: null, abstained: true, sources: [], message: reply.text });
  });
});

describe('corpus routes', () => {
  it('upserts JSON and CSV documents that search finds at once, lists them, and deletes them', async () => {
    const before = await api.call('GET', '/faq/documents?limit=1');
    expect(before.status).toBe(200);
    expect(before.json.total).toBeGreaterThanOrEqual(60);

    const up = await api.call('POST', '/faq/documents', {
      token: WRITE_KEY,
      body: [
        {
          id: 'test-drone',
          question: 'Can I fly the Zephyr drone indoors?',
          answer: 'Yes, the Zephyr drone has prop guards for indoor flight.',
          tags: ['product'],
        },
      ],
    });
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ upserted: 1, created: 1, ids: ['test-drone'] });
    const found = await api.call('POST', '/agent.search', { body: { query: 'zephyr drone inside the house', topK: 3 } });
    expect(found.json.hits[0].id).toBe('test-drone');

    const csv =
      'id,question,answer,tags,language\ntest-kite,凧は雨の日も揚げられますか？,防水加工の凧は小雨なら揚げられます。,商品|凧,ja\n';
    const upCsv = await api.call('POST', '/faq/documents', { token: WRITE_KEY, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    expect(upCsv.status).toBe(200);
    expect(upCsv.json).toMatchObject({ upserted: 1, ids: ['test-kite'] });
    const list = await api.call('GET', '/faq/documents?language=ja&limit=10000');
    expect(list.json.documents.find((d: Json) => d.id === 'test-kite')).toMatchObject({ tags: ['商品', '凧'], language: 'ja' });
    expect((await api.call('POST', '/agent.search', { body: { query: '雨の日に凧', topK: 3 } })).json.hits[0].id).toBe('test-kite');

    // Upsert replaces.
    await api.call('POST', '/faq/documents', {
      token: WRITE_KEY,
      body: { id: 'test-kite', question: '凧は雨の日も揚げられますか？', answer: '雨の日は揚げないでください。' },
    });
    expect((await api.call('POST', '/agent.search', { body: { query: '雨の日に凧', topK: 1 } })).json.hits[0].answer).toBe(
      '雨の日は揚げないでください。',
    );

    expect((await api.call('DELETE', '/faq/documents/test-drone', { token: WRITE_KEY })).status).toBe(204);
    expect((await api.call('DELETE', '/faq/documents/test-drone', { token: WRITE_KEY })).status).toBe(404);
    const gone = await api.call('POST', '/agent.search', { body: { query: 'zephyr drone inside the house', topK: 3 } });
    expect(gone.json.hits.map((h: Json) => h.id)).not.toContain('test-drone');
    await api.call('DELETE', '/faq/documents/test-kite', { token: WRITE_KEY });
  });

  it('refuses an invalid upload as a whole: nothing is stored', async () => {
    const before = (await api.call('GET', '/faq/documents?limit=1')).json.total;
    const bad = await api.call('POST', '/faq/documents', {
      token: WRITE_KEY,
      body: [
        { id: 'ok-1', question: 'Valid?', answer: 'Yes.' },
        { id: 'bad-1', question: 'No answer' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: 'invalid_documents' });
    expect(bad.json.error.message).toMatch(/document 2/);
    const dup = await api.call('POST', '/faq/documents', {
      token: WRITE_KEY,
      body: [
        { id: 'd', question: 'a', answer: 'b' },
        { id: 'd', question: 'c', answer: 'd' },
      ],
    });
    expect(dup.json.error).toMatchObject({ code: 'duplicate_document_id' });
    const csv = await api.call('POST', '/faq/documents', {
      token: WRITE_KEY,
      rawBody: 'question,answer\n"unterminated,x\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(csv.status).toBe(400);
    expect(csv.json.error.code).toBe('invalid_csv');
    expect((await api.call('POST', '/faq/documents', { token: WRITE_KEY, body: [] })).status).toBe(400);
    expect((await api.call('GET', '/faq/documents?limit=1')).json.total).toBe(before);
  });
});

describe('dialog sessions belong to whoever started them', () => {
  it('gives a new dialog a server-made id and token; continuing needs the token; an id the server never made is 404', async () => {
    const first = await api.dialog({ message: '送料は？', options: ja });
    expect(first.status).toBe(200);
    const { sessionId, sessionToken } = first.json;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(String(sessionToken).length).toBeGreaterThanOrEqual(43);
    expect(first.headers.get('x-session-token')).toBe(sessionToken);
    // Someone who knows (or guesses) the id cannot continue it, nor learn anything about it.
    const stranger = await api.dialog({ sessionId, message: '北海道' }, { token: null });
    expect(stranger.status).toBe(401);
    expect(stranger.json.error.code).toBe('unauthorized');
    expect((await api.dialog({ sessionId, message: '北海道' }, { token: `${sessionToken}x` })).status).toBe(404);
    const owner = await api.dialog({ sessionId, message: '北海道', options: ja });
    expect(owner.status).toBe(200);
    expect(owner.json.sessionToken).toBe(sessionToken);
    // A client-chosen id is never created: without a token 401, with one (any) 404, as for a session that exists.
    expect((await api.dialog({ sessionId: 'my-chosen-id', message: '送料は？' })).status).toBe(401);
    const chosen = await api.dialog({ sessionId: 'my-chosen-id', message: '送料は？' }, { token: sessionToken });
    expect(chosen.status).toBe(404);
    expect(chosen.json.error.code).toBe('session_not_found');
    // The token opens the session's other routes too.
    expect((await api.call('GET', `/v1/sessions/${sessionId}`, { token: sessionToken })).status).toBe(200);
  });
});

describe('bad input', () => {
  it.each([
    ['an empty message', { message: '   ' }, 'invalid_request'],
    ['a missing message', { options: { topK: 3 } }, 'invalid_request'],
    ['topK 0', { message: '送料は？', options: { topK: 0 } }, 'invalid_request'],
    ['an unknown mode', { message: '送料は？', options: { mode: 'swarm' } }, 'invalid_request'],
    ['crew without CREW_URL', { message: '送料は？', options: { mode: 'crew' } }, 'crew_not_configured'],
  ])('/agent.dialog with %s → 400', async (_name, body, code) => {
    const response = await dialog(body);
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe(code);
  });

  it('/agent.dialog on a form session → 401 without its token, 409 with it; /agent.search without a query or with bad JSON → 400', async () => {
    const form = await api.createSession(loadForm('event-registration-en.json'), 'form');
    expect((await dialog({ sessionId: form.sessionId, message: 'hello' })).status).toBe(401);
    const response = await api.dialog({ sessionId: form.sessionId, message: 'hello' }, { token: form.token });
    expect(response.status).toBe(409);
    expect(response.json.error.code).toBe('wrong_kind');
    expect((await api.call('POST', '/agent.search', { body: { topK: 3 } })).status).toBe(400);
    expect((await api.call('POST', '/agent.search', { rawBody: '{"query": ' })).status).toBe(400);
  });
});
