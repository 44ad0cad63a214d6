import { inject } from 'vitest';
import { runtimeSuite } from './runtime-suite.js';

/** The runtime's guarantees on one Redis (see runtime-suite.ts). */
runtimeSuite(() => ({ REDIS_URL: inject('redisUrl') }));
