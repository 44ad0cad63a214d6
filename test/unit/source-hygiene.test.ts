import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/processes.js';

/** Every source file of the repository (dependencies and built output aside): a check of the whole tree, so it sits at the top level. */
describe('source hygiene', () => {
  // A regex written into a plain string from a script once put backspace characters where \b was meant, silently
  // disabling two patterns for a whole stop: no source file may hold control characters.
  it('no source file holds a control character other than tab and newline', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        // eslint-disable-next-line no-control-regex -- control characters are what this test looks for
        else if (/\.(?:ts|js|mjs|json|md)$/.test(name) && /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(readFileSync(path, 'utf8')))
          offenders.push(path);
      }
    };
    for (const dir of ['shared', 'services', 'packages', 'scripts', 'test', 'eval']) walk(join(REPO_ROOT, dir));
    expect(offenders).toEqual([]);
  });
});
