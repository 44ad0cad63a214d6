import nlp from 'compromise';
import { LRUCache } from 'lru-cache';
import {
  answerSpec,
  type AnswerSpec,
  countryName,
  endsInPlainVerb,
  type FactType,
  hasJapanese,
  KIND_NAME,
  type MissingFact,
  type MissingReason,
  optionInLanguage,
  type ReviewNotice,
  shownReading,
  type SessionLanguage,
} from '@convo/forms';
import type { FactDefinition, FormField } from '@convo/contract';

/**
 * What the offline interviewer says: the question for a field, follow-ups on
 * what the reviewer found missing, and the closing summary. Every sentence is
 * built by a small, visible rule from the form's own words (labels, intents,
 * facts, hints), so what is said can always be traced back to the form:
 *
 * - the label becomes one conversational question ("Email address" → "Could
 *   you tell me your email address?", "What you hope to get out of it" →
 *   "Could you tell me what you hope to get out of it?"; a label that is
 *   already a question is asked as it is);
 * - the intent and the hints become one line of context ("We'll use it to
 *   reserve enough seats. Please include yourself.");
 * - facts are named only when a field has several, in one sentence;
 * - facts are written for reviewers ("The attendee's current role") and are
 *   turned to the respondent ("your current role") before they are shown.
 *
 * Nothing is translated, and nothing in the other language is pasted: form
 * text written in the other language is left out, and a question about such a
 * field is asked by the kind of value it wants ("your email address", "one
 * of: S, M, L") or, for free text, as "the next item" with what it needs.
 */

/** What phrasing needs of a fact. */
export type QuestionFact = Pick<FactDefinition, 'factKey' | 'fact' | 'doneCriteria' | 'questioningHints'> &
  Partial<Pick<FactDefinition, 'answerType' | 'options'>> & { kind?: FactType; options?: readonly string[] };

/**
 * What phrasing needs of a field: a FormField or any view of one (the
 * interviewer's context). When the view carries the field's facts, a
 * follow-up can tell "part of the answer is missing" (and say "also") from
 * "nothing usable was found".
 */
export type QuestionField = Pick<FormField, 'label' | 'intent' | 'required'> & { facts?: readonly QuestionFact[] };

/** What a follow-up is built from: the field, and the reviewer's findings on it as data (ReviewerOutput). */
export type FollowUpInput = {
  field: QuestionField;
  missing: readonly MissingFact[];
  notice: ReviewNotice | null;
  language: SessionLanguage;
};

// The opening words of a question. The English ones are also what the offline provider's tests look for.
const OPENER = {
  first: { ja: 'それでは、最初の質問です。', en: "Let's start with the first question." },
  next: { ja: 'ありがとうございます。次に、', en: 'Thank you! Next question:' },
} as const;

// A value the respondent might write in several ways gets a word on the expected form.
const FORMAT_NOTE: Partial<Record<FactType, Record<SessionLanguage, string>>> = {
  date: { ja: '「2025年4月1日」のような形でお書きください。', en: 'For example, “2025-04-01” or “April 1, 2025”.' },
  phone: { ja: '市外局番からお知らせください。', en: 'Please include the area code.' },
  url: { ja: '「https://example.com」のような形でお願いします。', en: 'For example, “https://example.com”.' },
  // ("the": the name asked may be a child's or a collector's, not the respondent's own.)
  name: { ja: '姓と名の両方をお願いします。', en: 'Please give both the first and last name.' },
  time: { ja: '「14時30分」のような形でお願いします。', en: 'For example, “14:30” or “2:30 pm”.' },
  year: { ja: '「2023年」のように西暦でお願いします。', en: 'The year is enough, for example “2023”.' },
  time_range: {
    ja: '「13時から15時まで」のように、始まりと終わりの時刻をお願いします。',
    en: 'Please give both ends, for example “1 pm to 3 pm”.',
  },
  date_range: {
    ja: '「5月1日から5月5日まで」のように、初日と最終日をお願いします。',
    en: 'Please give the first and last day, for example “May 1 to May 5”.',
  },
  datetime: {
    ja: '「5月3日の19時30分」のように、日付と時刻をお願いします。',
    en: 'Please give the day and the time, for example “May 3 at 7:30 pm”.',
  },
};

// What a good answer looks like, for the last try at a field.
const EXAMPLE: Partial<Record<FactType, Record<SessionLanguage, string>>> = {
  ...FORMAT_NOTE,
  email: { ja: '「name@example.com」のような形でお願いします。', en: 'For example, “name@example.com”.' },
  number: { ja: '数字でお答えください（例：3）。', en: 'A number is enough, for example “3”.' },
  period: {
    ja: '「2023年」や「2019年から2021年」のような形で構いません。',
    en: 'A year or a span is fine, for example “2023” or “2019 to 2021”.',
  },
  duration: { ja: '「3年」「6か月」のような形で構いません。', en: 'For example, “3 years” or “6 months”.' },
  postal_code: { ja: '「150-0001」のような形でお願いします。', en: 'As written on an envelope, for example “94105” or “M5V 2T6”.' },
  yes_no: { ja: '「はい」か「いいえ」でお答えください。', en: 'A “yes” or “no” is enough.' },
  text: { ja: '一言二言で構いませんので、具体的にお書きください。', en: 'A sentence or two with the specifics is enough.' },
};

