import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kuromoji from 'kuromoji';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKuromoji, unpackKuromojiDictionary } from '@convo/text';
import { createRequire } from 'node:module';

/**
 * The unpacked IPADIC (kuromoji-dictionary.ts) is kuromoji's own dictionary: the tokenizer read
 * from it analyses text exactly as kuromoji's builder does, and the build unpacks it once.
 */

const dir = mkdtempSync(join(tmpdir(), 'kuromoji-unpacked-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('unpackKuromojiDictionary', () => {
  it('unpacks every file once, and again only when the stamp no longer matches the packed files', () => {
    const files = unpackKuromojiDictionary(dir);
    expect(files.map((file) => file.slice(dir.length + 1)).sort()).toContain('base.dat');
    expect(files.some((file) => file.endsWith('SOURCE.json'))).toBe(true);
    const before = statSync(join(dir, 'base.dat')).mtimeMs;
    unpackKuromojiDictionary(dir);
    expect(statSync(join(dir, 'base.dat')).mtimeMs).toBe(before);
    const stamp = join(dir, 'SOURCE.json');
    writeFileSync(stamp, readFileSync(stamp, 'utf8').replace(/"version":"[^"]*"/, '"version":"0.0.0"'));
    unpackKuromojiDictionary(dir);
    expect(statSync(join(dir, 'base.dat')).mtimeMs).toBeGreaterThan(before);
  });
});

describe('loadKuromoji', () => {
  it("tokenizes as kuromoji's own builder does", async () => {
    const dicPath = join(createRequire(import.meta.url).resolve('kuromoji/package.json'), '..', 'dict');
    const reference = await new Promise<{ tokenize(text: string): unknown[] }>((resolve, reject) =>
      kuromoji.builder({ dicPath }).build((err, tokenizer) => (err ? reject(err) : resolve(tokenizer))),
    );
    const ours = await loadKuromoji();
    for (const text of [
      'すもももももももものうち',
      '東京都渋谷区神南1丁目に住んでいます。',
      '佐藤 美咲（みさき）です',
      'ｶﾀｶﾅとEnglishが混ざった文',
    ])
      expect(ours.tokenize(text)).toEqual(reference.tokenize(text));
  });
});
