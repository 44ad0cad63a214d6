import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Api } from '../support/api.js';
import { startFakeEmbeddings, type FakeEmbeddings } from '../support/fake-embeddings.js';
import { startStack, type Stack } from '../support/processes.js';

/**
 * Hybrid retrieval as deployed: gateway, planner and search as separate
 * processes configured only through EMBEDDINGS_* variables, against the fake
 * embeddings server in this process, on a real Redis.
 */
let stack: Stack;
let api: Api;
let fake: FakeEmbeddings;

beforeAll(async () => {
  // "wuxtrel" is what customers call the zorblax: only the embeddings know.
  fake = await startFakeEmbeddings({ dimensions: 64, synonyms: { wuxtrel: 'zorblax' } });
  const id = randomUUID().slice(0, 8);
  stack = await startStack({
    env: {
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: `hybrid-stack-${id}`,
      QUEUE_PREFIX: `{hybrid-stack-${id}}`,
      FAQ_SEED_FILE: '',
      FAQ_WRITE_KEY: 'hybrid-editor-key',
      EMBEDDINGS_MODEL: 'fake-embed',
      EMBEDDINGS_BASE_URL: fake.url,
      EMBEDDINGS_BATCH_SIZE: '2',
      EMBEDDINGS_RETRY_MS: '50',
      EMBEDDINGS_QUERY_TIMEOUT_MS: '500',
    },
    services: ['planner', 'search'],
  });
  api = new Api(stack.url);
  const docs = [
    { id: 'zorblax', question: 'Can I recharge the zorblax?', answer: 'Yes: plug the zorblax into any USB port.', language: 'en' },
    { id: 'gift', question: 'Do you offer gift wrapping?', answer: 'Gift wrapping costs $4 per item.', language: 'en' },
    { id: 'ship', question: 'How much does shipping cost?', answer: 'Standard shipping is $5, free over $50.', language: 'en' },
  ];
  const uploaded = await api.call('POST', '/faq/documents', { body: docs, token: 'hybrid-editor-key' });
  expect(uploaded.status, JSON.stringify(uploaded.json)).toBeLessThan(300);
  await stack.procs.search!.waitForLine((l) => l.json?.msg === 'faq vectors synced' && l.json?.pending === 0, 20_000);
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
});

describe('hybrid retrieval in the running system', () => {
  it('embeds the uploaded corpus in batches and answers /agent.search and /agent.dialog from hybrid hits', async () => {
    // Documents are embedded as "question\nanswer"; three of them in batches of two.
    const documentRequests = fake.requests.filter((r) => r.input.every((text) => text.includes('\n')));
    expect(documentRequests.map((r) => r.input.length).sort((a, b) => a - b)).toEqual([1, 2]);

    const single = await api.call('POST', '/agent.search', { body: { query: 'wuxtrel', topK: 3, language: 'en' } });
    expect(single.status).toBe(200);
    expect(single.json.hits[0]).toMatchObject({ id: 'zorblax' });
    expect(single.json.answer).toBe('Yes: plug the zorblax into any USB port.');
    expect(single.json.steps[0]).toMatchObject({ type: 'search', retrieval: 'hybrid' });

    const dialog = await api.dialog({ message: 'Can I recharge my wuxtrel?', options: { language: 'en', debug: true } });
    expect(dialog.status, JSON.stringify(dialog.json)).toBe(200);
    expect(dialog.json.meta.sources).toContain('zorblax');
    expect(dialog.json.steps[0]).toMatchObject({ type: 'search', retrieval: 'hybrid' });
  });

  it('answers lexically with a warning, not an error, while the embeddings server fails', async () => {
    fake.setMode({ kind: 'status', status: 500 });
    try {
      const response = await api.call('POST', '/agent.search', { body: { query: 'gift wrapping', topK: 3, language: 'en' } });
      expect(response.status).toBe(200);
      expect(response.json.hits[0]).toMatchObject({ id: 'gift' });
      expect(response.json.steps[0]).toMatchObject({ retrieval: 'lexical', warning: expect.stringMatching(/lexical results only/) });
      await stack.procs.search!.waitForLine(
        (l) => l.json?.level === 40 && String(l.json?.msg).startsWith('embeddings server failed'),
        5_000,
      );
    } finally {
      fake.setMode({ kind: 'ok' });
    }
  });
});
