import { withinTextBudget } from '@convo/text';
import { hasJapanese, type SessionLanguage } from '../nlu/text.js';
import { findInconsistencies, type ConsistencyFact } from './consistency.js';
import { askingSentences, bindingKeyword, bindingKeywords } from './field-terms.js';
import { describeToneIssue, findToneIssues } from './tone.js';
import { describeTopic, findTopicMentions, MASK, maskTopics, type ProhibitedTopic, type TopicMention } from './topics.js';

/** What the auditor reads: the interview proper (docs/seeds/001, Auditor). */
export type AuditInput = {
  language: 'ja' | 'en';
  messages: Array<{ role: 'user' | 'assistant'; text: string; fieldId: string | null }>;
  fields: Array<{
    fieldId: string;
    label: string;
    intent: string | null;
    required: boolean;
    status: string;
    value: string | null;
    needsReview?: boolean;
  }>;
  /** Facts belong to a field by `fieldId` or, when it names a field's fieldId, `formFieldId`. */
  facts: Array<ConsistencyFact>;
  topics: readonly ProhibitedTopic[];
  /** "Today" for the start-date rule; defaults to now. */
  now?: Date;
};

export type AuditViolation = { type: string; message: string; severity: 'error' | 'warning' };

/** The seed's AuditResultSchema. */
export type AuditResult = { passed: boolean; violations: AuditViolation[]; summary: string };

type Field = AuditInput['fields'][number];

/**
 * The offline audit of a finished interview. Messages are numbered from 1 in
 * the violations. Applicant values quoted in an assistant message (the
 * closing summary) are the applicant's words and are judged as values, not
 * as the interviewer's.
 *
 * - `prohibited_topic`: an assistant message mentioning a topic is an error;
 *   an applicant message or a stored value mentioning one is a warning,
 *   which names the topic but never repeats what was said.
 * - `over_collection` (warning): an assistant sentence that asks for
 *   something while bound to no field, or sharing no keyword with any
 *   field's label, intent or facts.
 * - `rude_expression` (error): a tone problem in an assistant message.
 * - `inconsistency` (warning): see consistency.ts.
 * - `missing_required` (error): a required field whose status is not done.
 *
 * `passed` is true when there is no error. The summary lists every field
 * with its value masked by {@link maskCollectedValue}, then the counts.
 */
export function auditTranscript(input: AuditInput): AuditResult {
  return withinTextBudget(() => audit(input));
}

function audit(input: AuditInput): AuditResult {
  const values = input.fields.map((field) => field.value).filter((value): value is string => value !== null && value.trim().length > 0);
  const violations: AuditViolation[] = [
    ...topicViolations(input, values),
    ...overCollection(input, values),
    ...rudeExpressions(input, values),
    ...findInconsistencies({ ...input, now: input.now ?? new Date() }).map((message): AuditViolation => ({
      type: 'inconsistency',
      message,
      severity: 'warning',
    })),
    ...missingRequired(input.fields),
    ...keptForReview(input.fields),
  ];
  return { passed: !violations.some((violation) => violation.severity === 'error'), violations, summary: summaryOf(input, violations) };
}

/**
 * A field value made safe to store: clauses about a prohibited topic masked;
 * null when nothing else is left ("I am Catholic" → null, masked).
 */
export function maskCollectedValue(
  value: string | null,
  topics: readonly ProhibitedTopic[],
  language?: SessionLanguage,
): { value: string | null; masked: boolean } {
  if (value === null) return { value: null, masked: false };
  const lang = language ?? (hasJapanese(value) ? 'ja' : 'en');
  const masked = maskTopics(value, topics, lang);
  if (masked === value) return { value, masked: false };
  const rest = masked
    .split(MASK[lang])
    .join('')
    .replace(/[\s\p{P}\p{S}]+/gu, '');
  return { value: rest.length === 0 ? null : masked, masked: true };
}

/** The text with the applicant's values blanked out, positions kept. */
function withoutValues(text: string, values: readonly string[]): string {
  let out = text;
  const pieces = values
    .flatMap((value) => [value, ...value.split('\n')])
    .map((piece) => piece.trim())
    .filter((piece) => piece.length >= 2);
  for (const piece of [...new Set(pieces)].sort((a, b) => b.length - a.length)) out = out.split(piece).join(' '.repeat(piece.length));
  return out;
}

function byTopic(mentions: readonly TopicMention[]): Map<string, TopicMention[]> {
  const out = new Map<string, TopicMention[]>();
  for (const mention of mentions) out.set(mention.topicId, [...(out.get(mention.topicId) ?? []), mention]);
  return out;
}

