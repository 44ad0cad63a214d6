import type { Problem } from '@convo/contract';

/**
 * What the worksheet generators share: the request they take, the problems they
 * return (the worksheet fills in id, worksheetId, index and version), and a
 * seeded random source, so one seed always gives the same worksheet.
 */

export type GeneratedProblem = Omit<Problem, 'id' | 'worksheetId' | 'index' | 'version'>;

export type GeneratorInput = {
  count: number;
  /** Records already on the sheet (recordKey): the written part asks about none of the multiple-choice part's numbers or words. */
  exclude?: ReadonlySet<string>;
  difficulty: 'easy' | 'normal' | 'hard';
  language: 'ja' | 'en';
  seed: string;
  type: 'multiple_choice' | 'written';
};

/** A 32-bit hash of a string (FNV-1a, then a murmur-style finaliser so close seeds spread apart). */
function hashSeed(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A deterministic source of numbers in [0, 1): mulberry32 seeded by a hash of `seed`. */
export function seededRandom(seed: string): () => number {
  let state = hashSeed(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export function randomInt(n: number, random: () => number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** A shuffled copy (Fisher–Yates). */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1, random);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The distractors shuffled with the correct answer at a random position, and where it went. */
export function placeAnswer<T>(correct: T, distractors: T[], random: () => number): { choices: T[]; correctIndex: number } {
  const choices = shuffle(distractors, random);
  const correctIndex = randomInt(distractors.length + 1, random);
  choices.splice(correctIndex, 0, correct);
  return { choices, correctIndex };
}

/** What a generated problem asks about, as one string: its generator and the inputs it printed (no variant). */
export function recordKey(source: { generator: string; params: Record<string, unknown> } | null | undefined): string {
  return source ? `${source.generator}:${JSON.stringify(source.params)}` : '';
}

/** A multiple-choice problem as every generator returns it (a written one has a model answer and a rubric instead). */
export function multipleChoice(
  problem: Pick<GeneratedProblem, 'prompt' | 'choices' | 'correctChoiceIndex' | 'explanation' | 'source'>,
): GeneratedProblem {
  return { type: 'multiple_choice', modelAnswer: null, rubric: null, ...problem };
}
