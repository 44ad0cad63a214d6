import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, type Stats, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unpackKuromojiDictionary } from '@convo/text';
import { build, type BuildOptions } from 'esbuild';

/**
 * `npm run build` (scripts/build.ts): every workspace's TypeScript as JavaScript, which is what the services run
 * (`npm start`, the Docker image, the test harness, the bench). tsx stays for development and the
 * scripts; a service under tsx pays its loader hooks on every start (about 1.5–2 s of a form
 * worker's 5 s on a 2-core machine, and a second thread of CPU while it loads).
 *
 * Each workspace's `src/` becomes its `dist/` file for file (esbuild, transpile only: tsc is the
 * type checker, `npm run typecheck`), so `dist/` sits at the depth of `src/` and the paths the code
 * builds from `import.meta.url` (`../../data/…`, the gateway's `web/`) hold in both. Files that are
 * not TypeScript (the Lua scripts) are copied beside their modules. A package's `exports` name its
 * `dist/` under the `compiled` condition and its `src/` otherwise, so `node --conditions=compiled`
 * runs JavaScript throughout while tsc, tsx, vitest and dependency-cruiser read the sources.
 *
 * A file is written only when its content changed (through a rename, so a service starting
 * meanwhile reads the old file or the new one, never half of one), and files whose source is gone
 * are removed: the build is cheap enough (about 0.5 s) to run before every test run and start.
 */

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Node flag that makes workspace packages resolve to their compiled `dist/`. */
export const COMPILED_CONDITION = '--conditions=compiled';

/**
 * The `node` flags every service runs with (here, in the services' `start` scripts and in the
 * Dockerfile's ENTRYPOINT; a test keeps them equal). A young generation of 4 MB semi-spaces
 * instead of V8's 16: a service's start allocates enough to grow them to the maximum, which it
 * then keeps, about 40 MB of every dictionary-reading process's RSS; a step's CPU did not change
 * measurably (docs/operating.md#compiled-services).
 */
export const SERVICE_NODE_FLAGS = [COMPILED_CONDITION, '--max-semi-space-size=4'] as const;

/** The `node` arguments that run a service's compiled entry point (from the repository root). */
export function serviceArgs(name: string): string[] {
  return [...SERVICE_NODE_FLAGS, `services/${name}/dist/main.js`];
}

/** The compiled entry point of a service, for checks that it was built. */
export function serviceEntry(name: string): string {
  return join(REPO_ROOT, 'services', name, 'dist', 'main.js');
}

export type BuildReport = { workspaces: number; written: number; removed: number; ms: number; upToDate: boolean };

/**
 * Builds every workspace under shared/ and services/, and the client bundle the gateway serves.
 * Nothing is built when no source, output, manifest or installed package changed since the last
 * build (a stamp of their sizes and modification times): a start after a start costs a walk of the
 * tree (tens of milliseconds), not the two seconds of bundling ten services.
 */
export async function buildAll(root: string = REPO_ROOT): Promise<BuildReport> {
  const started = performance.now();
  const workspaces = ['shared', 'services'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(root, group, name))
      .filter((dir) => isDirectory(join(dir, 'src'))),
  );
  const stampFile = join(root, 'node_modules', '.cache', 'convo-build', 'stamp');
  const before = fingerprint(root, workspaces);
  if (readOr(stampFile) === before)
    return { workspaces: workspaces.length + 1, written: 0, removed: 0, ms: Math.round(performance.now() - started), upToDate: true };
  const report = await buildEverything(root, workspaces);
  writeIfChanged(stampFile, Buffer.from(fingerprint(root, workspaces)));
  return { ...report, ms: Math.round(performance.now() - started) };
}

/** What a build reads and writes, as sizes and modification times, hashed. */
function fingerprint(root: string, workspaces: string[]): string {
  const files = [
    ...[...workspaces, join(root, 'packages', 'client')].flatMap((dir) => [
      join(dir, 'package.json'),
      ...(isDirectory(join(dir, 'src')) ? walk(join(dir, 'src')) : []),
      ...(isDirectory(join(dir, 'dist')) ? walk(join(dir, 'dist')) : []),
    ]),
    join(root, 'package-lock.json'),
    join(root, 'node_modules', '.package-lock.json'),
    fileURLToPath(import.meta.url),
  ];
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    const stat = statOr(file);
    hash.update(`${relative(root, file)} ${stat?.size ?? '-'} ${stat?.mtimeMs ?? '-'}\n`);
  }
  return hash.digest('hex');
}

