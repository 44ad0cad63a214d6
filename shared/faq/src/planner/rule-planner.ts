import type { MultiStepQueryPlan, SearchHit } from '@convo/contract';
import { detectLanguage, normalize, withinTextBudget, type Analyzer } from '@convo/text';
import { askWhatAbout, askWhichEntry, askWhichFacetValue, askWhichTopic } from './clarify-text.js';
import { splitCompound } from './compound.js';
import { closeHits, facetValues, findFacetAmbiguity, mentionsValue, parseFacet, termIsValue, topicalTags, type Facet } from './facets.js';
import { readHistory, type HistoryView, type PendingClarification } from './history.js';
import { clarifyPlan, searchPlan } from './plans.js';
import { analyzeMessage, queryOf, termsOf, uniqueTerms, type MessageAnalysis, type Term } from './terms.js';
import type { PlanInput, PlanLanguage, PlannerCorpus } from './types.js';

/**
 * The rule-based planner. In order: an answer to our clarifying question,
 * a follow-up on the previous exchange, a compound question, a question too
 * vague to search (clarify), else one search. The corpus is probed to see
 * whether the best answers split on a facet or on topics.
 */

/** Probe depth: enough hits to see every value of a facet, whatever topK the user asked for. */
const PROBE_TOP_K = 10;
/** A best hit below this confidence, with a second one close behind, is a close call (see closeCall). */
const UNSURE_BELOW = 0.6;
/** The second hit's score as a share of the first's from which the two are a close call. */
const CLOSE_CALL_RATIO = 0.9;
const MAX_TOPIC_CHOICES = 5;

type Ctx = {
  input: PlanInput;
  language: PlanLanguage;
  analyzer: Analyzer;
  corpus: PlannerCorpus;
  msg: MessageAnalysis;
  history: HistoryView;
  /** Probe results by query: the rules often ask the same query twice (a follow-up's own terms, then its facet check). */
  probes: Map<string, SearchHit[]>;
};

export function planLanguage(input: PlanInput): PlanLanguage {
  return input.language === 'auto' ? detectLanguage(input.message) : input.language;
}

/** A plan from the message, the history and a probe of the corpus; never throws on odd input. */
export function planRuleBased(input: PlanInput, deps: { analyzer: Analyzer; corpus: PlannerCorpus }): MultiStepQueryPlan {
  return withinTextBudget(() => planByRules(input, deps));
}

function planByRules(input: PlanInput, deps: { analyzer: Analyzer; corpus: PlannerCorpus }): MultiStepQueryPlan {
  // Markers and particles follow the script the message is written in, whatever language the answer should be in.
  const msg = analyzeMessage(deps.analyzer, input.message, detectLanguage(input.message));
  const ctx: Ctx = {
    input,
    language: planLanguage(input),
    analyzer: deps.analyzer,
    corpus: deps.corpus,
    msg,
    history: readHistory(input.history),
    probes: new Map(),
  };
  return answerToClarification(ctx) ?? followUp(ctx) ?? compound(ctx) ?? searchOrClarify(ctx);
}

function probe(ctx: Ctx, query: string): SearchHit[] {
  if (query === '') return [];
  let hits = ctx.probes.get(query);
  if (!hits) {
    hits = ctx.corpus.probe(query, Math.max(ctx.input.topK, PROBE_TOP_K));
    ctx.probes.set(query, hits);
  }
  return hits;
}

/** A facet value as a term of its own: "US" is an English stop word, yet it is the answer to "which region?". */
function valueTerm(value: string): Term {
  return { text: value, base: normalize(value), noun: true };
}

