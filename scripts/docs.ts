/**
 * `npm run docs`: renders the generated parts of docs/api.md (the event
 * table, from the AsyncAPI document) in place. `npm test` fails while the
 * file differs from what this writes (test/integration/contract-docs.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildAsyncApi } from '../services/gateway/src/docs/asyncapi.js';
import { renderEventsTable, withEventsTable } from '../services/gateway/src/docs/render.js';
import { API_VERSION } from '../services/gateway/src/routes/docs.js';

const file = resolve(import.meta.dirname, '..', 'docs', 'api.md');
const before = readFileSync(file, 'utf8');
const after = withEventsTable(before, renderEventsTable(buildAsyncApi(API_VERSION)));
if (after === before) console.log('docs/api.md is current');
else {
  writeFileSync(file, after);
  console.log('docs/api.md: event table rewritten');
}
