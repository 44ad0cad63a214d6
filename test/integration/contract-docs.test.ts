import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import specs from '@asyncapi/specs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { EVENT_TYPES } from '@convo/contract';
import { startGateway } from '../../services/gateway/src/server.js';
import { loadGatewayConfig } from '../../services/gateway/src/config.js';
import { EVENTS_BEGIN, EVENTS_END, renderEventsTable, withEventsTable } from '../../services/gateway/src/docs/render.js';
import { REPO_ROOT } from '../support/processes.js';

/**
 * The contract's three descriptions kept true: the OpenAPI document (every
 * route typed, with its error answers), the AsyncAPI document (every event
 * the code can emit), and docs/api.md (every route and error code, the
 * generated event table current). The gateway runs in-process on the real
 * Redis; no agent is needed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the documents are walked as untyped JSON
type Json = Record<string, any>;

let gw: Awaited<ReturnType<typeof startGateway>>;
let base: string;
let openapi: Json;
let asyncapi: Json;
const apiMd = readFileSync(join(REPO_ROOT, 'docs', 'api.md'), 'utf8');

beforeAll(async () => {
  const prefix = `docs-${randomUUID().slice(0, 8)}`;
  gw = await startGateway(
    loadGatewayConfig({
      REDIS_URL: inject('redisUrl'),
      KEY_PREFIX: prefix,
      QUEUE_PREFIX: `{${prefix}}`,
      PORT: '0',
      LOG_LEVEL: 'silent',
      FAQ_SEED_FILE: '',
    }),
  );
  base = `http://127.0.0.1:${gw.port}`;
  openapi = (await (await fetch(`${base}/docs/json`)).json()) as Json;
  asyncapi = (await (await fetch(`${base}/docs/asyncapi.json`)).json()) as Json;
});
afterAll(async () => {
  await gw?.close();
});

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(): Array<{ method: string; path: string; op: Json }> {
  return Object.entries(openapi.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method: method.toUpperCase(), path, op: item[method] as Json })),
  );
}

/** Follows a local `$ref` into components. */
function resolve(schema: Json | undefined): Json | undefined {
  if (!schema?.$ref) return schema;
  return openapi.components.schemas[(schema.$ref as string).split('/').at(-1)!] as Json | undefined;
}

/** A schema a generated client can type: not `{}`, not an object of anything. */
function typed(schema: Json | undefined, depth = 0): boolean {
  const s = resolve(schema);
  if (!s || depth > 8) return false;
  const variants = s.anyOf ?? s.oneOf;
  if (Array.isArray(variants)) return variants.every((variant: Json) => typed(variant, depth + 1));
  if (s.type === 'object')
    return Object.keys(s.properties ?? {}).length > 0 || typed(s.additionalProperties as Json | undefined, depth + 1);
  if (s.type === 'array') return typed(s.items as Json | undefined, depth + 1);
  return typeof s.type === 'string' || Array.isArray(s.type) || 'const' in s || Array.isArray(s.enum);
}

function isErrorSchema(schema: Json | undefined): boolean {
  const s = resolve(schema);
  return !!s && s.type === 'object' && typed(s.properties?.error as Json) && (s.required ?? []).includes('error');
}

