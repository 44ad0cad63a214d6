import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../scripts/build/compile.js';
import { REPO_ROOT } from '../support/processes.js';

/**
 * What `npm run build` makes of the services (scripts/build/compile.ts, docs/operating.md#compiled-services)
 * and what the image keeps: each service is its own bundle holding only the code it calls, and the
 * production dependencies hold no compiler.
 */

const SERVICES = readdirSync(join(REPO_ROOT, 'services'));

/** The npm packages a service's start imports: those of its main.js and of the files main.js imports statically. */
function startImports(service: string): Set<string> {
  const dist = join(REPO_ROOT, 'services', service, 'dist');
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    // Static imports only (`import … from "x"`, `import "x"`); an import() is loaded where it is first needed.
    for (const [, specifier] of code.matchAll(/^import\s[^;]*?["']([^"']+)["'];?$/gm)) {
      if (specifier!.startsWith('./')) visit(specifier!.slice(2));
      else packages.add(specifier!);
    }
  };
  visit('main.js');
  return packages;
}

describe('compiled services', () => {
  it('are one bundle each, with the workspace packages inside and npm packages imported', () => {
    for (const service of SERVICES) {
      const imports = startImports(service);
      expect(
        [...imports].filter((name) => name.startsWith('@convo/')),
        service,
      ).toEqual([]);
      expect(imports.has('bullmq') || service === 'gateway', service).toBe(true);
    }
  });

  it.each(['architect', 'checker', 'greeter', 'gateway'])(
    '%s starts without the interview reader (compromise, chrono) or a dictionary (kuromoji)',
    (service) => {
      const imports = startImports(service);
      for (const heavy of ['compromise', 'chrono-node', 'kuromoji']) expect(imports.has(heavy), `${service} imports ${heavy}`).toBe(false);
    },
  );

  it('that read answers do import the reader', () => {
    expect(startImports('reviewer').has('compromise')).toBe(true);
  });

  it('leave the tracing SDK and its exporters out of a start without tracing', () => {
    for (const service of SERVICES)
      for (const sdk of ['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-proto', '@opentelemetry/exporter-trace-otlp-http'])
        expect(startImports(service).has(sdk), `${service} imports ${sdk}`).toBe(false);
  });
});

describe('the flags a service runs with', () => {
  it("are the same in npm start, the services' start scripts and the image", () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`ENTRYPOINT ${JSON.stringify(['node', ...SERVICE_NODE_FLAGS])}`.replaceAll(',', ', '));
    for (const service of SERVICES) {
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'services', service, 'package.json'), 'utf8')) as {
        scripts: { start: string };
      };
      expect(manifest.scripts.start, service).toBe(`node ${SERVICE_NODE_FLAGS.join(' ')} dist/main.js`);
    }
  });
});

describe('the production dependencies', () => {
  it('hold no compiler: esbuild, TypeScript and tsx are development dependencies only (npm prune --omit=dev removes them from the image)', () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; devOptional?: boolean }>;
    };
    const compilers = Object.entries(lock.packages).filter(([path]) =>
      /(?:^|\/)node_modules\/(?:esbuild|@esbuild\/[^/]+|typescript|typescript-native|tsx)$/.test(path),
    );
    expect(compilers.length).toBeGreaterThan(0);
    for (const [path, entry] of compilers) expect(entry.dev === true || entry.devOptional === true, path).toBe(true);
  });
});