/** True when `text` is written in the other language than the session's: it must not be pasted into a message. */
export function isForeign(text: string, lang: SessionLanguage): boolean {
  const trimmed = text.trim();
  if (!trimmed) return false;
  if (lang === 'en') return hasJapanese(trimmed);
  return !hasJapanese(trimmed) && /\p{Script=Latin}{2,}/u.test(trimmed) && !/^[A-Z0-9+#./\s-]{1,12}$/.test(trimmed);
}

/** The kind and options of each fact (stated by the view, else inferred from the words). */
function specsOf(field: QuestionField, facts: readonly QuestionFact[]): AnswerSpec[] {
  if (facts.length === 0) return [answerSpec({ factKey: '', fact: field.label, doneCriteria: field.intent ?? '' }, field)];
  return facts.map((fact) =>
    fact.kind ? { type: fact.kind, options: fact.options ?? [] } : answerSpec(fact, field, { fieldContext: facts.length <= 1 }),
  );
}

/** "one of: S, M, L, XL" — the choices of a single choice fact, or ''. */
function choicesText(specs: AnswerSpec[], lang: SessionLanguage): string {
  const only = specs.length === 1 ? specs[0] : undefined;
  if (!only || only.type !== 'choice' || only.options.length < 2) return '';
  // Options in the other language are romanised (和室 → washitsu) or, when that is not possible, not listed.
  const shown = only.options.map((option) => optionInLanguage(option, lang));
  if (shown.some((option) => option === null)) return '';
  return lang === 'ja'
    ? `${shown.map((option) => `「${option}」`).join('、')}のいずれかでお答えください。`
    : `Please answer with one of: ${shown.join(', ')}.`;
}

/**
 * The question for a field: the opener and one conversational question made
 * from the label (or from the single fact when it only extends the label:
 * "Dietary requirements" + "Dietary requirements or allergies"), the facts to
 * mention when there are several, then one line of context from the intent,
 * the hints that add something to it and the expected format of a typed
 * value, and — for optional fields — that it may be skipped.
 */
export function questionText(input: { field: QuestionField; facts: QuestionFact[]; language: SessionLanguage; isFirst: boolean }): string {
  const { field, facts, language: lang } = input;
  const opener = input.isFirst ? OPENER.first[lang] : OPENER.next[lang];
  const specs = specsOf(field, facts);
  const single = facts.length === 1 ? facts[0] : undefined;
  const asked = isForeign(field.label, lang)
    ? askByKind(specs, lang)
    : single && (extendsLabel(field.label, single.fact, lang) || asksWhFact(field.label, single.fact, lang))
      ? askObject(single.fact, lang)
      : ((single && ownedLabel(field.label, single.fact, lang)) ?? askLabel(field.label, lang));
  const lines = [[opener, asked, mentionText(field, facts, lang)].filter(Boolean).join(sep(lang))];
  const context = [contextText(field, facts, specs, lang), choicesText(specs, lang)].filter(Boolean).join(sep(lang));
  if (context) lines.push(context);
  if (!field.required) lines.push(optionalNote(lang));
  return lines.join('\n');
}

/** A question about a field whose label is in the other language: by the kind of value it wants. */
function askByKind(specs: AnswerSpec[], lang: SessionLanguage): string {
  const typed = specs.length === 1 && specs[0] && specs[0].type !== 'text' && specs[0].type !== 'choice' ? specs[0].type : null;
  if (lang === 'ja') {
    if (typed === 'yes_no') return '次のご質問には「はい」か「いいえ」でお答えください。';
    return typed ? `${KIND_NAME.ja[typed]}を教えていただけますか？` : '次の項目について、具体的に教えていただけますか？';
  }
  if (typed === 'yes_no') return 'Please answer the next question with yes or no.';
  return typed ? `Could you tell me the ${KIND_NAME.en[typed]}?` : 'Could you tell me about the next item, in your own words?';
}

/**
 * The last try at a field: what is still needed, the choices or an example,
 * and the way out — saying they cannot answer (the answer is then kept as
 * given for a person to check) or, for an optional field, skipping it.
 */
export function lastChanceText(input: FollowUpInput): string {
  const { field, language: lang } = input;
  const facts = field.facts ?? [];
  const specs = specsOf(field, facts);
  const missingFacts = input.missing.map((missing) => missing.fact);
  const missingSpecs = facts.length > 0 ? specs.filter((_, i) => missingFacts.includes(facts[i]?.fact.trim() ?? '')) : specs;
  const needed = (missingSpecs.length > 0 ? missingSpecs : specs).filter((sp): sp is AnswerSpec => sp !== undefined);
  const what = neededText(field, facts, missingFacts, lang);
  const help =
    choicesText(needed.length === 1 ? needed : [], lang) ||
    (needed.length === 1 && needed[0] ? (EXAMPLE[needed[0].type]?.[lang] ?? '') : '');
  if (lang === 'ja') {
    const out = field.required
      ? 'お答えが難しい場合は「わかりません」とお送りください。いただいた内容のまま記録し、後ほど担当者が確認します。'
      : '任意のご質問ですので、答えにくい場合は「スキップ」とお送りください。';
    return [`恐れ入りますが、${what}がまだ確認できていません。${help}`, out].join('\n');
  }
  const out = field.required
    ? "If you can't answer this, just say so: I'll note what you told me and a member of staff will check it with you."
    : 'This one is optional, so you can also just say “skip”.';
  return [`Sorry, I still need ${what}. ${help}`.trim(), out].join('\n');
}

/** The missing facts named in the session language (a fact written in the other language is named by its kind). */
function neededText(field: QuestionField, facts: readonly QuestionFact[], missing: string[], lang: SessionLanguage): string {
  const specs = specsOf(field, facts);
  const names = (missing.length > 0 ? missing : facts.map((fact) => fact.fact)).map((factText) => {
    const factIndex = facts.findIndex((fact) => fact.fact.trim() === factText.trim());
    const kind = specs[factIndex]?.type ?? 'text';
    if (!isForeign(factText, lang)) return lang === 'ja' ? objectJa(factText) : objectEn(toRespondent(factText, lang)).text;
    if (kind !== 'text') return lang === 'ja' ? KIND_NAME.ja[kind] : `the ${KIND_NAME.en[kind]}`;
    return lang === 'ja' ? 'この項目の内容' : 'an answer to this item';
  });
  const unique = [...new Set(names)];
  if (unique.length === 0) return lang === 'ja' ? 'この項目のご回答' : 'an answer to this question';
  return lang === 'ja' ? listJa(unique) : listEn(unique);
}

/** A follow-up for a field written in the other language: what is missing, by kind, and the choices. */
function followUpByKind(input: { field: QuestionField; missingFacts: string[]; language: SessionLanguage }): string {
  const { field, language: lang } = input;
  const facts = field.facts ?? [];
  const what = neededText(field, facts, input.missingFacts, lang);
  const specs = specsOf(field, facts);
  const help = choicesText(specs, lang);
  const lines = [lang === 'ja' ? `すみません、${what}を教えていただけますか？${help}` : `Sorry, could you tell me ${what}? ${help}`.trim()];
  if (!field.required) lines.push(optionalNote(lang));
  return lines.join('\n');
}

/** Confirms a value given earlier instead of asking again. */
export function confirmCandidateText(lang: SessionLanguage, input: { field: QuestionField; value: string }): string {
  const facts = input.field.facts ?? [];
  const specs = specsOf(input.field, facts);
  const kind = specs.length === 1 && specs[0] ? specs[0].type : 'text';
  const foreignLabel = isForeign(input.field.label, lang);
  if (lang === 'ja') {
    const what = foreignLabel
      ? kind !== 'text'
        ? KIND_NAME.ja[kind]
        : 'この項目'
      : `${honorific(input.field.label.replace(/(?<![?？:：])[?？:：]+$/, ''))}`;
    return `先ほど「${input.value}」とお伺いしました。${what}はこちらでよろしいですか？（「はい」か、正しい内容をお知らせください）`;
  }
  const what = foreignLabel ? (kind !== 'text' ? `your ${KIND_NAME.en[kind]}` : 'this item') : objectEn(input.field.label).text;
  return `Earlier you mentioned “${input.value}”. Shall I use that for ${what}? (Reply “yes”, or tell me the right one.)`;
}

/** The value just stored, read back in a few words so a misreading can be corrected. */
export function acknowledgementText(lang: SessionLanguage, shown: string): string {
  return lang === 'ja' ? `「${shown}」ですね。承知しました。` : `Got it: “${shown}”.`;
}

/** A reading that is not certain, asked about once before it is stored: a yes settles it. */
export function confirmReadingText(lang: SessionLanguage, shown: string): string {
  return lang === 'ja'
    ? `確認させてください。「${shown}」ということでよろしいですか？（「はい」か、正しい内容をお知らせください）`
    : `Just to check: “${shown}” — is that right? (Reply “yes”, or tell me the right one.)`;
}

/** Acknowledges a correction of an earlier answer (or says it could not be used). */
export function correctionText(lang: SessionLanguage, input: { label: string; value: string | null; accepted: boolean }): string {
  const foreignLabel = isForeign(input.label, lang);
  if (lang === 'ja') {
    const what = foreignLabel ? '先ほどのご回答' : `「${input.label}」`;
    if (input.accepted) return `承知しました。${what}を「${input.value ?? ''}」に訂正しました。`;
    return `すみません、訂正内容を読み取れませんでした。${what}は${input.value ? `「${input.value}」` : '元のまま'}にしています。`;
  }
  const what = foreignLabel ? 'that earlier answer' : objectEn(input.label).text;
  if (input.accepted) return `Got it — I've updated ${what} to “${input.value ?? ''}”.`;
  return `Sorry, I couldn't read the correction, so ${what} stays ${input.value ? `“${input.value}”` : 'as it was'}.`;
}

/** After the last try failed on a required field: the answer is kept as given, for a person to check. */
export function keptForReviewText(lang: SessionLanguage): string {
  return lang === 'ja'
    ? '承知しました。いただいた内容のまま記録し、後ほど担当者が確認いたします。'
    : "No problem — I've noted your answer as you gave it, and a member of staff will check it with you.";
}

/**
 * A follow-up on what is still missing, from the reviewer's findings as data
 * (never from its wording). A fact that is only absent, not found or too
 * brief gets no sentence of its own — the question asks for it — while the
 * reviewer's notice (a required question cannot be skipped) and its note on
 * any other fact (an invalid value, several values, a vague answer) are
 * passed on first. Then the missing facts are asked for: "a little more
 * about" those found too brief, "also" when the rest of the field was
 * answered, and a short apology when nothing usable was found.
 */
export function followUpText(input: FollowUpInput): string {
  const { field, language: lang } = input;
  const missingFacts = input.missing.map((missing) => missing.fact);
  if (isForeign(field.label, lang) || missingFacts.some((missingFact) => isForeign(missingFact, lang)))
    return followUpByKind({ field, missingFacts, language: lang });
  const missing = missingFacts.map((missingFact) => missingFact.trim()).filter(Boolean);
  const brief = input.missing.filter((fact) => fact.reason === 'too_brief').map((fact) => fact.fact.trim());
  const told = toldText(input, lang);
  const kept = told ? secondPerson(told, lang) : '';
  const known = field.facts?.length ?? 0;
  const nothingFound = known > 0 && missing.length >= known && brief.length === 0;
  const also = !kept && known > 0 && missing.length > 0 && missing.length < known;
  const lead =
    kept || (nothingFound ? notFoundText(notFoundKinds(input.missing, lang), lang) : lang === 'ja' ? 'ありがとうございます。' : 'Thanks!');
  const ask = followUpAsk(field, missing, brief, { also, afterProblem: Boolean(kept) }, lang);
  const lines = [`${lead}${sep(lang)}${ask}`];
  if (!field.required && input.notice?.code !== 'optional_may_skip') lines.push(optionalNote(lang));
  return lines.join('\n');
}

/**
 * All questions done: a summary, and that the answers are ready to submit.
 * (Corrections after completion are not supported, so none are offered.)
 */
export function completionText(
  lang: SessionLanguage,
  summary: Array<{ label: string; value: string | null; status: string; needsReview?: boolean }>,
): string {
  const rows = summary.map((entry, i) => {
    const label = isForeign(entry.label, lang) ? (lang === 'ja' ? `項目${i + 1}` : `Item ${i + 1}`) : entry.label;
    const flag = entry.needsReview ? (lang === 'ja' ? '（担当者が確認します）' : ' (a member of staff will check this)') : '';
    return `${lang === 'ja' ? '・' : '• '}${label}${lang === 'ja' ? '：' : ': '}${shownValue(entry, lang)}${flag}`;
  });
  if (lang === 'ja') {
    return [
      'すべての質問にお答えいただき、ありがとうございました！ご回答の内容は次のとおりです。',
      '',
      ...rows,
      '',
      'これで送信の準備が整いました。内容をご確認のうえ、よろしければ「送信」ボタンを押してください。',
    ].join('\n');
  }
  return [
    "Thank you — that's all the questions! Here is a summary of your answers:",
    '',
    ...rows,
    '',
    'Your answers are ready to submit. Please look them over and press “Submit” when everything looks right.',
  ].join('\n');
}

/** The reply to a message written after the interview is complete. */
export function alreadyCompleteText(lang: SessionLanguage): string {
  return lang === 'ja'
    ? 'すべての質問へのご回答はすでに完了しています。ありがとうございました。内容をご確認のうえ、「送信」ボタンを押してください。'
    : 'All the questions have already been answered — thank you! Please review your answers and press “Submit” when you are ready.';
}

// ---------------------------------------------------------------------------
// Questions

const WH = new Set(['what', 'which', 'who', 'whom', 'whose', 'why', 'how', 'when', 'where', 'whether', 'if']);
const AUX = new Set([
  'do',
  'does',
  'did',
  'are',
  'is',
  'was',
  'were',
  'have',
  'has',
  'can',
  'could',
  'would',
  'will',
  'should',
  'may',
  'shall',
]);
const IMPERATIVE = new Set([
  'please',
  'tell',
  'describe',
  'list',
  'explain',
  'share',
  'give',
  'provide',
  'briefly',
  'enter',
  'write',
  'include',
  'upload',
  'select',
  'choose',
  'pick',
  'rate',
  'specify',
  'indicate',
  'mention',
  'state',
  'attach',
  'let',
  'summarize',
  'summarise',
  'outline',
]);
// "What is your name", "Which session would you like": a direct question written without its question mark.
const DIRECT_QUESTION =
  /^(?:what|who|where|how|when|why)['’]s\b|^(?:what|which|who|whom|whose|why|how|when|where)(?:\s+[\w'-]+){0,2}?\s+(?:is|are|was|were|do|does|did|can|could|would|will|should|shall|have|has|had|may|might)\s+(?:you|your|we|they|i|he|she|it|this|that|these|those|there|the|a|an|our|my)\b/i;

