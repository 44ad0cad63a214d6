import { readFileSync } from 'node:fs';
import type { RedisClient } from '../redis/connection.js';

/**
 * A Redis Lua script kept in a `.lua` file of its own, whose header states
 * its KEYS and ARGV, with a typed encoder for its input and a decoder for its
 * reply next to it, so no caller builds positional argument lists or reads
 * `reply[1]`. A line `--- @include "other.lua"` is replaced by that file
 * (shared helper functions), as BullMQ's script loader does.
 *
 * Scripts run through ioredis `defineCommand` (EVALSHA, falling back to EVAL
 * once per connection), registered on each connection the first time it runs
 * them.
 */
export type ScriptSpec<Input, Output> = {
  /** The command name on the connection; unique across the project. */
  name: string;
  file: URL;
  /** KEYS and ARGV, in the order the file's header states. */
  encode(input: Input): { keys: readonly string[]; args: readonly (string | number)[] };
  decode(reply: unknown): Output;
};

export type RedisScript<Input, Output> = {
  readonly name: string;
  /** The script's source with its includes resolved (what Redis runs). */
  readonly lua: string;
  run(redis: RedisClient, input: Input): Promise<Output>;
};

type Command = (...args: (string | number)[]) => Promise<unknown>;

export function defineScript<Input, Output>(spec: ScriptSpec<Input, Output>): RedisScript<Input, Output> {
  const lua = loadLua(spec.file);
  return {
    name: spec.name,
    lua,
    async run(redis, input) {
      if (!(spec.name in redis)) redis.defineCommand(spec.name, { lua });
      const { keys, args } = spec.encode(input);
      const command = (redis as unknown as Record<string, Command>)[spec.name]!;
      return spec.decode(await command.call(redis, keys.length, ...keys, ...args));
    },
  };
}

const INCLUDE = /^--- @include "([^"]+)"\s*$/gm;

function loadLua(file: URL, seen: ReadonlySet<string> = new Set()): string {
  if (seen.has(file.href)) throw new Error(`${file.pathname} includes itself`);
  const source = readFileSync(file, 'utf8');
  return source.replace(INCLUDE, (_line, name: string) => loadLua(new URL(name, file), new Set([...seen, file.href])));
}
