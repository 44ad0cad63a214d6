import { readFileSync } from 'node:fs';

/**
 * The EUC-JP file (a Debian dictionary: EDICT, KANJIDIC) named by the script's first argument, as
 * text; without one, the usage line and exit code 2.
 */
export function eucJpArgument(usage: string): string {
  const source = process.argv[2];
  if (!source) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return new TextDecoder('euc-jp').decode(readFileSync(source));
}
