import {
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFile,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
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
  // Read where a feature is asked for, not loaded (FileStrings): nothing to hand kuromoji.
  if (basename(file) === ON_DEMAND && existsSync(unpacked)) return done(null, new ArrayBuffer(0));
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

type DictionaryHolder = {
  target_map: unknown;
  loadTargetMap(bytes: Uint8Array): unknown;
  pos_buffer: unknown;
  loadPosVector(bytes: Uint8Array): unknown;
};

class UnpackedDictionaryLoader extends DictionaryLoader {
  constructor(dicPath: string) {
    super(dicPath);
    // On these two instances only: kuromoji's own classes elsewhere are untouched.
    const dic = (this as unknown as { dic: { token_info_dictionary: DictionaryHolder; unknown_dictionary: DictionaryHolder } }).dic;
    for (const holder of [dic.token_info_dictionary, dic.unknown_dictionary]) {
      holder.loadTargetMap = (bytes) => {
        holder.target_map = compactTargetMap(bytes);
        return holder;
      };
    }
    const known = dic.token_info_dictionary;
    const loadPosVector = known.loadPosVector.bind(known);
    known.loadPosVector = (bytes) => {
      if (bytes.byteLength > 0) return loadPosVector(bytes);
      known.pos_buffer = new FileStrings(join(UNPACKED_KUROMOJI_DIR, basename(ON_DEMAND, '.gz')));
      return known;
    };
  }

  override loadArrayBuffer(file: string, done: Callback<ArrayBuffer>): void {
    loadArrayBuffer(file, done);
  }
}

/** The features of every dictionary entry ("名詞,固有名詞,地域,一般,*,*,東京,トウキョウ,トーキョー"). */
const ON_DEMAND = 'tid_pos.dat.gz';

/**
 * kuromoji's feature strings, read from the unpacked file where a token's are asked for instead of
 * held: they are 36 MB, more than half of what the dictionary keeps, in every process that reads
 * Japanese (five of them in one system), while an analysis reads the features of the tokens it
 * returns only. A read is one pread from the page cache, which all those processes share; the
 * last few thousand strings are kept (particles and endings come back in every sentence).
 * kuromoji reads the buffer only as `getString(offset)`: the bytes from there to a NUL, as UTF-8.
 */
class FileStrings {
  private fd: number | null = null;
  private readonly recent = new LRUCache<number, string>({ max: RECENT_STRINGS });
  private scratch = Buffer.alloc(512);

  constructor(private readonly path: string) {}

  getString(offset: number): string {
    const kept = this.recent.get(offset);
    if (kept !== undefined) return kept;
    this.fd ??= openSync(this.path, 'r');
    let length = 0;
    for (;;) {
      const read = readSync(this.fd, this.scratch, length, this.scratch.length - length, offset + length);
      const end = this.scratch.indexOf(0, length);
      if (end >= 0 && end < length + read) {
        length = end;
        break;
      }
      length += read;
      if (read === 0) break;
      if (length === this.scratch.length) this.scratch = Buffer.concat([this.scratch, Buffer.alloc(this.scratch.length)]);
    }
    const text = this.scratch.toString('utf8', 0, length);
    this.recent.set(offset, text);
    return text;
  }
}

const RECENT_STRINGS = 4096;

/**
 * kuromoji's map from a dictionary entry's trie id to its token ids, as two typed arrays instead of
 * a JavaScript object of 325,871 arrays. The object was the whole of the dictionary's heap (about
 * 64 MB of a process's RSS, and a quarter of a second to build on every start); the arrays hold
 * the same ids in 2.7 MB, and the build writes them as they are ({@link encodeTargetMap}), so a
 * start only copies the file's bytes. kuromoji reads the map only as `target_map[id]` and then
 * `.length` and `[i]` of what it gets, so a Proxy answers each read with a view of the ids.
 *
 * `bytes` is either that file (it starts with TARGET_MAP_MAGIC) or kuromoji's own: an int32
 * count, then per key an int32 key, an int32 n and n int32 ids, little-endian; a key may appear
 * more than once (its ids add up) and zero padding reads as keys with no ids.
 */
export function compactTargetMap(bytes: Uint8Array): Record<number, Int32Array> {
  const { offsets, ids } = isEncoded(bytes) ? decodeTargetMap(bytes) : parseTargetMap(bytes);
  const maxKey = offsets.length - 2;
  const empty = new Int32Array(0);
  return new Proxy({} as Record<number, Int32Array>, {
    get(_, property) {
      if (typeof property === 'symbol') return undefined;
      const key = Number(property);
      return key >= 0 && key <= maxKey ? ids.subarray(offsets[key], offsets[key + 1]) : empty;
    },
  });
}

/** 'KTM1' little-endian: the first int32 of an encoded target map (kuromoji's files start with a key count). */
const TARGET_MAP_MAGIC = 0x314d544b;

type TargetMap = { offsets: Int32Array; ids: Int32Array };

/** A target map as the build writes it: the magic, the number of offsets, the number of ids, the offsets, the ids. */
export function encodeTargetMap(kuromojiBytes: Uint8Array): Buffer {
  const { offsets, ids } = parseTargetMap(kuromojiBytes);
  const out = Buffer.alloc(12 + 4 * (offsets.length + ids.length));
  out.writeInt32LE(TARGET_MAP_MAGIC, 0);
  out.writeInt32LE(offsets.length, 4);
  out.writeInt32LE(ids.length, 8);
  Buffer.from(offsets.buffer, offsets.byteOffset, offsets.byteLength).copy(out, 12);
  Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength).copy(out, 12 + offsets.byteLength);
  return out;
}

