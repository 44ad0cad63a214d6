import { existsSync, mkdirSync, readdirSync, readFile, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzip, gunzipSync } from 'node:zlib';

/**
 * kuromoji's IPADIC without the gunzip. kuromoji ships its dictionary as twelve gzip files
 * (17 MB, 100 MB unpacked) and its builder inflates them on every start: 1.2 s of the 1.7 s a
 * load takes, in every process that reads Japanese (each form worker, the FAQ replicas, the
 * workbench), on each start and replica. `npm run build` unpacks them once into this package's
 * `dist/kuromoji/` ({@link unpackKuromojiDictionary}), and {@link loadKuromojiTokenizer} reads
 * those files as they are (a read of 100 MB from the page cache is tens of milliseconds); where
 * they are missing (a checkout that was never built) it inflates the shipped files as kuromoji
 * does. The dictionary and the tokenizer are kuromoji's own classes, unchanged.
 */

const require = createRequire(import.meta.url);

/** Where kuromoji keeps its IPADIC (inside its npm package). */
const PACKED_DIR = join(dirname(require.resolve('kuromoji/package.json')), 'dict');

/** Where the build unpacks it: this package's dist/, from src/ and from dist/ alike. */
export const UNPACKED_KUROMOJI_DIR = fileURLToPath(new URL('../dist/kuromoji/', import.meta.url));

type Callback<T> = (err: Error | null, value?: T) => void;
type DictionaryLoaderClass = new (dicPath: string) => {
  load(done: Callback<unknown>): void;
  loadArrayBuffer(file: string, done: Callback<ArrayBuffer>): void;
};

// kuromoji's builder hard-codes a loader that inflates; its loader base and tokenizer take any.
const DictionaryLoader = require('kuromoji/src/loader/DictionaryLoader.js') as DictionaryLoaderClass;
const Tokenizer = require('kuromoji/src/Tokenizer.js') as new (dictionary: unknown) => unknown;

/** Reads the unpacked file when the build wrote it, else inflates kuromoji's. Called unbound by kuromoji. */
function loadArrayBuffer(file: string, done: Callback<ArrayBuffer>): void {
  const unpacked = join(UNPACKED_KUROMOJI_DIR, basename(file, '.gz'));
  if (existsSync(unpacked)) {
    readFile(unpacked, (err, bytes) => (err ? done(err) : done(null, ownBuffer(bytes))));
    return;
  }
  readFile(file, (err, packed) => {
    if (err) return done(err);
    gunzip(packed, (err2, bytes) => (err2 ? done(err2) : done(null, ownBuffer(bytes))));
  });
}

/** The bytes as an ArrayBuffer of their own (a small Buffer can be a view into a shared pool). */
function ownBuffer(bytes: Buffer): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return (whole ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)) as ArrayBuffer;
}

type TargetMapHolder = { target_map: unknown; loadTargetMap(bytes: Uint8Array): unknown };

class UnpackedDictionaryLoader extends DictionaryLoader {
  constructor(dicPath: string) {
    super(dicPath);
    // On these two instances only: kuromoji's own classes elsewhere are untouched.
    const dic = (this as unknown as { dic: { token_info_dictionary: TargetMapHolder; unknown_dictionary: TargetMapHolder } }).dic;
    for (const holder of [dic.token_info_dictionary, dic.unknown_dictionary]) {
      holder.loadTargetMap = (bytes) => {
        holder.target_map = compactTargetMap(bytes);
        return holder;
      };
    }
  }

  override loadArrayBuffer(file: string, done: Callback<ArrayBuffer>): void {
    loadArrayBuffer(file, done);
  }
}

/**
 * kuromoji's map from a dictionary entry's trie id to its token ids, as two typed arrays instead of
 * a JavaScript object of 325,871 arrays. The object was the whole of the dictionary's heap (about
 * 64 MB of a process's RSS, and a quarter of a second to build on every start); the arrays hold
 * the same ids in 2.7 MB. kuromoji reads the map only as `target_map[id]` and then `.length` and
 * `[i]` of what it gets, so a Proxy answers each read with a view of the ids (no copy).
 *
 * The file is kuromoji's: an int32 count, then per key an int32 key, an int32 n and n int32 ids,
 * little-endian; a key may appear more than once (its ids add up) and zero padding reads as keys
 * with no ids.
 */