async function buildEverything(root: string, workspaces: string[]): Promise<BuildReport> {
  let written = 0;
  let removed = 0;
  const results = await Promise.all(workspaces.map((dir) => buildWorkspace(dir, GENERATED[relative(root, dir)])));
  for (const result of results) {
    written += result.written;
    removed += result.removed;
  }
  // The gateway serves @convo/client to the pages by bundling the module `@convo/client` resolves
  // to; compiled, that is the package's own dist/index.js (what it publishes), so it is built here
  // too, with the options of the package's `build` script (which adds the declarations).
  const client = join(root, 'packages', 'client');
  const bundle = await build({
    entryPoints: [join(client, 'src', 'index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    outfile: join(client, 'dist', 'index.js'),
    write: false,
    logLevel: 'error',
  });
  for (const file of bundle.outputFiles ?? []) if (writeIfChanged(file.path, file.contents)) written++;
  return { workspaces: workspaces.length + 1, written, removed, ms: 0, upToDate: false };
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A path's stat, or null where there is nothing to stat (isFile and isDirectory read it too). */
function statOr(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

const TRANSPILE: BuildOptions = {
  format: 'esm',
  platform: 'node',
  // 20.19 keeps `import … with { type: 'json' }`, which an older target would drop.
  target: 'node20.19',
  sourcemap: 'linked',
  write: false,
  logLevel: 'error',
};

/**
 * What a workspace's dist/ holds besides its modules, made by the build and kept by its sweep:
 * @convo/text's kuromoji dictionary unpacked (kuromoji-dictionary.ts says why).
 */
const GENERATED: Record<string, (out: string) => string[]> = {
  'shared/text': (out) => unpackKuromojiDictionary(join(out, 'kuromoji')),
};

async function buildWorkspace(dir: string, generate?: (out: string) => string[]): Promise<{ written: number; removed: number }> {
  const src = join(dir, 'src');
  const out = join(dir, 'dist');
  const sources = walk(src);
  const wanted = new Set<string>();
  let written = 0;
  const entryPoints = sources.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
  const result = isService(dir) ? await bundleService(dir) : await build({ ...TRANSPILE, entryPoints, outdir: out, outbase: src });
  for (const file of result.outputFiles ?? []) {
    wanted.add(file.path);
    if (writeIfChanged(file.path, file.contents)) written++;
  }
  for (const file of sources.filter((path) => !path.endsWith('.ts'))) {
    const target = join(out, relative(src, file));
    wanted.add(target);
    if (writeIfChanged(target, readFileSync(file))) written++;
  }
  for (const file of generate?.(out) ?? []) wanted.add(file);
  let removed = 0;
  for (const file of isDirectory(out) ? walk(out) : []) {
    if (wanted.has(file)) continue;
    rmSync(file);
    removed++;
  }
  return { written, removed };
}

function isService(dir: string): boolean {
  return relative(join(dir, '..', '..'), dir).split(/[\\/]/)[0] === 'services' && isFile(join(dir, 'src', 'main.ts'));
}

/**
 * A service is one file (and the ones it imports lazily): its `src/main.ts` with the `@convo/*`
 * code it uses, bundled (npm packages stay imports). The workspace packages declare `"sideEffects": false`, so what a service never
 * calls is not in its file: the architect's holds no interview reader and never imports compromise,
 * which the reviewer's does. Few files also spare the ESM loader resolving some 300 modules at
 * every start. A bundled module's `import.meta.url` is rewritten to the URL its own compiled file
 * has (the package's `dist/`, which the per-file build above still writes), so the paths it builds
 * from it (its data, its Lua scripts, `createRequire`) are the same as when it ran alone.
 */
async function bundleService(dir: string) {
  const out = join(dir, 'dist');
  return build({
    ...TRANSPILE,
    entryPoints: [join(dir, 'src', 'main.ts')],
    outdir: out,
    bundle: true,
    // A module imported with import() is its own file, with the npm packages it imports: what a
    // service may never need is not loaded at its start (the forms' answer router, the workbench's
    // kanji and English generators). Beside main.js, so the rewritten module URLs hold for both.
    splitting: true,
    chunkNames: '[name]-[hash]',
    plugins: [
      {
        name: 'externals-and-module-urls',
        setup(b) {
          // Bare specifiers other than the workspace's own packages are npm packages (and node: builtins).
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@convo/') ? undefined : { path: args.path, external: true }));
          b.onLoad({ filter: /\.ts$/ }, (args) => {
            const source = readFileSync(args.path, 'utf8');
            if (!source.includes('import.meta.url')) return undefined;
            const compiled = compiledPathOf(args.path);
            const fromBundle = relative(out, compiled).split('\\').join('/');
            return {
              contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
              loader: 'ts',
            };
          });
        },
      },
    ],
  });
}

/** Where a workspace source file's own compiled module is (`<workspace>/src/a/b.ts` → `<workspace>/dist/a/b.js`). */
function compiledPathOf(source: string): string {
  const parts = source.split(/[\\/]/);
  const at = parts.lastIndexOf('src');
  parts[at] = 'dist';
  return parts.join('/').replace(/\.ts$/, '.js');
}

function writeIfChanged(path: string, contents: Uint8Array): boolean {
  try {
    if (Buffer.from(contents).equals(readFileSync(path))) return false;
  } catch {
    // not there yet
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
  return true;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

function isFile(path: string): boolean {
  return statOr(path)?.isFile() ?? false;
}

function isDirectory(path: string): boolean {
  return statOr(path)?.isDirectory() ?? false;
}
