import { escapeRegExp, hasJapanese, type SessionLanguage } from '../nlu/text.js';
import { clauseSpans } from './clauses.js';
import { DEFAULT_HIRING_TOPICS } from './hiring-topics.js';
import { normalizeWithMap, originalSpan } from './text-map.js';
import type { ProhibitedTopic, TopicMention, TopicSource } from './topic-types.js';

export type { ProhibitedTopic, TopicMention, TopicSource } from './topic-types.js';

export { DEFAULT_HIRING_TOPICS } from './hiring-topics.js';

/** The text that replaces a masked clause. */
export const MASK: Readonly<Record<SessionLanguage, string>> = { ja: '［非開示］', en: '[redacted]' };

const SOURCE_NAME: Readonly<Record<TopicSource, string>> = { mhlw: 'MHLW', eeoc: 'EEOC', form: 'form' };

/** `"marital status" (EEOC)`, `"religion" (MHLW, EEOC)`: how violation messages name a topic. */
export function describeTopic(topic: Pick<ProhibitedTopic, 'label' | 'source' | 'alsoListedBy'>): string {
  const sources = [topic.source, ...(topic.alsoListedBy ?? [])].map((source) => SOURCE_NAME[source]);
  return `"${topic.label.en}" (${sources.join(', ')})`;
}

/** The built-in topics as remote models read them in the checker's and auditor's prompts: both languages, with their sources. */
export const HIRING_TOPIC_LIST: string = DEFAULT_HIRING_TOPICS.map((topic) => `${describeTopic(topic)} / ${topic.label.ja}`).join('; ');

/**
 * The built-in topics plus the form's own `compliance.prohibitedTopics`. An
 * entry that names a built-in topic — by id, English or Japanese label, or an
 * alias ("religion", "family", "birthplace", "宗教", "家族", "本籍") — adds
 * nothing; any other entry becomes a literal keyword topic (source `form`):
 * whole words for Latin text (a plural "s"/"es" allowed), a substring for
 * Japanese. Entries are deduplicated.
 */
export function resolveTopics(formTopics: readonly string[] | undefined): ProhibitedTopic[] {
  const topics = [...DEFAULT_HIRING_TOPICS];
  const known = new Set<string>();
  for (const topic of topics) for (const name of namesOf(topic)) known.add(nameKey(name));
  for (const entry of formTopics ?? []) {
    const trimmed = entry.normalize('NFKC').trim();
    const key = nameKey(trimmed);
    if (!key || known.has(key)) continue;
    known.add(key);
    topics.push(literalTopic(trimmed));
  }
  return topics;
}

function namesOf(topic: ProhibitedTopic): string[] {
  return [topic.id, topic.label.en, topic.label.ja, ...(topic.aliases ?? [])];
}

/** Case, width, spacing and separators do not tell names apart ("Marital_status" = "marital status"). */
function nameKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_\-・/、,.]+/g, '');
}

function literalTopic(entry: string): ProhibitedTopic {
  const words = entry
    .split(/\s+/)
    .map(escapeRegExp)
    .join(String.raw`\s+`);
  const pattern = hasJapanese(entry)
    ? new RegExp(words, 'gi')
    : new RegExp(String.raw`(?<![\p{L}\p{N}])${words}(?:e?s)?(?![\p{L}\p{N}])`, 'giu');
  return {
    id: `form:${entry}`,
    label: { en: entry, ja: entry },
    source: 'form',
    patterns: hasJapanese(entry) ? { en: [], ja: [pattern] } : { en: [pattern], ja: [] },
  };
}

const globalCopies = new WeakMap<RegExp, RegExp>();

/** A private global copy of a pattern: callers' patterns may lack the g flag, and lastIndex must not leak. */
function globalCopy(pattern: RegExp): RegExp {
  let copy = globalCopies.get(pattern);
  if (!copy) {
    copy = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    globalCopies.set(pattern, copy);
  }
  copy.lastIndex = 0;
  return copy;
}

/**
 * Every mention of a topic, in text order. Matching runs on the NFKC form
 * (full-width "ｒｅｌｉｇｉｏｎ" is "religion"), positions refer to the
 * original. Overlapping hits of one topic count once; two topics may share
 * words ("家族の病歴" is family and genetic information).
 */
export function findTopicMentions(text: string, topics: readonly ProhibitedTopic[]): TopicMention[] {
  const mapped = normalizeWithMap(text);
  const out: TopicMention[] = [];
  for (const topic of topics) {
    const spans: Array<{ start: number; end: number }> = [];
    for (const pattern of [...topic.patterns.en, ...topic.patterns.ja]) {
      for (const match of mapped.text.matchAll(globalCopy(pattern))) {
        if (match[0].length === 0) continue;
        spans.push(originalSpan(mapped, match.index, match.index + match[0].length));
      }
    }
    for (const span of mergeOverlapping(spans)) {
      out.push({ topicId: topic.id, label: topic.label, match: text.slice(span.start, span.end), start: span.start, end: span.end });
    }
  }
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

function mergeOverlapping(spans: Array<{ start: number; end: number }>): Array<{ start: number; end: number }> {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Array<{ start: number; end: number }> = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/**
 * The text with every clause that mentions a topic replaced by a mask, so
 * the rest survives: "I go to church every Sunday, and I have 5 years of Go
 * experience" → "[redacted], and I have 5 years of Go experience". Clauses
 * end at sentence punctuation, commas, semicolons and colons (ASCII ones
 * only before a space, so "1,000" and "jane.doe@example.com" hold), and
 * before "and"/"but"/"because"… when a new subject follows ("…married and I
 * have…"). Neighbouring masked clauses become one mask.
 *
 * @param language picks the mask, `［非開示］` or `[redacted]`; by default the
 *   text's own script decides.
 * @param mask replaces the language's mask when given.
 */
export function maskTopics(text: string, topics: readonly ProhibitedTopic[], language?: SessionLanguage, mask?: string): string {
  const mentions = findTopicMentions(text, topics);
  if (mentions.length === 0) return text;
  const token = mask ?? MASK[language ?? (hasJapanese(text) ? 'ja' : 'en')];
  const clauses = clauseSpans(text);
  const masked = clauses.map((clause) => mentions.some((mention) => mention.start < clause.end && mention.end > clause.start));
  let out = '';
  let cursor = 0;
  clauses.forEach((clause, i) => {
    const previousMasked = i > 0 && masked[i - 1] === true;
    // The separator between two masked clauses goes with them: one mask, not "[redacted], [redacted]".
    if (!(masked[i] && previousMasked)) out += text.slice(cursor, clause.start);
    if (masked[i]) {
      if (!previousMasked) out += token;
    } else {
      out += text.slice(clause.start, clause.end);
    }
    cursor = clause.end;
  });
  return out + text.slice(cursor);
}
