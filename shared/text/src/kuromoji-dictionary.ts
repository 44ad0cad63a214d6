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

class UnpackedDictionaryLoader extends DictionaryLoader {
  override loadArrayBuffer(file: string, done: Callback<ArrayBuffer>): void {
    loadArrayBuffer(file, done);
  }
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
  const stamp = JSON.stringify({ version, sizes: Object.fromEntries(names.map((name) => [name, statSync(join(PACKED_DIR, name)).size])) });
  const stampFile = join(dir, 'SOURCE.json');
  const current = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
  const files = names.map((name) => {
    const unpacked = join(dir, basename(name, '.gz'));
    if (!current || !existsSync(unpacked)) writeAtomically(unpacked, gunzipSync(readFileSync(join(PACKED_DIR, name))));
    return unpacked;
  });
  if (!current) writeAtomically(stampFile, Buffer.from(stamp));
  return [...files, stampFile];
}

function writeAtomically(path: string, contents: Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}
