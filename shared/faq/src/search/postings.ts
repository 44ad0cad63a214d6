/**
 * An inverted index for one kind of term (words, n-grams, readings) over a
 * fixed list of fields, scored with BM25F: per-field term frequencies are
 * length-normalised, weighted, summed, and only then saturated, so a term
 * that appears in both question and answer is not counted twice at full
 * strength.
 *
 * Documents live in numbered slots handed out by the caller. Removing a
 * document only marks its slot dead (its term ids are kept so document
 * frequencies stay exact); `compact` later drops dead slots from every
 * posting list in one pass. That keeps `upsert` of a few documents cheap on a
 * large index: nothing else is re-analysed or rewritten.
 */

export interface Bm25fParams {
  /** One weight per field: how much a match in that field counts. */
  readonly weights: readonly number[];
  /** One length-normalisation strength per field (0 = none, 1 = full). */
  readonly b: readonly number[];
  /** Term-frequency saturation. */
  readonly k1: number;
}

export interface Postings {
  /** Live documents. */
  readonly size: number;
  /** Indexes the terms of each field (same order as the params) at a new slot. */
  add(slot: number, fields: readonly (readonly string[])[]): void;
  remove(slot: number): void;
  df(term: string): number;
  /** BM25 idf, `ln(1 + (N − df + 0.5) / (df + 0.5))`; a term never seen gets the largest value. */
  idf(term: string): number;
  /**
   * Writes every live document holding `term` into `slots` and its
   * saturation into `sats` (both at least `df(term)` long); returns how many.
   * `sat = tf~ / (tf~ + k1)` in [0, 1), `tf~` being the BM25F weighted,
   * length-normalised term frequency. Buffers rather than a callback: this
   * is the innermost loop of every query.
   */
  scan(term: string, slots: Int32Array, sats: Float64Array): number;
  /** Whether the term occurs in `field` of the document at `slot`. */
  inField(term: string, slot: number, field: number): boolean;
  /** Terms that occur in at least one live document. */
  vocabulary(): string[];
  /** The document's distinct terms with their frequency over all fields, and its length (all fields); empty when the slot is dead. */
  termsOf(slot: number): { terms: string[]; counts: Uint16Array; length: number };
  /** Renumbers slots (`remap[old]` = new slot, −1 = dead) after the caller dropped dead ones. */
  compact(remap: Int32Array): void;
}