/**
 * One question from a label. English: a question is kept (given its question
 * mark), a clause is embedded ("Could you tell me what you hope to …?"), an
 * instruction is said politely ("Please describe …."), a noun phrase is asked
 * for ("Could you tell me your email address?"). Japanese: a question or
 * request is kept, anything else becomes "〜を教えていただけますか？".
 */
function askLabel(label: string, lang: SessionLanguage): string {
  const trimmed = label.trim().replace(/(?<![\s:：.。!！])[\s:：.。!！]+$/, '');
  if (lang === 'ja') {
    const own = secondPerson(trimmed, 'ja');
    if (own !== trimmed && own.trim() !== '') return askLabel(own, lang);
    if (/[?？]$/.test(trimmed)) return trimmed;
    if (/か$/.test(trimmed)) return `${trimmed}？`;
    if (/(?:ください|下さい)$/.test(trimmed)) return `${trimmed}。`;
    if (!hasJapanese(trimmed)) return `「${trimmed}」を教えていただけますか？`;
    return /について$/.test(trimmed) ? `${honorific(trimmed)}教えていただけますか？` : `${honorific(trimmed)}を教えていただけますか？`;
  }
  if (/[?？]$/.test(trimmed)) return trimmed;
  if (hasJapanese(trimmed)) return `Could you tell me “${trimmed}”?`;
  const first = firstWord(trimmed);
  if (DIRECT_QUESTION.test(trimmed) || AUX.has(first)) return `${capitalize(trimmed)}?`;
  if (WH.has(first)) return `Could you tell me ${lowerLead(trimmed)}?`;
  if (IMPERATIVE.has(first)) return first === 'please' ? `${trimmed}.` : `Please ${lowerLead(trimmed)}.`;
  if (first === 'any') return `Do you have ${lowerLead(trimmed)}?`;
  if (first === 'anything') return `Is there ${lowerLead(trimmed)}?`;
  return `Could you tell me ${objectEn(trimmed).text}?`;
}

