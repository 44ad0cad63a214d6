import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/** The security headers of every answer (docs/api.md, "Base URL and formats"): helmet with this policy. */
export const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
    },
  },
  // Same-origin pages and API: no cross-origin embedding either way.
  crossOriginResourcePolicy: { policy: 'same-origin' },
} as const satisfies HelmetOptions;

/**
 * The headers helmet sets under `options`, as name → value. Answers that
 * leave before Fastify's hooks run (router errors, requests Node's HTTP parser
 * rejects) carry these, so no answer goes out without them. The policy has no
 * per-request part (no nonces), so one set serves every such answer.
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
      return res;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => void (failed = err));
  if (failed) throw failed;
  return Object.freeze(headers);
}
