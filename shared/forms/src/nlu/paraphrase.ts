import { checkTextBudget, wordNet, type SynsetRef } from '@convo/text';
import { ENGLISH_COMMON_WORDS, ENGLISH_VAGUE_WORDS } from './english-words.js';

/**
 * An English option named by what it means rather than by its words: "I had
 * the flu" for *Illness*, "swap it" for *Exchange*. A reply word names an
 * option when, in WordNet, one of the word's commonest senses is a sense of a
 * word distinctive to that option (a synonym) or is a kind of one within a few
 * steps ("flu" → influenza → contagious disease → … → illness). The reading is
 * a paraphrase, so the caller treats it as loose (the value is confirmed with
 * the respondent before it is stored); this only decides which option to
 * propose, and proposes none when two options are as near.
 */
export function paraphrasePicks(reply: string, options: readonly string[], ignored: ReadonlySet<string> = new Set()): string[] {
  if (options.length < 2 || !options.every((option) => /\p{Script=Latin}/u.test(option))) return [];
  const replyTerms = termsOf(reply).filter((term) => !ignored.has(term));
  if (replyTerms.length === 0 || replyTerms.length > MAX_REPLY_TERMS) return [];
  const optionTerms = options.map((option) => termsOf(option));
  // A word several options share ("repair" in every "… repair") tells them apart no better than a word of none.
  const shared = new Set(optionTerms.flat().filter((term, _, all) => all.indexOf(term) !== all.lastIndexOf(term)));
  const targets = optionTerms.map(
    (terms) => new Set(terms.filter((term) => !shared.has(term)).flatMap((term) => sensesOf(term, OPTION_SENSES))),
  );
  const reached = closure(replyTerms);
  const distance = targets.map((senses) => Math.min(...[...senses].map((id) => reached.get(id) ?? Infinity)));
  const best = Math.min(...distance);
  if (!Number.isFinite(best)) return [];
  return options.filter((_, i) => distance[i] === best);
}

/** Reply words beyond this are a story, not a name for an option; reading them would pick by chance. */
const MAX_REPLY_TERMS = 24;
/** Senses a reply word is read in: its commonest ones (WordNet orders them by frequency in its tagged corpus). */
const REPLY_SENSES = 2;
/** Senses of an option's word it may be meant in: an option's word is short and its sense is the form's to choose. */
const OPTION_SENSES = 4;
/** Steps up from a reply word's sense to a more general one: "flu" reaches "illness" in five. */
const MAX_STEPS = 6;
/**
 * How deep below WordNet's root a sense reached by generalising must lie: above
 * it are senses like "state", "act" and "object", of which nearly every word is
 * a kind. A synonym (no step up) needs no depth.
 */
const MIN_DEPTH = 5;

type Id = string;
const idOf = (ref: SynsetRef): Id => `${ref.pos}:${ref.offset}`;

/** Content words and adjacent pairs ("flat tire"), lower case; WordNet joins a compound's words with a space. */
function termsOf(text: string): string[] {
  // A contraction ("don't") is grammar, and its pieces ("don") are other words.
  const words = (
    text
      .toLowerCase()
      .replace(/’/g, "'")
      .match(/[a-z]+(?:['-][a-z]+)*/g) ?? []
  )
    .filter((word) => !word.includes("'"))
    .map((word) => word.replace(/-/g, ' '));
  const content = words.filter((word) => word.length >= 3 && !ENGLISH_COMMON_WORDS.has(word) && !ENGLISH_VAGUE_WORDS.has(word));
  const pairs = words.slice(1).map((word, i) => `${words[i]} ${word}`);
  return [...new Set([...content, ...pairs])];
}

function sensesOf(term: string, limit: number): Id[] {
  const wn = wordNet();
  return (['noun', 'verb', 'adj'] as const).flatMap((pos) => wn.senses(term, pos, limit).map(idOf));
}

/** Every sense the reply's words reach, with the fewest steps up it took; a sense reached by a step must be specific. */
function closure(terms: readonly string[]): Map<Id, number> {
  const wn = wordNet();
  const reached = new Map<Id, number>();
  let frontier: SynsetRef[] = [];
  for (const term of terms)
    for (const pos of ['noun', 'verb', 'adj'] as const)
      for (const ref of wn.senses(term, pos, REPLY_SENSES)) {
        if (!reached.has(idOf(ref))) frontier.push(ref);
        reached.set(idOf(ref), 0);
      }
  // One step sideways, once: an adjective's cluster ("broken" ~ "damaged") or the same idea in another part of speech
  // ("arrival" ~ "arrive").
  for (const ref of [...frontier])
    for (const side of wn.synset(ref).related) {
      if (reached.has(idOf(side))) continue;
      reached.set(idOf(side), 1);
      frontier.push(side);
    }
  for (let step = 1; step <= MAX_STEPS && frontier.length > 0; step++) {
    const next: SynsetRef[] = [];
    for (const ref of frontier) {
      checkTextBudget();
      for (const up of wn.synset(ref).hypernyms) {
        const id = idOf(up);
        if (reached.has(id) || !specific(up, step)) continue;
        reached.set(id, step);
        next.push(up);
      }
    }
    frontier = next;
  }
  return reached;
}

/**
 * Whether a sense reached `step` steps up still says something: a noun sense
 * must lie {@link MIN_DEPTH} below the root; verbs' hierarchies are shallow
 * (exchange → transfer → move), so a verb is only followed {@link VERB_STEPS}
 * steps and never to one of the top verbs ("change", "act", "move"), of which
 * most verbs are kinds.
 */
function specific(ref: SynsetRef, step: number): boolean {
  return ref.pos === 'verb' ? step <= VERB_STEPS && depthOf(ref) >= 1 : depthOf(ref) >= MIN_DEPTH;
}

const VERB_STEPS = 2;
const depths = new Map<Id, number>();

/** Steps from a sense up to WordNet's root along its first hypernyms (verbs' hierarchies are shallow: a verb is rarely deep). */
function depthOf(ref: SynsetRef): number {
  const id = idOf(ref);
  const known = depths.get(id);
  if (known !== undefined) return known;
  const wn = wordNet();
  let depth = 0;
  for (let at: SynsetRef | undefined = ref; at && depth < 40; depth++) at = wn.synset(at).hypernyms[0];
  depths.set(id, depth - 1);
  return depth - 1;
}

/**
 * A Japanese option named by a word that shares a kanji only that option has:
 * 「水漏れ」 for 「水濡れ」, 「台風の強風で」 for 「風災・雹災・雪災」. A kanji carries
 * meaning, so one the reply and exactly one option share is evidence for that
 * option; kanji several options share, and those of the question itself, are
 * not. Loose by nature: the caller confirms the reading before storing it.
 */
export function sharedCharacterPicks(reply: string, options: readonly string[], echo: readonly string[] = []): string[] {
  if (options.length < 2) return [];
  const kanjiOf = (text: string) => new Set(text.match(/\p{Script=Han}/gu) ?? []);
  const own = options.map(kanjiOf);
  // (The question's own kanji pick nothing, except those of the options it lists.)
  const asked = new Set([...kanjiOf(echo.join(' '))].filter((kanji) => !own.some((set) => set.has(kanji))));
  const said = kanjiOf(reply);
  const counts = new Map<string, number>();
  for (const set of own) for (const kanji of set) counts.set(kanji, (counts.get(kanji) ?? 0) + 1);
  return options.filter((_, i) => [...own[i]!].some((kanji) => counts.get(kanji) === 1 && !asked.has(kanji) && said.has(kanji)));
}