/** "送料は？" → (which region?) → "北海道": search "北海道 送料". */
function answerToClarification(ctx: Ctx): MultiStepQueryPlan | null {
  const pending = ctx.history.pending;
  if (!pending) return null;
  const { analyzer, msg, input } = ctx;
  const named = pending.choices.filter((c) => mentionsValue(analyzer, input.message, c));
  const pendingTerms = termsOf(analyzer, pending.query ?? pending.question);
  if (isNewQuestion(pending, named, msg.terms, pendingTerms)) return null;
  const chosen = named.filter((c) => !msg.terms.some((t) => termIsValue(analyzer, t, c))).map(valueTerm);
  const query = queryOf([...chosen, ...msg.terms, ...pendingTerms]);
  if (query === '') return null;
  return searchPlan({
    kind: 'followup_search',
    basedOn: 'user',
    queries: [query],
    description: `${pending.question} → ${input.message}`,
    topK: input.topK,
    language: ctx.language,
    confidence: 'medium',
    raw: { planner: 'rule', rules: ['answer_to_clarification'], pendingQuestion: pending.question, chosen: named, topic: query },
  });
}

// Offered choices, but the user took none and asked about something else of their own.
function isNewQuestion(pending: PendingClarification, named: string[], own: Term[], pendingTerms: Term[]): boolean {
  if (pending.choices.length === 0 || named.length > 0 || own.length < 2) return false;
  return !own.some((t) => pendingTerms.some((p) => p.base === t.base));
}

/** The facet values a message names, among those the probed hits carry. */
function namedFacets(ctx: Ctx, facets: Map<string, string[]>): Facet[] {
  return [...facets].flatMap(([key, values]) =>
    values.filter((v) => mentionsValue(ctx.analyzer, ctx.input.message, v)).map((value) => ({ key, value })),
  );
}

/**
 * "じゃあ返品ポリシーも知りたい", "沖縄は？" (after 北海道への送料), "それはいつまで？":
 * a follow-up searches its own terms, and borrows the previous topic when it
 * names only a facet value or only points back at the answer.
 */
function followUp(ctx: Ctx): MultiStepQueryPlan | null {
  const previous = ctx.history.previous;
  if (!previous) return null;
  const { analyzer, msg, input } = ctx;
  const prevTerms = termsOf(analyzer, previous.queries.length > 0 ? previous.queries.join(' ') : previous.question);
  const facets = facetValues([...probe(ctx, queryOf(msg.terms)), ...probe(ctx, queryOf(prevTerms))]);
  const named = namedFacets(ctx, facets);
  const topic = msg.terms.filter((t) => !named.some((f) => termIsValue(analyzer, t, f.value)));
  const subjectless = lacksSubject(msg, topic);
  const pointsBack = subjectless && named.length === 0 && (msg.reference || msg.interrogative);
  if (!msg.followupMarker && !msg.reference && !pointsBack && !(named.length > 0 && subjectless)) return null;

  const basedOn = msg.reference || pointsBack ? 'previous_answer' : 'user';
  const parts = topic.length > 0 ? splitCompound(msg.tokens, detectLanguage(input.message)) : null;
  if (parts) return followupPlan(ctx, parts, basedOn, ['followup', 'compound'], null);

  // The new value replaces the old one of the same facet: 北海道 送料 + 沖縄は？ → 沖縄 送料.
  const replaced = new Set(named.flatMap((f) => facets.get(f.key) ?? []));
  const carried = subjectless ? prevTerms.filter((t) => ![...replaced].some((v) => termIsValue(analyzer, t, v))) : [];
  const values = named.filter((f) => !msg.terms.some((t) => termIsValue(analyzer, t, f.value))).map((f) => valueTerm(f.value));
  const terms = uniqueTerms([...values, ...msg.terms, ...carried]);
  if (terms.length === 0) return null;

  const facet = decideFacet(ctx, terms, probe(ctx, queryOf(terms)));
  if (facet.kind === 'ask') return facetClarifyPlan(ctx, facet.key, facet.values, queryOf(terms), ['followup']);
  const rules = [
    'followup',
    ...(carried.length > 0 ? ['carry_topic'] : []),
    ...(facet.kind === 'from_history' ? ['facet_from_history'] : []),
  ];
  const query = queryOf(facet.kind === 'from_history' ? [...terms, valueTerm(facet.value)] : terms);
  // A chain of "それは？" keeps the subject it borrowed, not every word asked on the way.
  const subject = subjectless ? queryOf([...values, ...carried]) || query : query;
  return followupPlan(ctx, [query], basedOn, rules, subject);
}

