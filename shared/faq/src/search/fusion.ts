/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009): each
 * ranking gives a document weight / (k + rank), and the sums are ranked. It
 * needs only ranks, so the lexical engine's scores and the embeddings'
 * cosines, which live on unrelated scales, never have to be calibrated
 * against each other; k = 60 is the paper's value and the usual default.
 */

export type Ranking = {
  /** Document ids, best first; a repeated id counts at its first (best) rank only. */
  ids: readonly string[];
  /** Default 1. */
  weight?: number;
};

export type FusedHit = {
  id: string;
  /**
   * The fused score as a share of the best possible one (first in every
   * ranking = 1), so scores read the same whatever k and the weights are.
   */
  score: number;
};

/**
 * Fuses `rankings` into one, best first. Equal scores are ordered by the
 * better rank in the earliest ranking that has either document (pass the
 * most precise ranking first), then by id, so the order is deterministic.
 */
export function reciprocalRankFusion(rankings: readonly Ranking[], k = 60): FusedHit[] {
  if (!(k > 0)) throw new RangeError(`rrf k must be positive, got ${k}`);
  const scores = new Map<string, number>();
  const ranks = rankings.map((r) => firstRanks(r.ids));
  rankings.forEach((r, i) => {
    const weight = r.weight ?? 1;
    for (const [id, rank] of ranks[i]!) scores.set(id, (scores.get(id) ?? 0) + weight / (k + rank));
  });
  const best = rankings.reduce((sum, r) => sum + (r.weight ?? 1) / (k + 1), 0);
  const tieBreak = (a: string, b: string): number => {
    for (const byId of ranks) {
      const ra = byId.get(a) ?? Infinity;
      const rb = byId.get(b) ?? Infinity;
      if (ra !== rb) return ra - rb;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  };
  return [...scores]
    .sort(([a, sa], [b, sb]) => sb - sa || tieBreak(a, b))
    .map(([id, score]) => ({ id, score: best > 0 ? score / best : 0 }));
}

/** 1-based rank of each id at its first occurrence. */
function firstRanks(ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!out.has(id)) out.set(id, i + 1);
  });
  return out;
}

/**
 * The dense ranking restricted to the preferred language's documents, or
 * left whole when it has none. A multilingual embedding puts the other
 * language's translation of an entry right next to it, so without this a
 * Japanese query would pull the English twin of every good answer into the
 * fused list. Other-language entries still come through the lexical side
 * (which scores them ×0.5 rather than dropping them) and through the dense
 * side when nothing in the preferred language is similar enough (a
 * Japanese question to an English-only corpus).
 */
export function preferLanguage(ids: readonly string[], isPreferred: (id: string) => boolean): readonly string[] {
  const preferred = ids.filter(isPreferred);
  return preferred.length > 0 ? preferred : ids;
}