describe('OpenAPI 3.1 at /docs/json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(openapi.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openapi));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does reject a broken document (so the check above can fail).
    const broken = structuredClone(openapi);
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('types every route: a summary, typed success bodies in every media type, typed request bodies', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(25);
    const problems: string[] = [];
    for (const { method, path, op } of ops) {
      const name = `${method} ${path}`;
      if (!op.summary) problems.push(`${name}: no summary`);
      const successes = Object.entries(op.responses as Json).filter(([status]) => status.startsWith('2'));
      if (successes.length === 0) problems.push(`${name}: no 2xx answer`);
      for (const [status, answer] of successes) {
        if (status === '204') continue;
        const content = (answer as Json).content as Json | undefined;
        if (!content) problems.push(`${name}: ${status} has no body schema`);
        for (const [type, media] of Object.entries(content ?? {}))
          if (!typed((media as Json).schema)) problems.push(`${name}: ${status} ${type} is untyped`);
      }
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json))
        if (!typed((media as Json).schema)) problems.push(`${name}: request ${type} is untyped`);
    }
    expect(problems).toEqual([]);
  });

  it('lists the error answers of every route in the error shape: 500 everywhere, 400 where input is checked, 401 behind a token (404 too for a resource it names), 429/503 where work is accepted', () => {
    const problems: string[] = [];
    for (const { method, path, op } of operations()) {
      const name = `${method} ${path}`;
      const responses = op.responses as Json;
      const failures = Object.keys(responses).filter((status) => /^[45]/.test(status));
      for (const status of failures)
        if (!isErrorSchema(responses[status].content?.['application/json']?.schema))
          problems.push(`${name}: ${status} is not the error shape`);
      const need = ['500'];
      if ((op.parameters ?? []).length > 0 || op.requestBody) need.push('400');
      if ((op.parameters ?? []).some((parameter: Json) => parameter.in === 'path')) need.push('414');
      if (op.security) need.push('401');
      if (op.security && path.includes('{')) need.push('404');
      if (['POST', 'PATCH'].includes(method)) need.push('413', '415');
      for (const status of need) if (!responses[status]) problems.push(`${name}: no ${status}`);
    }
    // Routes that accept work are shed under load: their 429/503 must be said.
    for (const name of [
      'POST /v1/sessions',
      'POST /v1/sessions/{id}/turns',
      'POST /agent.dialog',
      'POST /agent.search',
      'POST /api/problems/{id}/agent',
    ]) {
      const [method, path] = name.split(' ') as [string, string];
      const responses = openapi.paths[path][method.toLowerCase()].responses as Json;
      if (!responses['429'] || !responses['503']) problems.push(`${name}: no 429/503`);
    }
    expect(problems).toEqual([]);
  });

  it('marks nothing readOnly: every schema here is what a client may send or receive', () => {
    const found: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (!value || typeof value !== 'object') return;
      if (!Array.isArray(value) && 'readOnly' in value) found.push(path);
      for (const [key, inner] of Object.entries(value)) walk(inner, `${path}/${key}`);
    };
    walk(openapi, 'openapi');
    walk(asyncapi, 'asyncapi');
    expect(found).toEqual([]);
    // The case that was wrong: a fact's `options`, sent when a session is created.
    const form = resolve(openapi.paths['/v1/sessions'].post.requestBody.content['application/json'].schema)!.properties.form;
    expect(form.properties.facts.items.properties.options).toMatchObject({ type: 'array', items: { type: 'string' } });
  });

  it('types the bodies the issue found open: the snapshot, the dialog answer, run steps', () => {
    const snapshot = resolve(openapi.paths['/v1/sessions/{id}'].get.responses['200'].content['application/json'].schema)!;
    expect(Object.keys(snapshot.properties)).toEqual(
      expect.arrayContaining(['sessionId', 'status', 'fields', 'messages', 'turn', 'lastEventId']),
    );
    const dialog = resolve(openapi.paths['/agent.dialog'].post.responses['200'].content['application/json'].schema)!;
    expect(Object.keys(dialog.properties)).toEqual(
      expect.arrayContaining(['sessionId', 'answer', 'needsClarification', 'steps', 'final', 'meta']),
    );
    expect(Object.keys(openapi.paths['/agent.dialog'].post.responses['200'].content)).toEqual(['application/json', 'text/event-stream']);
    const runSteps = openapi.paths['/v1/sessions/{id}/runsteps'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(runSteps.properties.runSteps.items.properties)).toEqual(
      expect.arrayContaining(['runStepId', 'toolName', 'input', 'output']),
    );
    expect(Object.keys(openapi.paths['/faq/documents'].post.requestBody.content)).toEqual([
      'application/json',
      'text/csv',
      'application/csv',
    ]);
  });
});

describe('AsyncAPI 3 at /docs/asyncapi.json', () => {
  const ajv = new Ajv({ allErrors: true, strict: false, meta: false, validateSchema: false });
  const validate = ajv.compile((specs as unknown as { schemas: Record<string, object> }).schemas['3.0.0']!);

  it('is a valid AsyncAPI 3.0 document', () => {
    expect(asyncapi.asyncapi).toBe('3.0.0');
    expect(validate(asyncapi), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const broken = structuredClone(asyncapi);
    delete broken.info.version;
    expect(validate(broken)).toBe(false);
  });

  it('lists every event type of the event schemas, each with its payload, SSE id and event fields', () => {
    expect(Object.keys(asyncapi.components.messages)).toEqual(EVENT_TYPES);
    for (const type of EVENT_TYPES) {
      const message = asyncapi.components.messages[type];
      // An object, or (state.changed) a union of objects told apart by their `type`.
      const variants = (message.payload.oneOf ?? message.payload.anyOf ?? [message.payload]) as Json[];
      for (const variant of variants)
        expect(variant.type === 'object' && Object.keys(variant.properties ?? {}).length > 0, type).toBe(true);
      expect(message.headers.properties.event.const).toBe(type);
      expect(message.headers.properties.id.description, type).toMatch(/Last-Event-ID|last stored event/);
      expect(message.summary, type).toBeTruthy();
    }
    expect(Object.keys(asyncapi.channels.sessionEvents.messages)).toEqual(EVENT_TYPES);
    expect(asyncapi.channels.sessionEvents.description).toMatch(/Last-Event-ID[\s\S]*resync/);
    // A one-turn stream lists its turn's events up to the result that ends it; never turn.completed (it ends first) nor resync.
    const listed = (channel: string) => Object.keys(asyncapi.channels[channel].messages);
    expect(listed('dialogTurn')).toEqual(
      expect.arrayContaining(['turn.started', 'message', 'plan', 'search', 'answer', 'clarify', 'turn.failed']),
    );
    expect(listed('workbenchAgent')).toEqual(
      expect.arrayContaining(['turn.started', 'message', 'workbench.step', 'workbench.result', 'turn.failed']),
    );
    for (const channel of ['dialogTurn', 'workbenchAgent']) {
      expect(listed(channel), channel).not.toContain('turn.completed');
      expect(listed(channel), channel).not.toContain('resync');
      expect(
        listed(channel).every((type) => EVENT_TYPES.includes(type as (typeof EVENT_TYPES)[number])),
        channel,
      ).toBe(true);
      const operation = Object.values(asyncapi.operations as Json).find((op) => op.channel.$ref === `#/channels/${channel}`);
      expect(operation.messages.map((ref: Json) => String(ref.$ref).split('/').at(-1))).toEqual(listed(channel));
    }
  });

  it('covers every event type the code can emit (every event(...) and raw SSE write in the services and shared code)', () => {
    const emitted = new Map<string, string>();
    for (const file of sourceFiles(['services', 'shared'])) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bevent\(\s*'([^']+)'/g)) emitted.set(match[1]!, file);
      for (const match of text.matchAll(/writeRaw\([^,]+,\s*'([^']+)'/g)) emitted.set(match[1]!, file);
    }
    // The scan finds the emitters (so it can fail): the interview's, the FAQ's, the gateway's resync.
    expect([...emitted.keys()]).toEqual(
      expect.arrayContaining(['turn.started', 'state.changed', 'plan', 'answer', 'resync', 'message.delta']),
    );
    const listed = new Set(Object.keys(asyncapi.components.messages));
    expect([...emitted].filter(([type]) => !listed.has(type))).toEqual([]);
  });
});

