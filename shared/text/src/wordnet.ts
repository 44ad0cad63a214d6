/**
 * The lemmas of a synset from the fields of its line in a WordNet data file
 * (`data.<pos>`: `offset lex_filenum ss_type w_cnt word lex_id …`, split at
 * spaces; w_cnt is hexadecimal), each without its adjective marker. Shared by
 * the products that read WordNet (FAQ synonyms, the workbench's English
 * vocabulary); a lemma keeps WordNet's underscores for spaces.
 */
export function wordnetLemmas(fields: readonly string[]): string[] {
  const count = parseInt(fields[3]!, 16);
  const lemmas: string[] = [];
  for (let i = 0; i < count; i++) lemmas.push(withoutMarker(fields[4 + i * 2]!));
  return lemmas;
}

/**
 * "able(a)" → "able", as `/\(.*\)$/` cut it. A field is one word of a line split at spaces, so a scan for the
 * marker's start does it; the regex looked for the end again from each "(".
 */
function withoutMarker(field: string): string {
  const open = field.indexOf('(');
  return open >= 0 && field.endsWith(')') ? field.slice(0, open) : field;
}
