/** `npm run build`: the services' and packages' JavaScript (scripts/build/compile.ts says what and why). */
import { buildAll } from './build/compile.js';

const report = await buildAll();
console.log(
  report.upToDate
    ? `${report.workspaces} workspaces up to date (checked in ${report.ms} ms)`
    : `built ${report.workspaces} workspaces in ${report.ms} ms (${report.written} files written, ${report.removed} removed)`,
);