export function createPostings(params: Bm25fParams): Postings {
  const fieldCount = params.weights.length;
  if (fieldCount > 3) throw new Error('postings pack at most three fields');
  // A posting is two small integers: the slot, and the term frequency of each
  // field in 10 bits (capped at 1023), which halves memory against one number per field.
  const stride = 2;
  const TF_BITS = 10;
  const TF_MAX = (1 << TF_BITS) - 1;
  const tfOf = (packed: number, field: number) => (packed >> (field * TF_BITS)) & TF_MAX;
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  // Plain number arrays: most terms have a handful of postings, and small-integer
  // arrays cost 4 bytes an element with no per-array typed-buffer overhead.
  const lists: number[][] = [];
  const dfs: number[] = [];
  let lengths = new Float64Array(0); // slot * fieldCount + field
  let docTerms: (Int32Array | undefined)[] = [];
  let docCounts: (Uint16Array | undefined)[] = [];
  let alive = new Uint8Array(0);
  const totals = new Float64Array(fieldCount);
  let live = 0;

  const ensureSlot = (slot: number) => {
    if (slot < alive.length) return;
    const capacity = Math.max(slot + 1, alive.length * 2, 64);
    const nextLengths = new Float64Array(capacity * fieldCount);
    nextLengths.set(lengths);
    lengths = nextLengths;
    const nextAlive = new Uint8Array(capacity);
    nextAlive.set(alive);
    alive = nextAlive;
  };

  const idOf = (term: string): number => {
    let id = termIds.get(term);
    if (id === undefined) {
      id = terms.length;
      termIds.set(term, id);
      terms.push(term);
      lists.push([]);
      dfs.push(0);
    }
    return id;
  };

  const add = (slot: number, fields: readonly (readonly string[])[]) => {
    ensureSlot(slot);
    const tf = new Map<number, number[]>();
    fields.forEach((fieldTerms, field) => {
      lengths[slot * fieldCount + field] = fieldTerms.length;
      totals[field]! += fieldTerms.length;
      for (const term of fieldTerms) {
        const id = idOf(term);
        let counts = tf.get(id);
        if (!counts) tf.set(id, (counts = new Array<number>(fieldCount).fill(0)));
        counts[field]!++;
      }
    });
    const ids = new Int32Array(tf.size);
    const totalsOf = new Uint16Array(tf.size);
    let i = 0;
    for (const [id, counts] of tf) {
      totalsOf[i] = Math.min(
        0xffff,
        counts.reduce((total, count) => total + count, 0),
      );
      ids[i++] = id;
      lists[id]!.push(
        slot,
        counts.reduce((packed, count, field) => packed | (Math.min(count, TF_MAX) << (field * TF_BITS)), 0),
      );
      dfs[id]!++;
    }
    docTerms[slot] = ids;
    docCounts[slot] = totalsOf;
    alive[slot] = 1;
    live++;
  };

  const remove = (slot: number) => {
    if (!alive[slot]) return;
    alive[slot] = 0;
    live--;
    for (let field = 0; field < fieldCount; field++) totals[field]! -= lengths[slot * fieldCount + field]!;
    for (const id of docTerms[slot] ?? []) dfs[id]!--;
    docTerms[slot] = undefined;
    docCounts[slot] = undefined;
  };

  const df = (term: string) => {
    const id = termIds.get(term);
    return id === undefined ? 0 : dfs[id]!;
  };

  const idf = (term: string) => {
    const docFreq = df(term);
    return Math.log(1 + (live - docFreq + 0.5) / (docFreq + 0.5));
  };

  const scan = (term: string, slots: Int32Array, sats: Float64Array): number => {
    const id = termIds.get(term);
    if (id === undefined || dfs[id] === 0) return 0;
    let matched = 0;
    const list = lists[id]!;
    const { weights, b, k1 } = params;
    const avg = Array.from(totals, (total) => (live > 0 && total > 0 ? total / live : 1));
    for (let i = 0; i < list.length; i += stride) {
      const slot = list[i]!;
      if (!alive[slot]) continue;
      let tfw = 0;
      const packed = list[i + 1]!;
      for (let field = 0; field < fieldCount; field++) {
        const tf = tfOf(packed, field);
        if (tf === 0) continue;
        const norm = 1 - b[field]! + (b[field]! * lengths[slot * fieldCount + field]!) / avg[field]!;
        tfw += (weights[field]! * tf) / norm;
      }
      slots[matched] = slot;
      sats[matched++] = tfw / (tfw + k1);
    }
    return matched;
  };

  const inField = (term: string, slot: number, field: number) => {
    const id = termIds.get(term);
    if (id === undefined || !alive[slot]) return false;
    const list = lists[id]!;
    // Entries are in slot order (slots only grow between compactions): binary search.
    let lo = 0;
    let hi = list.length / stride - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const midSlot = list[mid * stride]!;
      if (midSlot === slot) return tfOf(list[mid * stride + 1]!, field) > 0;
      if (midSlot < slot) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  };

  const vocabulary = () => terms.filter((_, id) => dfs[id]! > 0);

  const termsOf = (slot: number) => {
    const ids = alive[slot] ? docTerms[slot] : undefined;
    if (!ids) return { terms: [], counts: new Uint16Array(0), length: 0 };
    let length = 0;
    for (let field = 0; field < fieldCount; field++) length += lengths[slot * fieldCount + field]!;
    return { terms: Array.from(ids, (id) => terms[id]!), counts: docCounts[slot]!, length };
  };

  const compact = (remap: Int32Array) => {
    for (let id = 0; id < lists.length; id++) {
      const list = lists[id]!;
      const kept: number[] = [];
      for (let i = 0; i < list.length; i += stride) {
        const to = remap[list[i]!] ?? -1;
        if (to < 0 || !alive[list[i]!]) continue;
        kept.push(to, list[i + 1]!);
      }
      lists[id] = kept;
    }
    let size = 0;
    for (const to of remap) size = Math.max(size, to + 1);
    const nextLengths = new Float64Array(Math.max(size, 64) * fieldCount);
    const nextAlive = new Uint8Array(Math.max(size, 64));
    const nextDocTerms: (Int32Array | undefined)[] = [];
    const nextDocCounts: (Uint16Array | undefined)[] = [];
    remap.forEach((to, from) => {
      if (to < 0 || !alive[from]) return;
      nextLengths.set(lengths.subarray(from * fieldCount, (from + 1) * fieldCount), to * fieldCount);
      nextAlive[to] = 1;
      nextDocTerms[to] = docTerms[from];
      nextDocCounts[to] = docCounts[from];
    });
    lengths = nextLengths;
    alive = nextAlive;
    docTerms = nextDocTerms;
    docCounts = nextDocCounts;
  };

  return {
    get size() {
      return live;
    },
    add,
    remove,
    df,
    idf,
    scan,
    inField,
    vocabulary,
    termsOf,
    compact,
  };
}
