/**
 * Errors of the load generator, split by who is at fault: the caller's
 * arguments (exit code 2) or the system under test being unreachable (exit 1).
 */

/** Bad or unsafe arguments: the run never starts. The CLI prints it with the usage and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The gateway could not be reached at all, so there is nothing to measure. The CLI exits 1. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}
