import type { FaqDocument, SearchHit } from '@convo/contract';
import type { FaqSearchIndex } from './types.js';

/**
 * Documents by slot number, the key every posting list and per-document array
 * of an index uses. Replacing a document gives it a fresh slot and leaves the
 * old one dead; once dead slots outnumber live ones, `compact` renumbers the
 * live ones densely and hands back the mapping so each structure can follow.
 */
export interface DocSlots {
  readonly size: number;
  /** One past the highest slot ever handed out since the last compaction. */
  readonly end: number;
  get(id: string): FaqDocument | undefined;
  slotOf(id: string): number | undefined;
  doc(slot: number): FaqDocument | undefined;
  /** Stores `doc` at a new slot; returns it and the slot the same id had before, if any. */
  put(doc: FaqDocument): { slot: number; previous: number | undefined };
  drop(id: string): number | undefined;
  /** `remap[old]` = new slot or −1, when enough slots are dead to be worth it; else undefined. */
  compact(): Int32Array | undefined;
}

export function createDocSlots(): DocSlots {
  let docs: (FaqDocument | undefined)[] = [];
  let slotById = new Map<string, number>();
  let dead = 0;

  const put = (doc: FaqDocument) => {
    const previous = slotById.get(doc.id);
    if (previous !== undefined) {
      docs[previous] = undefined;
      dead++;
    }
    const slot = docs.length;
    docs.push(doc);
    slotById.set(doc.id, slot);
    return { slot, previous };
  };

  const drop = (id: string) => {
    const slot = slotById.get(id);
    if (slot === undefined) return undefined;
    slotById.delete(id);
    docs[slot] = undefined;
    dead++;
    return slot;
  };

  const compact = () => {
    if (dead < 256 || dead < slotById.size) return undefined;
    const remap = new Int32Array(docs.length).fill(-1);
    const nextDocs: FaqDocument[] = [];
    const nextIds = new Map<string, number>();
    docs.forEach((doc, slot) => {
      if (!doc) return;
      remap[slot] = nextDocs.length;
      nextIds.set(doc.id, nextDocs.length);
      nextDocs.push(doc);
    });
    docs = nextDocs;
    slotById = nextIds;
    dead = 0;
    return remap;
  };

  return {
    get size() {
      return slotById.size;
    },
    get end() {
      return docs.length;
    },
    get: (id) => {
      const slot = slotById.get(id);
      return slot === undefined ? undefined : docs[slot];
    },
    slotOf: (id) => slotById.get(id),
    doc: (slot) => docs[slot],
    put,
    drop,
    compact,
  };
}

/** Same stored content: re-indexing it would change nothing. */
export function sameDocument(a: FaqDocument, b: FaqDocument): boolean {
  return (
    a.question === b.question &&
    a.answer === b.answer &&
    a.language === b.language &&
    a.tags.length === b.tags.length &&
    a.tags.every((t, i) => t === b.tags[i])
  );
}

/** A search hit for a stored document (tags copied: hits leave the index). */
export function toHit(doc: FaqDocument, score: number): SearchHit {
  return { id: doc.id, question: doc.question, answer: doc.answer, score, tags: [...doc.tags], language: doc.language };
}

/** The FaqSearchIndex interface over an index's slots and its own update and search functions. */
export function indexOver(
  slots: DocSlots,
  ops: Pick<
    FaqSearchIndex,
    'upsert' | 'prepare' | 'upsertPrepared' | 'remove' | 'search' | 'expansions' | 'confidence' | 'evidence' | 'calibrate'
  >,
): FaqSearchIndex {
  return {
    get size() {
      return slots.size;
    },
    ...ops,
    has: (id) => slots.get(id) !== undefined,
    get: (id) => slots.get(id),
  };
}