export function compactTargetMap(bytes: Uint8Array): Record<number, Int32Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const counts = new Map<number, number>();
  let maxKey = -1;
  let total = 0;
  for (let at = 4; at + 8 <= bytes.byteLength;) {
    const key = view.getInt32(at, true);
    const n = view.getInt32(at + 4, true);
    at += 8 + 4 * n;
    if (n === 0) continue;
    counts.set(key, (counts.get(key) ?? 0) + n);
    maxKey = Math.max(maxKey, key);
    total += n;
  }
  const offsets = new Int32Array(maxKey + 2);
  for (let key = 0, sum = 0; key <= maxKey; key++) {
    offsets[key] = sum;
    sum += counts.get(key) ?? 0;
    offsets[key + 1] = sum;
  }
  const ids = new Int32Array(total);
  const next = offsets.slice(0, maxKey + 1);
  for (let at = 4; at + 8 <= bytes.byteLength;) {
    const key = view.getInt32(at, true);
    const n = view.getInt32(at + 4, true);
    at += 8;
    for (let i = 0; i < n; i++, at += 4) ids[next[key]!++] = view.getInt32(at, true);
  }
  const empty = new Int32Array(0);
  return new Proxy({} as Record<number, Int32Array>, {
    get(_, property) {
      if (typeof property === 'symbol') return undefined;
      const key = Number(property);
      return key >= 0 && key <= maxKey ? ids.subarray(offsets[key], offsets[key + 1]) : empty;
    },
  });
}

/** kuromoji's tokenizer on its IPADIC, read unpacked when the build has unpacked it. */
export function loadKuromojiTokenizer(): Promise<unknown> {
  return new Promise((resolve, reject) => {
    new UnpackedDictionaryLoader(PACKED_DIR).load((err, dictionary) => (err ? reject(err) : resolve(new Tokenizer(dictionary))));
  });
}

/**
 * Unpacks kuromoji's dictionary files into `dir` (the build's step for this package). The files
 * are unpacked again when kuromoji's version or a packed file's size differs from what `dir`'s
 * stamp records (modification times do not say: package managers and image layers reset them).
 * Returns every file of the unpacked dictionary, the stamp included.
 */
export function unpackKuromojiDictionary(dir: string = UNPACKED_KUROMOJI_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  const names = readdirSync(PACKED_DIR).filter((name) => name.endsWith('.dat.gz'));
  const version = (JSON.parse(readFileSync(join(PACKED_DIR, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const stamp = JSON.stringify({
    version,
    format: UNPACKED_FORMAT,
    sizes: Object.fromEntries(names.map((name) => [name, statSync(join(PACKED_DIR, name)).size])),
  });
  const stampFile = join(dir, 'SOURCE.json');
  const current = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  const files = names.map((name) => {
    const unpacked = join(dir, basename(name, '.gz'));
    if (!current || !existsSync(unpacked))
      writeAtomically(unpacked, withoutPadding(name, gunzipSync(readFileSync(join(PACKED_DIR, name)))));
    return unpacked;
  });
  if (!current) writeAtomically(stampFile, Buffer.from(stamp));
  return [...files, stampFile];
}

/** What the unpacked files are: 2 since their padding is cut (a dictionary unpacked before is unpacked again). */
const UNPACKED_FORMAT = 2;

/**
 * kuromoji wrote each of these files from a growable byte buffer and kept its whole capacity: tid.dat
 * is 3.9 MB of entries in 10 MB, unk.dat 398 bytes in 10 MB, 35 MB of zeros over the dictionary.
 * kuromoji reads them at offsets the entries give, and reads the target maps and the invoke
 * definitions to the end (padding read as empty entries: 149,773 empty character classes), so
 * cutting the zeros changes no lookup. A few zero bytes are kept past the last non-zero one, so
 * an entry that ends in zeros, or a string's terminator, stays whole. The typed arrays (base,
 * check, cc, unk_char, unk_compat) are kept as they are: their length is part of their meaning.
 */
const PADDED = new Set([
  'tid.dat.gz',
  'tid_pos.dat.gz',
  'tid_map.dat.gz',
  'unk.dat.gz',
  'unk_pos.dat.gz',
  'unk_map.dat.gz',
  'unk_invoke.dat.gz',
]);

function withoutPadding(name: string, bytes: Buffer): Buffer {
  if (!PADDED.has(name)) return bytes;
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  // Whole int32s, and 16 bytes of zeros: longer than any entry's trailing field.
  return bytes.subarray(0, Math.min(bytes.length, Math.ceil(end / 4) * 4 + 16));
}

function writeAtomically(path: string, contents: Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}