/** Asks for a fact (turned to the respondent) as the thing to tell. */
function askObject(fact: string, lang: SessionLanguage): string {
  if (lang === 'ja') {
    const object = objectJa(fact);
    return /について$/.test(object) ? `${object}教えていただけますか？` : `${object}を教えていただけますか？`;
  }
  return `Could you tell me ${objectEn(toRespondent(fact, lang)).text}?`;
}

/** A single fact that only adds to the label ("Dietary requirements or allergies") is asked instead of it. */
function extendsLabel(label: string, fact: string, lang: SessionLanguage): boolean {
  const plainLabel = norm(label);
  const plainFact = norm(toRespondent(fact, lang));
  return plainLabel.length > 0 && plainFact.length > plainLabel.length && plainFact.startsWith(plainLabel);
}

/**
 * A label that is a bare noun phrase ("Days per week attending") whose one fact is a question clause ("How many days
 * a week the child attends"): the clause asks it in words a person would use.
 */
function asksWhFact(label: string, fact: string, lang: SessionLanguage): boolean {
  if (lang !== 'en' || /[?？]/.test(label) || WH.has(firstWord(label.trim())) || IMPERATIVE.has(firstWord(label.trim()))) return false;
  return /^(?:how|what|which|when|where|who|whether)\b/i.test(fact.trim()) && !hasJapanese(fact);
}

/**
 * A bare label ("Age") whose one fact says whose it is ("Child's age in years"): asked for that person's
 * ("Could you tell me the child's age?"), not the respondent's own ("your age").
 */
