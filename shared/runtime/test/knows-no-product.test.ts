import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The runtime knows no product, in its types as well as its imports (the
 * dependency rules check imports): its source never names a product, one of
 * their agents or one of their state types. A product plugs in through
 * ProductHooks (its draft, intake and repair), request jobs (RequestJobKind)
 * and its own config; a name of one here means the runtime grew a special case.
 * Each product reads its own variables (loadFaqConfig, loadFormsConfig,
 * loadWorkbenchConfig, through the runtime's readEnv).
 */
const ROOT = path.resolve(import.meta.dirname, '../src');

/** The names, in every spelling an identifier or a comment uses: `faq`, `FAQ`, `asFaq`, `FaqState`, `formDraft`. */
const NAMES = [
  'forms?',
  'faq',
  'workbench',
  'worksheets?',
  'interviews?',
  'interviewer',
  'greeter',
  'architect',
  'reviewer',
  'checker',
  'auditor',
  'planner',
  'corpus',
];
const capitalized = NAMES.map((name) => name[0]!.toUpperCase() + name.slice(1));
const PRODUCT_NAMES = new RegExp(String.raw`(?<![A-Za-z])(?:${NAMES.join('|')})(?![a-z])|(?:${capitalized.join('|')})(?![a-z])|\bFAQ\b`);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|lua)$/.test(entry.name) ? [full] : [];
  });
}

describe('the runtime', () => {
  it('names no product, product agent or product state type in its source', () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => {
          const hit = PRODUCT_NAMES.exec(line);
          return hit ? [`${path.relative(ROOT, file)}:${i + 1}: ${hit[0]}`] : [];
        }),
    );
    expect(found).toEqual([]);
  });

  it('would see one: the pattern finds the names it is for', () => {
    for (const line of [
      'draft.asForm()',
      'if (state.kind === "faq")',
      'updateWorkbench(change)',
      'the reviewer writes',
      'FaqState',
      'formDraft(state)',
      'an FAQ dialog',
      'SessionForm',
    ])
      expect(PRODUCT_NAMES.test(line), line).toBe(true);
    for (const line of ['formatted', 'platform', 'information', 'performance', 'Formats', 'transform'])
      expect(PRODUCT_NAMES.test(line), line).toBe(false);
  });
});
