import type { Policy } from '@convo/agent-kit';

/** The offline answer synthesiser returns the extractive answer it is handed. */
export const searchPolicy: Policy = (req) => ({ text: String((req.context as { extractive?: string }).extractive ?? '') });