function ownedLabel(label: string, fact: string, lang: SessionLanguage): string | null {
  if (lang !== 'en' || !/^[\p{L}\s-]+$/u.test(label.trim())) return null;
  const owned = /^(?:the\s+)?([a-z][a-z-]*(?:\s[a-z][a-z-]*)?)['’]s\s(.+)$/i.exec(toRespondent(fact, lang).trim());
  if (!owned || /^(?:your|my)$/i.test(owned[1]!) || !norm(owned[2]!).startsWith(norm(label))) return null;
  return `Could you tell me the ${owned[1]!.toLowerCase()}'s ${lowerLead(label.trim())}?`;
}

/** With several facts, one sentence naming them: "Please mention what you want to learn and your current role." */
function mentionText(field: QuestionField, facts: QuestionFact[], lang: SessionLanguage): string {
  if (facts.length < 2) return '';
  const shown = facts.map((fact) => fact.fact).filter((fact) => !same(fact, field.label) && !isForeign(fact, lang));
  if (shown.length === 0) return '';
  if (lang === 'ja') return `${listJa(shown.map(objectJa))}にも触れていただけると助かります。`;
  return `Please mention ${listEn(shown.map((fact) => objectEn(toRespondent(fact, lang)).text))}.`;
}

// ---------------------------------------------------------------------------
// Context: the intent, the hints and the expected format, on one line.

function contextText(field: QuestionField, facts: QuestionFact[], specs: AnswerSpec[], lang: SessionLanguage): string {
  const intent = field.intent?.trim() ?? '';
  const parts: string[] = [];
  if (intent && !same(intent, field.label) && !isForeign(intent, lang) && !listsChoices(intent)) {
    const own = [field.label, ...facts.map((fact) => fact.fact)].join('\n');
    parts.push(lang === 'ja' ? purposeJa(intent) : restatesValue(intent, own) ? valueNoteEn(intent) : purposeEn(intent));
  }
  const seen = new Set<string>();
  for (const fact of facts) {
    const hint = fact.questioningHints?.trim().replace(/(?<![.。])[.。]+$/, '');
    if (!hint || isForeign(hint, lang) || seen.has(norm(hint)) || forInterviewer(hint) || addsNothing(hint, `${intent} ${field.label}`))
      continue;
    seen.add(norm(hint));
    parts.push(lang === 'ja' ? hintJa(hint) : hintEn(hint));
  }
  const only = specs.length === 1 ? specs[0] : undefined;
  const format = only ? FORMAT_NOTE[only.type]?.[lang] : undefined;
  if (format) parts.push(format);
  return parts.join(sep(lang));
}

// First words that show an English intent is a verb phrase ("Reserve enough seats").
const INTENT_VERBS = new Set(
  (
    'reserve send identify plan shape understand confirm contact verify check know assess evaluate match tailor prepare arrange book ' +
    'decide determine estimate ensure make help provide process schedule invite notify reach follow personalize personalise customize ' +
    'customise improve gauge collect record register allocate assign calculate order create set organize organise select screen choose ' +
    'find learn get keep track greet welcome prioritize prioritise avoid accommodate design adjust group pair offer issue print deliver ' +
    'share update remind see give build coordinate review apply meet cater inform address recommend suggest fit'
  ).split(' '),
);
// A verb is followed by its object, which often starts with one of these.
const OBJECT_START = new Set([
  'the',
  'a',
  'an',
  'our',
  'their',
  'your',
  'his',
  'her',
  'its',
  'them',
  'us',
  'you',
  'enough',
  'any',
  'each',
  'all',
  'which',
  'what',
  'how',
  'whether',
  'if',
  'that',
  'this',
  'these',
  'those',
  'who',
  'where',
  'when',
  'why',
]);

// 「犬・猫・うさぎ・その他のどれか」, "One of: …": an intent that lists what may be picked says what the choices line says.
const LISTS_CHOICES = /(?:どれか|いずれか|から選|の中から)|\b(?:one of|pick one|choose one)\b/i;

function listsChoices(intent: string): boolean {
  return LISTS_CHOICES.test(intent);
}

/**
 * "Order number from the packing slip (ORD- and 5 digits)" under "Order #": an intent that opens with the value's own
 * words (two words of the label or a fact, in a row) describes the value; it is no purpose to put after "We'll use it to".
 */
function restatesValue(intent: string, own: string): boolean {
  const words = intent.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  if (words.length < 2) return false;
  const [a, b] = words;
  return new RegExp(String.raw`\b${a}\s+${b}\b`, 'i').test(own);
}

/** A description of the value, said as one: "It's the order number from the packing slip (ORD- and 5 digits)." */
function valueNoteEn(intent: string): string {
  const phrased = toRespondent(intent, 'en');
  return /^(?:the|a|an|your)\b/i.test(phrased) ? sentenceEn(`It's ${lowerLead(phrased)}`) : sentenceEn(`It's the ${lowerLead(phrased)}`);
}

/** "Reserve enough seats" → "We'll use it to reserve enough seats."; "Catering" → "We'll use it for catering." */
function purposeEn(intent: string): string {
  if (hasJapanese(intent)) return `(${intent})`;
  const phrased = toRespondent(intent, 'en');
  const words = phrased.toLowerCase().split(/\s+/);
  const [first = '', next = ''] = words;
  // "Helps the provider prepare": a verb in the third person is a sentence about the field.
  if (/^(?:helps|allows|lets|enables|ensures|means|tells|shows|saves)$/.test(first)) return sentenceEn(`It ${lowerLead(phrased)}`);
  if (/^(?:we|this|it|our|these|that|you|your)$/.test(first) || isStatementEn(phrased)) return sentenceEn(phrased);
  // "Used to check the age group", "Needed for billing": the purpose after a participle.
  const after = /^(?:used|needed|required|collected|asked)\s+((?:to|for)\s.+)$/i.exec(phrased);
  if (after) return `We'll use it ${after[1]}.`;
  if (first === 'to') return `We'll use it ${lowerLead(phrased)}.`;
  if (first === 'for') return `We'll use it ${lowerLead(phrased)}.`;
  if (/^(?:so|because|as|in)$/.test(first)) return `We ask ${lowerLead(phrased)}.`;
  if (/..ing$/.test(first) && !INTENT_VERBS.has(first)) return `We'll use it for ${lowerLead(phrased)}.`;
  if (INTENT_VERBS.has(first) || OBJECT_START.has(next)) return `We'll use it to ${lowerLead(phrased)}.`;
  return `We'll use it for ${lowerLead(phrased)}.`;
}

/**
 * A statement about the field ("Garage parking is $35/night", "Drivers under 25 pay a surcharge", "Lunch is provided"):
 * a subject followed by a finite verb. Such an intent is information, not the purpose of the question.
 */
function isStatementEn(intent: string): boolean {
  // A field's intent is phrased again at every step that asks or re-asks it: compromise's tagging
  // (about a millisecond) is done once per text.
  let known = statements.get(intent);
  if (known === undefined) statements.set(intent, (known = tagsSayStatement(intent)));
  return known;
}

const statements = new LRUCache<string, boolean>({ max: 512 });

function tagsSayStatement(intent: string): boolean {
  const terms = nlp(intent).terms().json() as Array<{ terms: Array<{ tags: string[] }> }>;
  const tags = terms.map((term) => term.terms[0]?.tags ?? []);
  // "Understand why you applied", "Send the ticket": an imperative is a purpose.
  if (tags[0]?.includes('Verb') || INTENT_VERBS.has(intent.trim().split(/\s+/)[0]?.toLowerCase() ?? '')) return false;
  const finite = tags.findIndex(
    (termTags, k) =>
      k > 0 &&
      termTags.includes('Verb') &&
      (termTags.includes('PresentTense') || termTags.includes('PastTense') || termTags.includes('Copula') || termTags.includes('Modal')),
  );
  return (
    finite > 0 &&
    tags.slice(0, finite).some((termTags) => termTags.includes('Noun') || termTags.includes('Pronoun') || termTags.includes('Value'))
  );
}

/** "必要な席数を確保する" → "必要な席数を確保するためにお伺いしています。"; a noun gets "のため"; a statement stays one. */
function purposeJa(intent: string): string {
  const phrased = toRespondent(intent, 'ja').replace(/(?<![。．])[。．]+$/, '');
  if (!hasJapanese(phrased)) return `（${phrased}）`;
  if (/ために?$/.test(phrased)) return `${phrased.replace(/に$/, '')}にお伺いしています。`;
  // 「状況を把握するため、できるだけ具体的に」: the purpose is said already; an adverb asks for a manner.
  if (/ため[、,]/.test(phrased)) return /[にく]$/.test(phrased) ? `${phrased}お願いします。` : `${phrased}。`;
  // 「見積もりがお済みの場合のみ」: a condition, shown as a note.
  if (/(?:場合|場合のみ|のみ|だけ|限り)$/.test(phrased)) return `（${phrased}）`;
  if (/(?:です|ます|ました|でした|ません|ませんでした|ください|下さい|だ|である|可|不可)$/.test(phrased)) return `${phrased}。`;
  // 「デイタイムは平日10〜17時」: a topic and what is said about it.
  if (/[\p{Script=Han}\p{Script=Katakana}ー\p{N}]は[^、。]/u.test(phrased)) return `${phrased}。`;
  if (/[うくぐすつぬぶむるい]$/.test(phrased)) return `${phrased}ためにお伺いしています。`;
  return `${phrased}のためにお伺いしています。`;
}

const HINT_IMPERATIVE = new Set([
  'include',
  'mention',
  'give',
  'describe',
  'add',
  'list',
  'tell',
  'write',
  'share',
  'provide',
  'specify',
  'enter',
  'note',
  'explain',
  'state',
  'count',
  'focus',
  'avoid',
  'keep',
  'consider',
  'answer',
  'attach',
  'use',
]);

/** "Include yourself" → "Please include yourself."; a statement is kept as a sentence. */
function hintEn(hint: string): string {
  if (hasJapanese(hint)) return `(${hint})`;
  const phrased = toRespondent(hint, 'en');
  return HINT_IMPERATIVE.has(firstWord(phrased)) ? `Please ${lowerLead(phrased)}.` : sentenceEn(phrased);
}

function hintJa(hint: string): string {
  const phrased = toRespondent(hint, 'ja');
  if (/[。！？!?）)]$/.test(phrased)) return phrased;
  if (/(?:す|さい|ません|た|ね|よ)$/.test(phrased)) return `${phrased}。`;
  return `（${phrased}）`;
}