/**
 * Whether the message leaves its subject to the context: no noun of its own
 * (それはいつ届く？), or in English, where we have no parts of speech, a
 * pointer plus at most one word (is it refundable?).
 */
function lacksSubject(msg: MessageAnalysis, topic: Term[]): boolean {
  if (!topic.some((t) => t.noun)) return true;
  return msg.reference && topic.length <= 1 && topic.every((t) => !/[^\p{Script=Latin}\p{N}]/u.test(t.text));
}

function followupPlan(
  ctx: Ctx,
  queries: string[],
  basedOn: 'user' | 'previous_answer',
  rules: string[],
  topic: string | null,
): MultiStepQueryPlan {
  return searchPlan({
    kind: 'followup_search',
    basedOn,
    queries,
    description: ctx.input.message,
    topK: ctx.input.topK,
    language: ctx.language,
    confidence: 'medium',
    raw: { planner: 'rule', rules, terms: ctx.msg.terms.map((t) => t.text), ...(topic ? { topic } : {}) },
  });
}

/** "ギフト配送と領収書発行の条件をまとめて教えて" → one search per part. */
function compound(ctx: Ctx): MultiStepQueryPlan | null {
  const queries = splitCompound(ctx.msg.tokens, detectLanguage(ctx.input.message));
  if (!queries) return null;
  return searchPlan({
    kind: 'search',
    queries,
    description: ctx.input.message,
    topK: ctx.input.topK,
    language: ctx.language,
    confidence: 'medium',
    raw: { planner: 'rule', rules: ['compound'], parts: queries },
  });
}

type FacetDecision = { kind: 'clear' } | { kind: 'from_history'; value: string } | { kind: 'ask'; key: string; values: string[] };

/** Whether the best hits split on a facet the query leaves open, and whether the recent dialog already named its value. */
function decideFacet(ctx: Ctx, terms: Term[], hits: SearchHit[]): FacetDecision {
  const { analyzer, input } = ctx;
  const asked = `${input.message} ${queryOf(terms)}`;
  const open = findFacetAmbiguity(hits, (v) => mentionsValue(analyzer, asked, v));
  if (!open) return { kind: 'clear' };
  for (const text of ctx.history.recentTexts) {
    const value = open.values.find((v) => mentionsValue(analyzer, text, v));
    if (value !== undefined) return { kind: 'from_history', value };
  }
  return { kind: 'ask', ...open };
}

function facetClarifyPlan(ctx: Ctx, key: string, values: string[], pendingQuery: string, rules: string[]): MultiStepQueryPlan {
  return clarifyPlan({
    question: askWhichFacetValue(ctx.language, key, values),
    language: ctx.language,
    raw: { planner: 'rule', rules: [...rules, 'clarify_facet'], facet: { key, values }, choices: values, pendingQuery },
  });
}

