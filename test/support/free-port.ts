import { createServer } from 'node:net';

/**
 * Asks the kernel for a free TCP port on 127.0.0.1. The port is released
 * before the caller binds it, so another process can take it in between:
 * callers that spawn a server on it should retry on "address in use".
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}
