// The shapes the topic lists (MHLW, EEOC) and the matcher in topics.ts share; a file of its own so the lists need not import the matcher.

/** Who lists a topic: Japan's MHLW fair-recruitment guidance, the US EEOC, or the form itself. */
export type TopicSource = 'mhlw' | 'eeoc' | 'form';

/**
 * A subject an interviewer must not ask about, with the patterns that find it
 * in English and Japanese text. English patterns should match whole words;
 * Japanese ones match anywhere. Patterns are cloned before use, so their
 * `lastIndex` is never shared.
 */
export type ProhibitedTopic = {
  id: string;
  label: { en: string; ja: string };
  source: TopicSource;
  /** Other lists naming the same topic (religion is on both MHLW's and the EEOC's). */
  alsoListedBy?: readonly TopicSource[];
  /** Names a form's `compliance.prohibitedTopics` may use for this topic ("家族", "family background"). */
  aliases?: readonly string[];
  patterns: { en: readonly RegExp[]; ja: readonly RegExp[] };
};

/** One place a topic is mentioned; `start`/`end` index the original text, `match` is that slice. */
export type TopicMention = { topicId: string; label: { en: string; ja: string }; match: string; start: number; end: number };