/** Clarify when nothing or too little is asked; otherwise one search. */
function searchOrClarify(ctx: Ctx): MultiStepQueryPlan {
  const { msg, language, input } = ctx;
  if (msg.terms.length === 0) {
    return clarifyPlan({ question: askWhatAbout(language), language, raw: { planner: 'rule', rules: ['clarify_empty'], choices: [] } });
  }
  const query = queryOf(msg.terms);
  const hits = probe(ctx, query);
  const facet = decideFacet(ctx, msg.terms, hits);
  if (facet.kind === 'ask') return facetClarifyPlan(ctx, facet.key, facet.values, query, []);
  const named = namedFacets(ctx, facetValues(hits));
  const single = uniqueTerms(msg.terms);
  const topics = single.length === 1 && facet.kind === 'clear' ? topicChoices(ctx.analyzer, query, consistentWith(named, hits)) : [];
  if (topics.length >= 2) {
    return clarifyPlan({
      question: askWhichTopic(language, single[0]?.text ?? query, topics),
      language,
      raw: { planner: 'rule', rules: ['clarify_topic'], choices: topics, pendingQuery: query },
    });
  }
  const close = facet.kind === 'clear' ? closeCall(ctx, query, hits) : [];
  if (close.length >= 2) {
    return clarifyPlan({
      question: askWhichEntry(language, close),
      language,
      raw: { planner: 'rule', rules: ['clarify_close_call'], choices: close, pendingQuery: query },
    });
  }
  const fromHistory = facet.kind === 'from_history';
  // A value the analyzer drops ("the US": "us" is a stop word) must still reach the search.
  const dropped = named.filter((f) => !msg.terms.some((t) => termIsValue(ctx.analyzer, t, f.value)));
  const terms = [...msg.terms, ...dropped.map((f) => valueTerm(f.value)), ...(fromHistory ? [valueTerm(facet.value)] : [])];
  const searchQuery = queryOf(terms);
  return searchPlan({
    kind: 'search',
    queries: [searchQuery],
    description: input.message,
    topK: input.topK,
    language,
    confidence: fromHistory ? 'medium' : 'high',
    raw: {
      planner: 'rule',
      rules: fromHistory ? ['search', 'facet_from_history'] : ['search'],
      terms: msg.terms.map((t) => t.text),
      topic: searchQuery,
    },
  });
}

/**
 * Unsure between two entries: the best hit is confident enough to answer but
 * not sure (below UNSURE_BELOW), and the next one scores nearly as well. On the
 * development parts of the eleven FAQ sets this is 8% of the answerable
 * questions, and in them the best hit was the answer only 31% of the time; one
 * of the two, 50%. So the user is asked which of the two questions they mean
 * (their questions are the choices) rather than told the first one's answer.
 */
function closeCall(ctx: Ctx, query: string, hits: SearchHit[]): string[] {
  const { corpus } = ctx;
  const [first, second] = hits;
  if (!corpus.confidence || corpus.abstainBelow === undefined || !first || !second) return [];
  if (second.score < CLOSE_CALL_RATIO * first.score) return [];
  const sure = corpus.confidence(query, first);
  if (sure < corpus.abstainBelow || sure >= UNSURE_BELOW) return [];
  const questions = [first, second].map((hit) => hit.question.replace(/(?<![?？。.!！\s])[?？。.!！\s]+$/u, ''));
  return questions[0] === questions[1] ? [] : questions;
}

/** The hits that fit the facet values the user named: another region's answer is not another topic. */
function consistentWith(named: Facet[], hits: SearchHit[]): SearchHit[] {
  return hits.filter((h) =>
    named.every((f) => {
      const own = h.tags.map(parseFacet).filter((x): x is Facet => x?.key === f.key);
      return own.length === 0 || own.some((x) => x.value === f.value);
    }),
  );
}

/**
 * What the close hits of a one-word query are about: each hit's first topical
 * tag the query does not already say, else its question (a choice that only
 * repeats the user's word would tell them nothing). Two or more means the
 * word alone does not pick an answer.
 */
function topicChoices(analyzer: Analyzer, query: string, hits: SearchHit[]): string[] {
  const labels: string[] = [];
  for (const hit of closeHits(hits)) {
    // (The lookbehind starts the match where the final marks start: tried at each mark of a long row, it was quadratic.)
    const label =
      topicalTags(hit).find((t) => !mentionsValue(analyzer, query, t)) ?? hit.question.replace(/(?<![?？。.!！\s])[?？。.!！\s]+$/u, '');
    if (!labels.includes(label)) labels.push(label);
  }
  return labels.slice(0, MAX_TOPIC_CHOICES);
}
