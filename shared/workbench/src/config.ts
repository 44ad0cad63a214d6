import { envInt, readEnv } from '@convo/runtime';

/** The workbench's variables (docs/configuration.md). */
const WorkbenchEnv = {
  /** How long worksheet creation, the agent's turns, checks and PDFs wait for the workbench worker (then 504). */
  WORKBENCH_TIMEOUT_MS: envInt(20_000, 100),
  /** Per client (IP): worksheets created and not yet expired or deleted; 0 disables. */
  CLIENT_MAX_WORKSHEETS: envInt(50, 0),
};

export type WorkbenchConfig = Readonly<{ timeoutMs: number; clientMaxWorksheets: number }>;

/** The workbench's section of the configuration, read from the environment; throws a readable ConfigError. */
export function loadWorkbenchConfig(env: NodeJS.ProcessEnv = process.env): WorkbenchConfig {
  const vars = readEnv(WorkbenchEnv, env);
  return Object.freeze({ timeoutMs: vars.WORKBENCH_TIMEOUT_MS, clientMaxWorksheets: vars.CLIENT_MAX_WORKSHEETS });
}
