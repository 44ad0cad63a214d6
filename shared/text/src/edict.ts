import fs from 'node:fs';
import zlib from 'node:zlib';

/**
 * EDICT's Japanese–English word list (EDRDG, CC BY-SA 4.0; built into
 * shared/text/data by scripts/build-edict.ts): the English glosses of a
 * Japanese headword. Shared by the products that read a word across
 * languages (a form's options, a worksheet's topic); loaded on first use.
 */

const DATA = new URL('../data/edict-ja-en.tsv.gz', import.meta.url);

let dictionary: Map<string, string[]> | null = null;
let longest = 0;

function entries(): Map<string, string[]> {
  if (dictionary) return dictionary;
  dictionary = new Map();
  let text = '';
  try {
    text = zlib.gunzipSync(fs.readFileSync(DATA)).toString('utf8');
  } catch {
    // Without the word list no word is read across languages; every other rule still works.
    return dictionary;
  }
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) {
      dictionary.set(line.slice(0, tab), line.slice(tab + 1).split('; '));
      longest = Math.max(longest, tab);
    }
  }
  return dictionary;
}

/** The English glosses of a Japanese word ("和室" → ["japanese-style room"]), [] when EDICT does not list it. */
export function englishGlosses(word: string): string[] {
  return entries().get(word) ?? [];
}

/** The length of the longest headword: no longer text is listed. */
export function longestHeadword(): number {
  entries();
  return longest;
}
