// `npm run build -w @convo/client`, after esbuild has written dist/index.js: the package's
// declarations as one file, dist/index.d.ts, by rollup-plugin-dts from the sources (type-checked
// on the way: tsconfig.build.json, and the plugin's noEmitOnError). The contract's types come from
// a private workspace package (@convo/…, never published), so their declarations are inlined and
// the packed client type-checks where no @convo/* package exists. Public packages stay imports:
// zod is the one (the contract's types are zod's, `z.infer`), hence the package's dependency on it.
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dts } from 'rollup-plugin-dts';

/** A file of the package, wherever rollup is run from. */
const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** Bare specifiers outside the workspace's own scope: left as imports. */
const isPublicPackage = (id) => !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('@convo/');

/** The names in an `export { a, b as c };` list: [local, exported] pairs. */
const exportList = (names) =>
  names
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [local, exported = local] = entry.split(' as ').map((name) => name.trim());
      return [local, exported];
    });

/**
 * The declarations promise exactly the values dist/index.js exports. rollup-plugin-dts exports a
 * name as a value whenever a value of that name is declared, even where the source re-exports its
 * type only (`export type { SessionSnapshot }`: a contract schema and its type share one name), and
 * a consumer could then import at run time what the module does not have. Names the module does
 * not export move to the `export type` list; a value export the declarations lack fails the build.
 */
function valueExportsAsBuilt() {
  return {
    name: 'value-exports-as-built',
    async renderChunk(code) {
      const built = new Set(Object.keys(await import(new URL('dist/index.js', import.meta.url).href)));
      const values = /^export \{([^}]*)\};$/m.exec(code);
      const types = /^export type \{([^}]*)\};$/m.exec(code);
      if (!values) throw new Error('dist/index.d.ts: no export list found');
      const declared = exportList(values[1]);
      const kept = declared.filter(([, exported]) => built.has(exported));
      const typeOnly = [...exportList(types?.[1] ?? ''), ...declared.filter(([, exported]) => !built.has(exported))];
      const missing = [...built].filter((name) => !kept.some(([, exported]) => exported === name));
      if (missing.length > 0) throw new Error(`dist/index.d.ts declares no ${missing.join(', ')} (exported by dist/index.js)`);
      const list = (pairs) => pairs.map(([local, exported]) => (local === exported ? local : `${local} as ${exported}`)).join(', ');
      let out = code.replace(values[0], () => `export { ${list(kept)} };`);
      if (types) out = out.replace(types[0], () => `export type { ${list(typeOnly)} };`);
      else if (typeOnly.length > 0) out += `export type { ${list(typeOnly)} };\n`;
      return { code: out, map: null };
    },
  };
}

export default {
  input: here('src/index.ts'),
  output: { file: here('dist/index.d.ts'), format: 'es' },
  // respectExternal: the plugin follows every import TypeScript resolves (a private workspace
  // package to its .ts sources, whichever specifier the client uses), and `external` alone
  // decides what stays an import.
  external: isPublicPackage,
  plugins: [
    dts({
      tsconfig: here('tsconfig.build.json'),
      respectExternal: true,
      // The workspace package by its real path (shared/…), not through node_modules/@convo: the
      // plugin then declares its files in one TypeScript program instead of one program each.
      compilerOptions: { preserveSymlinks: false },
    }),
    valueExportsAsBuilt(),
  ],
};
