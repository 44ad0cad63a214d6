import { runMain } from '@convo/agent-kit';
import { startGateway } from './server.js';

runMain(async () => {
  const gw = await startGateway();
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    gw.deps.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), gw.deps.config.shutdownTimeoutMs).unref();
    gw.close()
      .then(() => {
        clearTimeout(timer);
        process.exit(0);
      })
      .catch(() => process.exit(1));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
});
