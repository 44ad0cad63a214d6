import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/processes.js';

/**
 * The docs stay true to the tree: every relative link in the README and in
 * docs/ (subfolders included) points at a file that exists (and at a heading
 * that exists, when it names one), every repository path written in code spans
 * exists, and every `npm run <script>` names a script of package.json. The
 * README stays a page a newcomer can walk: short, and linking every page of
 * docs/ (the design documents and the screenshots aside).
 */
/** Markdown files under `dir` (repository-relative), every subfolder walked. */
function markdownUnder(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return markdownUnder(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}
const docPages = markdownUnder('docs').sort();
const pages = ['README.md', ...docPages];
const README_MAX_LINES = 250;
/** Folders of docs/ whose pages the README need not link one by one. */
const UNLISTED = ['docs/seeds/', 'docs/images/'];
type PackageJson = { name: string; scripts?: Record<string, string>; workspaces?: string[] };
const readPackage = (dir: string) => JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as PackageJson;
const root = readPackage('.');
/** Each package's scripts by its name; the root's under '' (npm run without -w). */
const scriptsOf = new Map<string, string[]>([['', Object.keys(root.scripts ?? {})]]);
for (const pattern of root.workspaces ?? []) {
  const dirs = pattern.endsWith('/*')
    ? readdirSync(join(REPO_ROOT, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -2)}/${name}`)
    : [pattern];
  for (const dir of dirs.filter((d) => existsSync(join(REPO_ROOT, d, 'package.json')))) {
    const pkg = readPackage(dir);
    // -w takes a package's name or its folder.
    scriptsOf.set(pkg.name, Object.keys(pkg.scripts ?? {}));
    scriptsOf.set(dir, Object.keys(pkg.scripts ?? {}));
  }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    out.add(
      heading[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return out;
}

/** Text outside fenced code blocks (examples there may name files of the reader's own). */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
}

/** Relative link targets of a page's prose (`[text](target)`), web addresses left out. */
function linkTargets(body: string): string[] {
  return [...body.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target!).filter((target) => !/^[a-z]+:/i.test(target));
}

const TOP_DIRS = ['test', 'scripts', 'services', 'shared', 'packages', 'docs', 'examples', 'eval'];

describe.each(pages)('%s', (page) => {
  const text = readFileSync(join(REPO_ROOT, page), 'utf8');
  const body = prose(text);

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const target of linkTargets(body)) {
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const path = file === '' ? join(REPO_ROOT, page) : resolve(dirname(join(REPO_ROOT, page)), file);
      if (!existsSync(path)) {
        broken.push(`${target} (no such file)`);
        continue;
      }
      if (anchor && path.endsWith('.md') && !anchors(readFileSync(path, 'utf8')).has(anchor)) broken.push(`${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it('names only repository paths that exist', () => {
    const missing: string[] = [];
    for (const [, span] of body.matchAll(/`([^`\s]+)`/g)) {
      const path = span!.replace(/[.,:;]$/, '');
      if (!TOP_DIRS.some((dir) => path.startsWith(`${dir}/`)) || /[*<>{}]/.test(path)) continue;
      if (!existsSync(join(REPO_ROOT, path))) missing.push(path);
    }
    expect(missing, `in ${relative(REPO_ROOT, join(REPO_ROOT, page))}`).toEqual([]);
  });

  it('names only npm scripts that exist (of the root, or of the workspace given with -w)', () => {
    const unknown = [...body.matchAll(/npm run ([\w:-]+)(?: -w ([\w@/.-]+))?/g)]
      .map(([, name, workspace = '']) => ({ name: name!, workspace }))
      .filter(({ name, workspace }) => !(scriptsOf.get(workspace) ?? []).includes(name))
      .map(({ name, workspace }) => (workspace ? `${name} -w ${workspace}` : name));
    expect(unknown).toEqual([]);
  });
});

describe('README.md as the way in', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

  it(`has at most ${README_MAX_LINES} lines`, () => {
    expect(readme.replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('links every page under docs/ (the design documents and screenshots aside)', () => {
    const linked = new Set(linkTargets(prose(readme)).map((target) => relative(REPO_ROOT, resolve(REPO_ROOT, target.split('#')[0]!))));
    const unlinked = docPages.filter((page) => !UNLISTED.some((dir) => page.startsWith(dir)) && !linked.has(page));
    expect(unlinked).toEqual([]);
  });
});
