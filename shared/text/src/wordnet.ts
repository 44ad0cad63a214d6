/**
 * A lemma field of a WordNet data file (`data.<pos>`) without its adjective
 * marker: "able(a)" → "able", as `/\(.*\)$/` cut it. A field is one word of a
 * line split at spaces, so a scan for the marker's start does it; the regex
 * looked for the end again from each "(". Shared by the products that read
 * WordNet (FAQ synonyms, the workbench's English vocabulary).
 */
export function wordnetLemma(field: string): string {
  const open = field.indexOf('(');
  return open >= 0 && field.endsWith(')') ? field.slice(0, open) : field;
}