/**
 * A hint written for the interviewer is not read out: one that tells them what to do ("Ask about …", "If they only
 * know a weighted GPA, ask again", 「経験を聞く」「金額が大きいものを選んでもらう」) or speaks of the respondent in the third
 * person ("if they reported it", 「回答者が…」).
 */
function forInterviewer(hint: string): boolean {
  const directive =
    /(?:^|[,.;:]\s*|\b(?:then|and|only|also|just|please)\s+)(?:ask|probe|clarify|confirm|check|remind|prompt|follow up|don'?t ask|make sure|encourage|offer)\b/i;
  const thirdPerson =
    /\b(?:they|them|their|theirs|the (?:respondent|applicant|candidate|caller|customer|client|patient|guest|user|parent|owner))\b/i;
  return (
    directive.test(hint) ||
    thirdPerson.test(hint) ||
    /(?:聞く|尋ねる|質問する|確認する|もらう|促す|聞き取る|伝える)(?:こと)?$/.test(hint) ||
    // 「犬種・猫種を言われたら大きな分類で記録する」: a note to the staff ends in a plain verb, a respondent's line politely.
    endsInPlainVerb(hint) ||
    /回答者|応募者|申込者|申請者/.test(hint)
  );
}

// Words that carry no content when comparing a hint with the intent.
const STOP = new Set(
  (
    'the a an and or of to for in on at by with we you your our us it its this that these those there here is are was be will can do ' +
    'please them they their from as so if any all some'
  ).split(' '),
);

/**
 * A hint whose content words all appear in the intent or label adds nothing
 * ("We send the ticket there" under "Send the ticket and updates"). Japanese:
 * every run of kanji or katakana appears in them.
 */
function addsNothing(hint: string, context: string): boolean {
  if (hasJapanese(hint)) {
    const runs = hint.match(/[\p{Script=Han}\p{Script=Katakana}ー]+/gu) ?? [];
    return runs.length > 0 && runs.every((run) => context.includes(run));
  }
  const words = (text: string) =>
    (text.toLowerCase().match(/[a-z]+/g) ?? []).filter((word) => word.length > 2 && !STOP.has(word)).map((word) => word.replace(/s$/, ''));
  const have = new Set(words(context));
  const own = words(hint);
  return own.length > 0 && own.every((word) => have.has(word));
}

// ---------------------------------------------------------------------------
// Follow-ups

/** Reasons the follow-up's question already answers: asking for the fact (again, or for more) says it all. */
const ASKED_FOR: ReadonlySet<MissingReason> = new Set(['absent', 'not_found', 'too_brief']);

/** What the reviewer had to tell the respondent before the question: its notice, then its notes on the facts the question alone does not explain. */
function toldText(input: FollowUpInput, lang: SessionLanguage): string {
  const notes = input.missing.filter((fact) => !ASKED_FOR.has(fact.reason)).map((fact) => fact.note ?? '');
  return [input.notice?.text ?? '', ...notes].filter(Boolean).join(sep(lang)).replace(/\s+/g, ' ').trim();
}

/** The kinds of value found nowhere in the answer, named in the session language ("email address", "メールアドレス"). */
function notFoundKinds(missing: readonly MissingFact[], lang: SessionLanguage): string[] {
  return missing.flatMap((fact) => (fact.reason === 'not_found' && fact.kind !== 'text' ? [KIND_NAME[lang][fact.kind]] : []));
}

/** "Sorry, I couldn't find an email address in your answer." */
function notFoundText(what: string[], lang: SessionLanguage): string {
  const only = what.length === 1 ? what[0] : undefined;
  if (lang === 'ja') return only ? `すみません、ご回答から${only}を読み取れませんでした。` : 'すみません、うまく読み取れませんでした。';
  return only
    ? `Sorry, I couldn't find ${/^[aeiou]/i.test(only) ? 'an' : 'a'} ${only} in your answer.`
    : "Sorry, I couldn't quite catch that.";
}

function followUpAsk(
  field: QuestionField,
  missing: string[],
  brief: string[],
  how: { also: boolean; afterProblem: boolean },
  lang: SessionLanguage,
): string {
  const more = missing.filter((fact) => brief.includes(fact));
  const other = missing.filter((fact) => !brief.includes(fact));
  const typedOnly = other.length === 1 && other[0] !== undefined && factType(field, other[0]) !== 'text';
  if (lang === 'ja') {
    if (missing.length === 0) return 'もう少し詳しく教えていただけますか？';
    const rest = other.map(objectJa);
    if (more.length > 0) {
      const first = `${listJa(more.map(objectJa))}について、もう少し詳しく教えていただけますか？`;
      return rest.length > 0 ? `${first}あわせて、${listJa(rest)}についても教えていただけますか？` : first;
    }
    const list = listJa(rest);
    const about = /について$/.test(list) ? '' : 'について';
    if (how.also) return `あわせて、${list}${typedOnly ? 'も' : `${about}も`}教えていただけますか？`;
    return `${list}${typedOnly ? 'を' : about}教えていただけますか？`;
  }
  if (missing.length === 0) return 'Could you tell me a little more?';
  const rest = other.map((fact) => objectEn(toRespondent(fact, lang)));
  if (more.length > 0) {
    const first = `Could you tell me a little more about ${listEn(more.map((fact) => objectEn(toRespondent(fact, lang)).text))}`;
    return rest.length > 0 ? `${first}, and also ${listEn(rest.map((object) => object.text))}?` : `${first}?`;
  }
  const only = rest.length === 1 ? rest[0] : undefined;
  const about = only && !only.clause && !typedOnly ? 'about ' : '';
  const polite = how.afterProblem ? ' please' : how.also ? ' also' : '';
  return `Could you${polite} tell me ${about}${listEn(rest.map((object) => object.text))}?`;
}

/** The type of a missing fact: from the field's own fact when the view carries it. */
function factType(field: QuestionField, fact: string): FactType {
  const def = field.facts?.find((definition) => definition.fact.trim() === fact) ?? { factKey: '', fact, doneCriteria: '' };
  if ('kind' in def && def.kind) return def.kind;
  return answerSpec(def, field, { fieldContext: (field.facts?.length ?? 1) <= 1 }).type;
}

// ---------------------------------------------------------------------------
// Words

/**
 * An English noun phrase or clause as the object of "tell me": a clause
 * ("what you want to learn") as it is; "Number of attendees" → "the number
 * of attendees"; "Years of experience" → "how many years of experience you
 * have"; anything without its own determiner → "your …".
 */
function objectEn(phrase: string): { text: string; clause: boolean } {
  const raw = phrase.trim().replace(/(?<![.。?？:：])[.。?？:：]+$/, '');
  if (hasJapanese(raw)) return { text: `“${raw}”`, clause: false };
  // ("Applicant's full name": the respondent's own, said as "your full name".)
  const lowered = lowerLead(POSSESSIVE.test(raw) ? secondPerson(raw, 'en') : raw).replace(/^my\b/i, 'your');
  const first = firstWord(lowered);
  if (WH.has(first)) return { text: lowered, clause: true };
  if (/^years? of\b/i.test(lowered)) return { text: `how many ${lowered} you have`, clause: true };
  if (/^(?:your|the|a|an|any|some|this|these|those|you)\b/i.test(lowered)) return { text: lowered, clause: false };
  // "the full name of the person who collects", not "your full name of the person …"; "the player's name", someone
  // else's, not "your player's name".
  if (
    POSSESSIVE.test(lowered) ||
    /^(?:total )?(?:number|amount|count|quantity|type|kind) of\b/i.test(lowered) ||
    /\byour\b/i.test(lowered) ||
    /^[\w-]+(?:\s[\w-]+){0,2}\sof\s(?:the|a|an|this|that|each|every)\b/i.test(lowered)
  )
    return { text: `the ${lowered}`, clause: false };
  return { text: `your ${lowered}`, clause: false };
}

/** A Japanese fact as the thing to tell: turned to the respondent, with honorifics; a fact in English is quoted. */
function objectJa(fact: string): string {
  const phrased = toRespondent(fact, 'ja');
  return hasJapanese(phrased) ? honorific(phrased) : `「${phrased}」`;
}

// Nouns about the respondent that polite Japanese marks with ご/お ("現在のご職業やご経歴").
const HONORIFIC: ReadonlyArray<readonly [string, string]> = [
  ...'職業 経歴 住所 連絡先 希望 意見 要望 経験 所属 専門 家族 予定 年齢 出身 勤務先 感想 関心 都合 予算 用件'
    .split(' ')
    .map((noun) => ['ご', noun] as const),
  ...'名前 仕事 住まい 悩み 考え 好み 勤め先 電話番号'.split(' ').map((noun) => ['お', noun] as const),
];

/** Adds ご/お to the nouns above where they start a phrase (after の, や, と, 、 or at the start). */
function honorific(text: string): string {
  let marked = text;
  for (const [prefix, noun] of HONORIFIC) marked = marked.replace(new RegExp(`(^|[のやと、・「（(\\s])${noun}`, 'g'), `$1${prefix}${noun}`);
  return marked;
}

function listEn(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function listJa(items: string[]): string {
  return items.length === 2 ? items.join('と') : items.join('、');
}

function optionalNote(lang: SessionLanguage): string {
  return lang === 'ja'
    ? '任意のご質問ですので、答えにくい場合は「スキップ」とお送りください。'
    : 'This one is optional — just say “skip” if you’d rather not answer.';
}

function shownValue(entry: { value: string | null; status: string }, lang: SessionLanguage): string {
  if (entry.value !== null && entry.value.trim() !== '') {
    const lines = entry.value.split(/(?<!\s)\s*\n\s*/).map((line) => line.trim());
    // A Japanese option picked by an English speaker (コンパクト for "a compact car") is shown romanised, as it was offered;
    // other values as the acknowledgements showed them (13:00–15:00, 「いいえ」 in a Japanese summary, not "no").
    return lines
      .map((line) => (lang === 'en' && hasJapanese(line) ? (optionInLanguage(line, lang) ?? line) : shownReading(line, lang)))
      .join(' / ');
  }
  if (entry.status === 'skipped') return lang === 'ja' ? '（スキップ）' : '(skipped)';
  return lang === 'ja' ? '（未回答）' : '(not answered)';
}

// Third-person verbs that follow "the respondent" in fact descriptions, and their second-person forms.
const VERBS: Readonly<Record<string, string>> = {
  wants: 'want',
  hopes: 'hope',
  likes: 'like',
  needs: 'need',
  plans: 'plan',
  lives: 'live',
  works: 'work',
  expects: 'expect',
  prefers: 'prefer',
  knows: 'know',
  uses: 'use',
  speaks: 'speak',
  thinks: 'think',
  feels: 'feel',
  has: 'have',
  is: 'are',
  was: 'were',
  does: 'do',
  can: 'can',
  would: 'would',
  will: 'will',
  did: 'did',
  attends: 'attend',
  applied: 'applied',
};

// Who facts are written about.
const ROLE_EN = 'respondent|applicant|candidate|user|participant|attendee|registrant';
// With "the", these name the person filling in the form too ("what the customer has noticed"); bare, they may not.
const ROLE_EN_THE = `${ROLE_EN}|customer|client|caller|guest|patient|requester|requestor|submitter|claimant|policyholder`;
const ROLE_JA = '回答者|応募者|候補者|ユーザー|参加者|申込者|申請者';

/** "Why the respondent wants to join" → "Why you want to join"; "The attendee's role" → "your role"; "回答者の経験" → "ご自身の経験". */
export function toRespondent(fact: string, lang: SessionLanguage): string {
  return secondPerson(fact.trim().replace(/[.。]$/, ''), lang);
}

function secondPerson(text: string, lang: SessionLanguage): string {
  if (lang === 'ja' || hasJapanese(text)) {
    return (
      text
        .replace(new RegExp(`(?:${ROLE_JA})(?:さん|様)?(?=ご本人)`, 'g'), '')
        .replace(new RegExp(`(?:${ROLE_JA})(?:さん|様)?から`, 'g'), 'ご自身から')
        // 「申込者氏名」: the role word before a noun of its own is dropped (「氏名」).
        .replace(new RegExp(`(?:${ROLE_JA})(?=\\p{Script=Han})`, 'gu'), '')
        .replace(new RegExp(`(?:${ROLE_JA})(?:さん)?の`, 'g'), 'ご自身の')
        .replace(new RegExp(`(?:${ROLE_JA})(?:さん)?[がは]`, 'g'), '')
    );
  }
  const verb = (word: string | undefined) => (word ? ` ${VERBS[word.toLowerCase()] ?? word}` : '');
  return (
    text
      .replace(new RegExp(String.raw`\bthe (?:${ROLE_EN_THE})['’]s\b`, 'gi'), 'your')
      .replace(new RegExp(String.raw`\b(?:${ROLE_EN})['’]s\b`, 'gi'), 'your')
      // "the respondent" is always the person; a bare "respondent" only when a verb follows ("User name" stays).
      // ("the guest list", "the customer portal": the role word modifies another noun there, and stays.)
      .replace(new RegExp(String.raw`\bthe (?:${ROLE_EN_THE})\b(?:\s+([A-Za-z]+))?`, 'gi'), (match, word: string | undefined) =>
        word && modifiesNoun(match) ? match : `you${verb(word)}`,
      )
      .replace(
        new RegExp(String.raw`\b(?:${ROLE_EN})\s+(${Object.keys(VERBS).join('|')})\b`, 'gi'),
        (_m, word: string) => `you${verb(word)}`,
      )
  );
}

/** In "the guest list", the role word modifies the noun after it: read as a phrase, that word is a noun, not a verb. */
function modifiesNoun(phrase: string): boolean {
  const words = phrase.trim().split(/\s+/);
  if (VERBS[words.at(-1)?.toLowerCase() ?? ''] !== undefined) return false;
  const terms = (nlp(phrase).terms().json() as Array<{ terms: Array<{ tags: string[] }> }>).map((term) => term.terms[0]?.tags ?? []);
  const last = terms.at(-1) ?? [];
  return last.includes('Noun') && !last.includes('Pronoun') && !last.includes('Verb');
}

// A phrase that opens with someone's: "Child's age", "Applicant's full name".
const POSSESSIVE = /^[\p{L}-]+['’]s\s/u;

/** Lowercases the first word when it is an ordinary capitalised word ("What", "A", "Dietary"; not "I", "GitHub", "URL"). */
function lowerLead(text: string): string {
  if (/^(?:A|\p{Lu}\p{Ll}+)(?![\p{L}'’])/u.test(text)) return text.charAt(0).toLowerCase() + text.slice(1);
  // "Child's name" → "child's name"; a name's possessive ("Sarah's", "Google's") keeps its capital.
  const possessive = /^(\p{Lu}\p{Ll}+)['’]s\b/u.exec(text);
  return possessive && !nlp(possessive[1]!).has('#ProperNoun') ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function sentenceEn(text: string): string {
  const sentence = capitalize(text.trim());
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

function firstWord(text: string): string {
  return (text.trim().match(/^[A-Za-z']+/)?.[0] ?? '').toLowerCase();
}

function sep(lang: SessionLanguage): string {
  return lang === 'ja' ? '' : ' ';
}

function norm(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s.。?？!！:：]/g, '');
}

function same(a: string, b: string): boolean {
  return norm(a) === norm(b);
}

/**
 * A short confirmation of what was set, said just before the first question.
 * `country` may be a display name or an alpha-2 code.
 */
export function bootstrapDoneText(lang: SessionLanguage, settings: { country: string; timezone: string }): string {
  const country = /^[A-Za-z]{2}$/.test(settings.country) ? countryName(settings.country, lang) || settings.country : settings.country;
  return lang === 'ja'
    ? `ありがとうございます。お住まいの国を${country}、タイムゾーンを${settings.timezone}に設定しました。`
    : `Thank you! I’ve set your country to ${country} and your time zone to ${settings.timezone}.`;
}