function topicViolations(input: AuditInput, values: readonly string[]): AuditViolation[] {
  const topics = new Map(input.topics.map((topic) => [topic.id, topic]));
  const name = (id: string) => {
    const topic = topics.get(id);
    return topic ? describeTopic(topic) : `"${id}"`;
  };
  const out: AuditViolation[] = [];
  input.messages.forEach((message, i) => {
    const ordinal = i + 1;
    if (message.role === 'assistant') {
      const text = withoutValues(message.text, values);
      for (const [id, hits] of byTopic(findTopicMentions(text, input.topics))) {
        const quoted = [...new Set(hits.map((hit) => `"${message.text.slice(hit.start, hit.end)}"`))].join(', ');
        out.push({
          type: 'prohibited_topic',
          severity: 'error',
          message: `the interviewer asked about prohibited topic ${name(id)} in message #${ordinal}: ${quoted}`,
        });
      }
    } else {
      for (const id of byTopic(findTopicMentions(message.text, input.topics)).keys()) {
        out.push({
          type: 'prohibited_topic',
          severity: 'warning',
          message: `the applicant volunteered information about ${name(id)} in message #${ordinal}; it was not stored`,
        });
      }
    }
  });
  for (const field of input.fields) {
    if (field.value === null) continue;
    for (const id of byTopic(findTopicMentions(field.value, input.topics)).keys()) {
      out.push({
        type: 'prohibited_topic',
        severity: 'warning',
        message: `the stored value of "${field.label}" (${field.fieldId}) mentions ${name(id)}; it is masked in the summary`,
      });
    }
  }
  return out;
}

function overCollection(input: AuditInput, values: readonly string[]): AuditViolation[] {
  const known = new Set(input.fields.map((field) => field.fieldId));
  const keywords = bindingKeywords(
    [...input.fields.flatMap((field) => [field.label, field.intent ?? '']), ...input.facts.map((fact) => fact.fact)].filter(Boolean),
  );
  const out: AuditViolation[] = [];
  input.messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const asking = askingSentences(withoutValues(message.text, values))
      .map((sentence) => sentence.trim())
      .filter((sentence) => sentence.length > 0);
    if (asking.length === 0) return;
    const quoted = clip(asking.join(' '));
    if (message.fieldId === null || !known.has(message.fieldId)) {
      const why =
        message.fieldId === null ? 'is bound to no form field' : `is bound to "${message.fieldId}", which is not a field of the form`;
      out.push({ type: 'over_collection', severity: 'warning', message: `message #${i + 1} asks "${quoted}" but ${why}` });
      return;
    }
    for (const sentence of asking) {
      if (keywords.length > 0 && bindingKeyword(sentence, keywords) === null) {
        out.push({
          type: 'over_collection',
          severity: 'warning',
          message: `message #${i + 1} asks "${clip(sentence)}", which no form field needs`,
        });
      }
    }
  });
  return out;
}

function rudeExpressions(input: AuditInput, values: readonly string[]): AuditViolation[] {
  const out: AuditViolation[] = [];
  input.messages.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    for (const issue of findToneIssues(withoutValues(message.text, values))) {
      out.push({ type: 'rude_expression', severity: 'error', message: `message #${i + 1}: ${describeToneIssue(issue)}` });
    }
  });
  return out;
}

/** Required answers the applicant could not give within the bounded follow-ups: kept as given, for a person to check. */
function keptForReview(fields: readonly Field[]): AuditViolation[] {
  return fields
    .filter((field) => field.needsReview)
    .map((field) => ({
      type: 'needs_review',
      severity: 'warning' as const,
      message: `"${field.label}" (${field.fieldId}) was kept as the applicant gave it after the last follow-up; check it with them`,
    }));
}

function missingRequired(fields: readonly Field[]): AuditViolation[] {
  return fields
    .filter((field) => field.required && field.status !== 'done')
    .map((field) => ({
      type: 'missing_required',
      severity: 'error' as const,
      message: `required field "${field.label}" (${field.fieldId}) is not done (status: ${field.status})`,
    }));
}

const SUMMARY_TEXT = {
  en: {
    title: 'Application summary',
    skipped: '(skipped)',
    empty: '(not answered)',
    warnings: (count: number) => `Warnings: ${count}`,
    errors: (count: number) => `Errors: ${count}`,
  },
  ja: {
    title: '応募内容の要約',
    skipped: '（スキップ）',
    empty: '（未回答）',
    warnings: (count: number) => `警告：${count}件`,
    errors: (count: number) => `エラー：${count}件`,
  },
} as const;

function summaryOf(input: AuditInput, violations: readonly AuditViolation[]): string {
  const labels = SUMMARY_TEXT[input.language];
  const rows = input.fields.map((field) => {
    const safe = maskCollectedValue(field.value, input.topics, input.language);
    const shown =
      safe.value !== null
        ? safe.value.replace(/(?<!\s)\s*\n\s*/g, ' / ')
        : safe.masked
          ? MASK[input.language]
          : field.status === 'skipped'
            ? labels.skipped
            : labels.empty;
    // A label may itself name a topic (a form asking "Marital status"): the summary carries none.
    const label = maskTopics(field.label, input.topics, input.language);
    return input.language === 'ja' ? `・${label}：${shown}` : `• ${label}: ${shown}`;
  });
  const warnings = violations.filter((violation) => violation.severity === 'warning').length;
  const errors = violations.length - warnings;
  const counts = errors > 0 ? [labels.warnings(warnings), labels.errors(errors)] : [labels.warnings(warnings)];
  return [labels.title, ...rows, counts.join(input.language === 'ja' ? '、' : ', ')].join('\n');
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}
