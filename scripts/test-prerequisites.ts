/**
 * The first step of `npm test`: the machine packages the tests use
 * (test/support/system-packages.ts) are installed with apt-get when missing,
 * so the README's two commands are all a newcomer runs. Where apt-get cannot
 * run (no root, no passwordless sudo, not Debian), it says what is missing and
 * which tests that affects, and the run goes on: those tests skip or fail with
 * the same reason.
 */
import { installSystemPackages, missingSystemPackages } from '../test/support/system-packages.js';

const missing = missingSystemPackages();
if (missing.length > 0) {
  const result = installSystemPackages(missing, (line) => console.log(`test prerequisites: ${line}`));
  if (!result.ok) {
    console.warn(`test prerequisites: ${result.reason}. Missing:`);
    for (const pkg of missingSystemPackages(missing)) console.warn(`  - ${pkg.name}: ${pkg.why}`);
  }
}
