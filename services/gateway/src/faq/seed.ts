import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Logger } from '@convo/runtime';
import type { GatewayConfig } from '../config.js';
import { FaqDocument } from '@convo/contract';
import type { CorpusStore } from '@convo/faq';
import { z } from 'zod';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** Loads the sample FAQ the first time a gateway starts on this Redis (FAQ_SEED_FILE; empty disables). */
export async function seedCorpus(corpus: CorpusStore, config: Pick<GatewayConfig, 'faq'>, log: Logger): Promise<void> {
  const file = config.faq.seedFile;
  if (!file) return;
  const path = isAbsolute(file) ? file : [resolve(process.cwd(), file), resolve(REPO_ROOT, file)].find((p) => existsSync(p));
  if (!path || !existsSync(path)) {
    log.warn({ file }, 'FAQ seed file not found; the corpus starts empty');
    return;
  }
  const docs = z.array(FaqDocument).parse(JSON.parse(readFileSync(path, 'utf8')));
  if (await corpus.seedOnce(docs, config.faq.maxDocs)) log.info({ file: path, docs: docs.length }, 'sample FAQ corpus loaded');
}
