import { loadConfig, type Config } from '@convo/runtime';
import { loadFaqConfig, type FaqConfig } from '@convo/faq';
import { loadFormsConfig, type FormsConfig } from '@convo/forms';
import { loadWorkbenchConfig, type WorkbenchConfig } from '@convo/workbench';

/** The gateway serves every product: the runtime's configuration and each product's own section. */
export type GatewayConfig = Config & Readonly<{ faq: FaqConfig; forms: FormsConfig; workbench: WorkbenchConfig }>;

/** Reads the gateway's configuration from the environment; throws a readable ConfigError. */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  return Object.freeze({ ...loadConfig(env), faq: loadFaqConfig(env), forms: loadFormsConfig(env), workbench: loadWorkbenchConfig(env) });
}