function isEncoded(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 12 && new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0, true) === TARGET_MAP_MAGIC;
}

function decodeTargetMap(bytes: Uint8Array): TargetMap {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const offsetCount = view.getInt32(4, true);
  const idCount = view.getInt32(8, true);
  // Copied once into an array of its own: the file's bytes need not be 4-byte aligned in their buffer.
  const words = new Int32Array(bytes.buffer.slice(bytes.byteOffset + 12, bytes.byteOffset + 12 + 4 * (offsetCount + idCount)));
  return { offsets: words.subarray(0, offsetCount), ids: words.subarray(offsetCount) };
}

function parseTargetMap(bytes: Uint8Array): TargetMap {
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
  return { offsets, ids };
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
    if (!current || !existsSync(unpacked)) writeAtomically(unpacked, unpackedForm(name, gunzipSync(readFileSync(join(PACKED_DIR, name)))));
    return unpacked;
  });
  if (!current) writeAtomically(stampFile, Buffer.from(stamp));
  return [...files, stampFile];
}

/**
 * What the unpacked files are: 3 since their padding is cut and the target maps are encoded (a
 * dictionary unpacked before is unpacked again).
 */
const UNPACKED_FORMAT = 3;
const TARGET_MAPS = new Set(['tid_map.dat.gz', 'unk_map.dat.gz']);

/**
 * kuromoji wrote each of these files from a growable byte buffer and kept its whole capacity: tid.dat
 * is 3.9 MB of entries in 10 MB, unk.dat 398 bytes in 10 MB, 35 MB of zeros over the dictionary.
 * kuromoji reads them at offsets the entries give, and reads the target maps and the invoke
 * definitions to the end (padding read as empty entries: 149,773 empty character classes; the target maps are encoded, below), so
 * cutting the zeros changes no lookup. A few zero bytes are kept past the last non-zero one, so
 * an entry that ends in zeros, or a string's terminator, stays whole. The typed arrays (base,
 * check, cc, unk_char, unk_compat) are kept as they are: their length is part of their meaning.
 */
const PADDED = new Set(['tid.dat.gz', 'tid_pos.dat.gz', 'unk.dat.gz', 'unk_pos.dat.gz', 'unk_invoke.dat.gz']);

/** What the build writes for one of kuromoji's files: the target maps encoded, the others without their padding. */
function unpackedForm(name: string, bytes: Buffer): Buffer {
  if (TARGET_MAPS.has(name)) return encodeTargetMap(bytes);
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
