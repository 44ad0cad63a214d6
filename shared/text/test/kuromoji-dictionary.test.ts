import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kuromoji from 'kuromoji';
import { afterAll, describe, expect, it } from 'vitest';
import { compactTargetMap, loadKuromoji, unpackKuromojiDictionary } from '@convo/text';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';

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

describe('compactTargetMap', () => {
  it("holds, for every trie id, the token ids kuromoji's own object map holds", () => {
    const TokenInfoDictionary = createRequire(import.meta.url)('kuromoji/src/dict/TokenInfoDictionary.js') as new () => {
      loadTargetMap(bytes: Uint8Array): { target_map: Record<string, number[]> };
    };
    const packed = join(createRequire(import.meta.url).resolve('kuromoji/package.json'), '..', 'dict', 'tid_map.dat.gz');
    const bytes = new Uint8Array(gunzipSync(readFileSync(packed)));
    const reference = new TokenInfoDictionary().loadTargetMap(bytes).target_map;
    unpackKuromojiDictionary(dir);
    // from kuromoji's file as it ships, and from the one the build writes
    for (const compact of [compactTargetMap(bytes), compactTargetMap(new Uint8Array(readFileSync(join(dir, 'tid_map.dat'))))]) {
      const keys = Object.keys(reference);
      expect(keys.length).toBeGreaterThan(300_000);
      for (const key of keys) expect([...compact[Number(key)]!]).toEqual(reference[key]);
      expect(compact[-1]!.length).toBe(0);
    }
  });
});

describe('unpacked files', () => {
  it('are cut to their content: a tenth of unk.dat is more than all of it', () => {
    unpackKuromojiDictionary(dir);
    expect(statSync(join(dir, 'tid_map.dat')).size).toBeLessThan(3.5 * 1024 * 1024);
    expect(statSync(join(dir, 'unk.dat')).size).toBeLessThan(1024);
    expect(statSync(join(dir, 'tid.dat')).size).toBeLessThan(5 * 1024 * 1024);
    // a typed array keeps its length
    expect(statSync(join(dir, 'base.dat')).size).toBe(8 * 1024 * 1024);
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
      // unknown words: every character class kuromoji invokes (its unk_* files are the cut ones too)
      'ＡＢＣ１２３とｱｲｳｴｵ、ギャラクシーノートⅢ😀と한국어、Ωμέγα。',
      // every string of a Japanese form: thousands of tokens, their features read from the file
      ...JSON.stringify(
        JSON.parse(readFileSync(new URL('../../../examples/forms/engineer-application-ja.json', import.meta.url), 'utf8')),
      ).split('","'),
    ])
      expect(ours.tokenize(text)).toEqual(reference.tokenize(text));
  });
});