describe('docs/api.md', () => {
  it('has a heading for every route of the OpenAPI document, and no heading for a route that does not exist', () => {
    const headings = [...apiMd.matchAll(/^### (GET|POST|PUT|PATCH|DELETE) (\S+)\s*$/gm)].map(
      (m) => `${m[1]} ${m[2]!.replace(/:(\w+)/g, '{$1}')}`,
    );
    const routes = operations().map(({ method, path }) => `${method} ${path}`);
    // Served outside the OpenAPI document (the descriptions themselves, the dashboard).
    const described = ['GET /docs', 'GET /docs/json', 'GET /docs/asyncapi.json', 'GET /admin/queues'];
    expect(routes.filter((route) => !headings.includes(route))).toEqual([]);
    expect(headings.filter((heading) => !routes.includes(heading) && !described.includes(heading))).toEqual([]);
  });

  it('has the event table as generated from the AsyncAPI document (npm run docs)', () => {
    expect(apiMd).toContain(EVENTS_BEGIN);
    expect(apiMd).toContain(EVENTS_END);
    expect(withEventsTable(apiMd, renderEventsTable(asyncapi))).toBe(apiMd);
  });

  it('lists every error code the gateway and the agents can answer with', () => {
    const codes = errorCodes();
    // The scan finds codes (so it can fail).
    expect([...codes.keys()]).toEqual(expect.arrayContaining(['session_not_found', 'invalid_request', 'rate_limited', 'cancelled']));
    const documented = new Set([...apiMd.matchAll(/`([a-z]+(?:_[a-z]+)*)`/g)].map((m) => m[1]));
    expect([...codes].filter(([code]) => !documented.has(code)).map(([code, file]) => `${code} (${file})`)).toEqual([]);
  });

  it('links only to files that exist in the repository', () => {
    const links = [...apiMd.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)/g)].map((m) => m[1]!);
    expect(links.filter((link) => !existsUnder(join(REPO_ROOT, 'docs'), link))).toEqual([]);
    expect(apiMd).not.toMatch(/\.\.\/shared\//);
  });
});

function existsUnder(dir: string, link: string): boolean {
  try {
    statSync(join(dir, link));
    return true;
  } catch {
    return false;
  }
}

function sourceFiles(roots: string[]): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      if (name === 'node_modules' || name === 'dist' || name === 'data') return [];
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : /\.(ts|js)$/.test(name) ? [path] : [];
    });
  return roots.flatMap((root) => walk(join(REPO_ROOT, root)));
}

/**
 * Error codes as the code spells them where it answers or fails a turn: the
 * gateway's error sites, the typed errors of the runtime, the model
 * provider's. A code is a literal where an error takes it: the first or last
 * argument of an …Error( or super( call, after `code:` / `code =`, or in a
 * [status, 'code'] pair.
 */
function errorCodes(): Map<string, string> {
  const files = [
    ...sourceFiles(['services/gateway/src']),
    join(REPO_ROOT, 'shared/runtime/src/errors.ts'),
    join(REPO_ROOT, 'shared/agent-kit/src/llm/openai-provider.ts'),
  ];
  const positions = [
    /(?:[A-Z]\w*Error|super)\(\s*'([a-z]+(?:_[a-z]+)*)'/g,
    /[A-Z]\w*Error\([^;]*, '([a-z]+(?:_[a-z]+)*)'\)/g,
    /\bcode(?::| =) '([a-z]+(?:_[a-z]+)*)'/g,
    /\[\d{3}, '([a-z]+(?:_[a-z]+)*)'/g,
  ];
  const codes = new Map<string, string>();
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (/^\s*(\*|\/\/)/.test(line)) continue;
      for (const position of positions) for (const m of line.matchAll(position)) codes.set(m[1]!, file.slice(REPO_ROOT.length + 1));
    }
  }
  return codes;
}
