import { answerSpec, type FactType } from '../nlu/fact-type.js';
import { candidateValue } from '../nlu/review-rules.js';
import { normalizeText, type SessionLanguage } from '../nlu/text.js';
import { extractDate, extractEmail, extractNumber, extractPhone, extractUrl } from '../nlu/typed-values.js';
import { extractPostalCode } from '../nlu/answer-values.js';
import { extractTime, extractYear } from '../nlu/time-values.js';
import type { FactDefinition, FormField } from '../schemas/form.js';
import type { SessionState } from '../schemas/session.js';
import { currentField, factsOf, formField } from './form-flow.js';

/**
 * Which field a respondent's message is about. By default the question that
 * was actually shown last (not the system's current field, which a failed
 * turn may have moved on without asking); a message that corrects an earlier,
 * resolved field ("Actually my email is …", 「さっきの電話番号は間違いで…」) goes
 * to that field, to be reviewed again.
 */
export type MessageRoute = { fieldId: string | null; correction: boolean };

export function routeUserMessage(state: SessionState, text: string, now: Date = new Date()): MessageRoute {
  if (!state.plan || state.currentAgent === 'greeter' || state.currentAgent === 'architect') return { fieldId: null, correction: false };
  const lastAsked = lastAskedFieldId(state);
  const corrected = correctedField(state, text, lastAsked, now);
  if (corrected) return { fieldId: corrected, correction: true };
  return { fieldId: lastAsked ?? currentField(state)?.field.fieldId ?? null, correction: false };
}

/** The field of the interviewer's latest message that belongs to a field (null once the closing message was sent). */
export function lastAskedFieldId(state: SessionState): string | null {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const m = state.messages[i];
    if (m?.role === 'assistant' && m.agent === 'interviewer') return m.fieldId;
  }
  return null;
}

// Words people use when they take something back; without one, a value of another field's kind is an answer, not a correction.
const MARKERS_EN = /\b(?:actually|correction|correct(?:ed|ion)?|sorry|i meant|i mean|wrong|mistake|mistyped|typo|instead|change|update|earlier|previous|before|not .{1,40} but|should be|should have been)\b/i;
const MARKERS_JA = /間違|訂正|正しくは|さっき|先ほど|先程|前に|やっぱり|やはり|変更|ではなく|じゃなく|修正|誤り|すみません/;

type FieldKinds = { field: FormField; kinds: Array<{ fact: FactDefinition; type: FactType; options: string[] }> };

function correctedField(state: SessionState, raw: string, lastAsked: string | null, now: Date): string | null {
  const text = normalizeText(raw);
  if (!MARKERS_EN.test(text) && !MARKERS_JA.test(text)) return null;
  const lang: SessionLanguage = state.bootstrap.language === 'ja' ? 'ja' : 'en';
  const resolved = state.fields.filter((f) => (f.status === 'done' || f.status === 'skipped') && f.fieldId !== lastAsked);
  const asked = lastAsked ? state.fields.find((f) => f.fieldId === lastAsked) : undefined;
  const askedOpen = asked && asked.status !== 'done' && asked.status !== 'skipped' ? kindsOf(state, asked.fieldId) : null;
  const scored: Array<{ fieldId: string; score: number }> = [];
  for (const f of resolved) {
    const fk = kindsOf(state, f.fieldId);
    if (!fk) continue;
    const named = mentionsLabel(text, fk.field.label);
    const value = fk.kinds.map((k) => valueOf(k.type, text, lang, state.bootstrap.country, now, k.options)).find((v) => v !== null) ?? null;
    const changed = value !== null && value !== f.value;
    // The open question takes a value of its own kind, unless the message names the earlier field.
    const openTakesIt = askedOpen?.kinds.some((k) => fk.kinds.some((o) => o.type === k.type)) ?? false;
    if (named && (changed || value === null)) scored.push({ fieldId: f.fieldId, score: changed ? 3 : 1 });
    else if (changed && !openTakesIt) scored.push({ fieldId: f.fieldId, score: 2 });
  }
  scored.sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || (second && second.score === best.score)) return null;
  return best.fieldId;
}

function kindsOf(state: SessionState, fieldId: string): FieldKinds | null {
  const field = formField(state, fieldId);
  if (!field) return null;
  const facts = factsOf(state, field);
  const list = facts.length > 0 ? facts : [{ id: field.id, formFieldId: field.id, factKey: field.fieldId, fact: field.label, doneCriteria: field.intent ?? '', questioningHints: null }];
  const kinds = list.map((fact) => ({ fact, ...answerSpec(fact, field, { fieldContext: list.length === 1 }) })).filter((k) => k.type !== 'text' && k.type !== 'yes_no');
  return { field, kinds };
}

function valueOf(type: FactType, text: string, language: SessionLanguage, country: string | null, now: Date, options: string[]): string | null {
  switch (type) {
    case 'email':
      return extractEmail(text).value;
    case 'phone':
      return extractPhone(text, country ?? (language === 'ja' ? 'JP' : null)).value;
    case 'url':
      return extractUrl(text).value;
    case 'postal_code':
      return extractPostalCode(text, country).value;
    case 'date':
      return extractDate(text, { language, now, requireYear: false }).value;
    case 'time':
      return extractTime(text, { language, now }).value;
    case 'year':
      return extractYear(text, { language, now }).value;
    case 'number':
      return extractNumber(text).value;
    case 'choice':
      return candidateValue({ type, options, texts: [] }, [text], { language, country, now });
    default:
      return null;
  }
}

/** Whether the message names the field ("email", 「電話番号」): a content word of its label, or a kanji/katakana run of it. */
function mentionsLabel(text: string, label: string): boolean {
  const t = text.toLowerCase();
  const words = (label.toLowerCase().match(/\p{Script=Latin}{4,}/gu) ?? []).filter((w) => !['your', 'what', 'which', 'address', 'number'].includes(w));
  if (words.some((w) => new RegExp(`\\b${w.slice(0, Math.max(4, w.length - 2))}`, 'i').test(t))) return true;
  const runs = label.match(/[\p{Script=Han}\p{Script=Katakana}ー]{2,}/gu) ?? [];
  return runs.some((r) => t.includes(r) || (r.length >= 4 && t.includes(r.slice(0, 2)) && t.includes(r.slice(-2))));
}
