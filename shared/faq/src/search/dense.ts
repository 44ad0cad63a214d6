/**
 * The dense side of hybrid FAQ retrieval: unit-length embedding vectors in
 * one contiguous Float32Array, searched by brute-force cosine (a dot product,
 * since every row is normalised). An FAQ corpus is at most tens of thousands
 * of entries, where a full scan takes milliseconds and needs no ANN index
 * that would have to be rebuilt as documents change.
 */

/** Scales `v` to unit length in place and returns it; a zero vector stays zero (it is similar to nothing). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

/** True when every component is a finite number: a NaN from a broken server would poison every dot product. */
export function isFiniteVector(vector: ArrayLike<number>): boolean {
  for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i])) return false;
  return vector.length > 0;
}

/** Little-endian float32 as base64: a quarter of the JSON-number size, and the byte order OpenAI's own base64 uses. */
export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

/** The inverse of `encodeVector`; null for text that is not a whole number of float32s. */
export function decodeVector(text: string): Float32Array | null {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length === 0 || bytes.length % 4 !== 0) return null;
  const vector = new Float32Array(bytes.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = bytes.readFloatLE(i * 4);
  return vector;
}

export type DenseHit = { id: string; similarity: number };

/**
 * Document vectors by id, rows packed at the front of one matrix: a removal
 * moves the last row into the hole, so a scan never skips gaps. All vectors
 * have one dimension, fixed by the first one stored (reset when the index
 * empties); `set` refuses others.
 */
export class DenseIndex {
  private matrix = new Float32Array(0);
  private dim = 0;
  private readonly ids: string[] = [];
  private readonly rows = new Map<string, number>();

  get size(): number {
    return this.ids.length;
  }

  /** The vectors' dimension; undefined while the index is empty. */
  get dimensions(): number | undefined {
    return this.ids.length > 0 ? this.dim : undefined;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  /** Stores a copy of `vector`, normalised; false (and nothing stored) when its dimension differs from the index's. */
  set(id: string, vector: Float32Array): boolean {
    if (this.ids.length === 0) this.dim = vector.length;
    if (vector.length !== this.dim || vector.length === 0) return false;
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.grow(row + 1);
      this.ids.push(id);
      this.rows.set(id, row);
    }
    const target = this.matrix.subarray(row * this.dim, (row + 1) * this.dim);
    target.set(vector);
    normalize(target);
    return true;
  }

  remove(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      const moved = this.ids[last]!;
      this.matrix.copyWithin(row * this.dim, last * this.dim, (last + 1) * this.dim);
      this.ids[row] = moved;
      this.rows.set(moved, row);
    }
    this.ids.pop();
    this.rows.delete(id);
  }

  /**
   * The `limit` rows most similar to `query` (cosine), best first, equal
   * similarities by id; only those at or above `minSimilarity`. Empty when
   * the query's dimension is not the index's.
   */
  search(query: Float32Array, limit: number, minSimilarity = -Infinity): DenseHit[] {
    const dim = this.dim;
    if (limit <= 0 || this.ids.length === 0 || query.length !== dim) return [];
    const unitQuery = normalize(Float32Array.from(query));
    const top: DenseHit[] = [];
    for (let row = 0; row < this.ids.length; row++) {
      const base = row * dim;
      let dot = 0;
      for (let i = 0; i < dim; i++) dot += this.matrix[base + i]! * unitQuery[i]!;
      if (dot < minSimilarity) continue;
      if (top.length === limit && dot <= top[limit - 1]!.similarity) continue;
      insertSorted(top, { id: this.ids[row]!, similarity: dot }, limit);
    }
    return top;
  }

  /** Capacity doubles, so adding documents one by one stays linear overall. */
  private grow(rowsNeeded: number): void {
    if (rowsNeeded * this.dim <= this.matrix.length) return;
    const next = new Float32Array(Math.max(rowsNeeded, this.ids.length * 2, 16) * this.dim);
    next.set(this.matrix.subarray(0, this.ids.length * this.dim));
    this.matrix = next;
  }
}

/** Keeps `top` sorted (similarity descending, then id) and at most `limit` long. */
function insertSorted(top: DenseHit[], hit: DenseHit, limit: number): void {
  let i = top.length;
  while (i > 0 && before(hit, top[i - 1]!)) i--;
  top.splice(i, 0, hit);
  if (top.length > limit) top.pop();
}

function before(a: DenseHit, b: DenseHit): boolean {
  return a.similarity > b.similarity || (a.similarity === b.similarity && a.id < b.id);
}
