import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest, ChatResponse, LlmProvider } from '@convo/agent-kit';
import {
  buildLlmPlannerMessages,
  createFaqIndex,
  parseLlmPlan,
  planMultiStepQuery,
  planRuleBased,
  PLANNER_SYSTEM_PROMPT,
  type PlanInput,
  type PlannerCorpus,
  type PlannerHistoryEntry,
} from '@convo/faq';
import { loadAnalyzer, type Analyzer } from '@convo/text';
import type { FaqDocument, MultiStepQueryPlan, SearchHit } from '@convo/contract';

type Doc = Omit<SearchHit, 'score'>;

const DOCS: Doc[] = [
  {
    id: 'ship-honshu',
    question: '本州への送料はいくらですか？',
    answer: '本州への送料は500円です。',
    tags: ['送料', '配送', '地域:本州'],
    language: 'ja',
  },
  {
    id: 'ship-hokkaido',
    question: '北海道への送料はいくらですか？',
    answer: '北海道への送料は800円です。',
    tags: ['送料', '配送', '地域:北海道'],
    language: 'ja',
  },
  {
    id: 'ship-okinawa',
    question: '沖縄・離島への送料はいくらですか？',
    answer: '沖縄・離島への送料は1200円です。',
    tags: ['送料', '配送', '地域:沖縄・離島'],
    language: 'ja',
  },
  {
    id: 'returns',
    question: '返品ポリシーを教えてください',
    answer: '返品は商品到着後30日以内に受け付けます。',
    tags: ['返品'],
    language: 'ja',
  },
  { id: 'gift-wrap', question: 'ギフト包装はできますか？', answer: '有料で承ります。', tags: ['ギフト', '包装'], language: 'ja' },
  { id: 'gift-ship', question: 'ギフト配送の条件は？', answer: '配送先を別途指定できます。', tags: ['ギフト', '配送'], language: 'ja' },
  { id: 'receipt', question: '領収書の発行条件は？', answer: 'マイページから発行できます。', tags: ['領収書'], language: 'ja' },
  {
    id: 'ship-us',
    question: 'How much is shipping to the US?',
    answer: 'Shipping to the US costs $10.',
    tags: ['shipping', 'region:US'],
    language: 'en',
  },
  {
    id: 'ship-eu',
    question: 'How much is shipping to Europe?',
    answer: 'Shipping to Europe costs $15.',
    tags: ['shipping', 'region:Europe'],
    language: 'en',
  },
  {
    id: 'ship-asia',
    question: 'How much is shipping to Asia?',
    answer: 'Shipping to Asia costs $12.',
    tags: ['shipping', 'region:Asia'],
    language: 'en',
  },
  {
    id: 'returns-en',
    question: 'What is your return policy?',
    answer: 'Returns are accepted within 30 days.',
    tags: ['returns'],
    language: 'en',
  },
];

let analyzer: Analyzer;
let corpus: PlannerCorpus;

/** A probe over DOCS: the share of the query's terms a document's question and tags contain. */
function fakeCorpus(textAnalyzer: Analyzer, docs: Doc[]): PlannerCorpus {
  const indexed = docs.map((doc) => {
    const words = [doc.question, ...doc.tags.map((t) => t.slice(t.indexOf(':') + 1))].join(' ');
    return { doc, bases: new Set(textAnalyzer.contentTerms(words)) };
  });
  return {
    probe(query, topK) {
      const terms = [...new Set(textAnalyzer.contentTerms(query))];
      if (terms.length === 0) return [];
      return indexed
        .map(({ doc, bases }) => ({ ...doc, score: terms.filter((b) => bases.has(b)).length / terms.length }))
        .filter((h) => h.score > 0)
        .sort((x, y) => y.score - x.score)
        .slice(0, topK);
    },
  };
}

beforeAll(async () => {
  analyzer = await loadAnalyzer();
  corpus = fakeCorpus(analyzer, DOCS);
});

function input(message: string, history: PlannerHistoryEntry[] = [], topK = 5): PlanInput {
  return { message, history, topK, language: 'auto' };
}

function plan(message: string, history: PlannerHistoryEntry[] = []): MultiStepQueryPlan {
  return planRuleBased(input(message, history), { analyzer, corpus });
}

/** A finished exchange as the dialog service records it: the user turn, then the answer with the plan that produced it. */
function exchange(message: string, answer: string, earlier: PlannerHistoryEntry[] = []): PlannerHistoryEntry[] {
  return [...earlier, { role: 'user', content: message }, { role: 'assistant', content: answer, plan: plan(message, earlier) }];
}

function queries(queryPlan: MultiStepQueryPlan): string[] {
  return queryPlan.steps.flatMap((s) => (s.type === 'search' || s.type === 'followup_search' ? [s.query] : []));
}

function choices(queryPlan: MultiStepQueryPlan): unknown {
  return (queryPlan.raw as { choices?: unknown }).choices;
}

describe('rule-based planner: seed 002 cases', () => {
  it('asks which region when shipping answers differ by region and the question names none', () => {
    const queryPlan = plan('送料は？');
    expect(queryPlan.needsClarification).toBe(true);
    expect(queryPlan.confidence).toBe('low');
    expect(queryPlan.language).toBe('ja');
    expect(queryPlan.steps.map((s) => s.type)).toEqual(['clarify']);
    expect(queryPlan.steps[0]?.id).toBe('step_clarify_1');
    expect(queryPlan.clarifyingQuestions).toEqual(['地域によってご案内が異なります。どの地域についてですか？（本州、北海道、沖縄・離島）']);
    expect(choices(queryPlan)).toEqual(['本州', '北海道', '沖縄・離島']);
  });

  it('searches directly when the question names the region', () => {
    const queryPlan = plan('北海道への送料を教えてください');
    expect(queryPlan.needsClarification).toBe(false);
    expect(queryPlan.confidence).toBe('high');
    expect(queryPlan.steps).toEqual([
      { id: 'step_search_1', type: 'search', description: '北海道への送料を教えてください', query: '北海道 送料', topK: 5 },
      expect.objectContaining({ id: 'step_answer_1', type: 'answer', style: 'faq', includeSources: true }),
    ]);
  });

  it('turns "じゃあ返品ポリシーも知りたい" after a shipping exchange into a follow-up search for the new topic only', () => {
    const history = exchange('北海道への送料を教えてください', '北海道への送料は800円です。');
    const queryPlan = plan('じゃあ返品ポリシーも知りたい', history);
    expect(queryPlan.needsClarification).toBe(false);
    expect(queryPlan.confidence).toBe('medium');
    expect(queryPlan.steps[0]).toMatchObject({
      id: 'step_followup_1',
      type: 'followup_search',
      basedOn: 'user',
      query: '返品 ポリシー',
      topK: 5,
    });
    expect(queryPlan.steps.at(-1)?.type).toBe('answer');
    expect(queryPlan.followupQueries).toEqual(['返品 ポリシー']);
  });
});

describe('rule-based planner: clarification', () => {
  it('combines the answer to a clarifying question with the question it was about', () => {
    const history = exchange('送料は？', 'どの地域についてですか？');
    const queryPlan = plan('北海道', history);
    expect(queryPlan.needsClarification).toBe(false);
    expect(queryPlan.steps[0]).toMatchObject({ type: 'followup_search', basedOn: 'user', query: '北海道 送料' });
    expect((queryPlan.raw as { rules: string[] }).rules).toContain('answer_to_clarification');
  });

  it('accepts a clicked choice that the analyzer alone would drop ("US" is an English stop word)', () => {
    const history = exchange('How much is shipping?', 'Which region?');
    expect(history[1]?.plan?.needsClarification).toBe(true);
    const queryPlan = plan('US', history);
    expect(queries(queryPlan)).toEqual(['US shipping']);
  });

  it('treats a reply naming none of the choices, with a topic of its own, as a new question', () => {
    const history = exchange('送料は？', 'どの地域についてですか？');
    const queryPlan = plan('ギフト包装の料金を教えて', history);
    expect(queries(queryPlan)).toEqual(['ギフト 包装 料金']);
    expect((queryPlan.raw as { rules: string[] }).rules).not.toContain('answer_to_clarification');
  });

  it('offers the topics a one-word question spans as choices', () => {
    const queryPlan = plan('ギフト');
    expect(queryPlan.needsClarification).toBe(true);
    expect(queryPlan.clarifyingQuestions?.[0]).toBe('「ギフト」について、どの内容をお知りになりたいですか？（包装、配送）');
    expect(choices(queryPlan)).toEqual(['包装', '配送']);
  });

  it('asks what the user wants to know when the message has no subject', () => {
    expect(plan('教えて').clarifyingQuestions).toEqual(['どのようなことについてお知りになりたいですか？']);
    const en = plan('help?');
    expect(en).toMatchObject({
      needsClarification: true,
      confidence: 'low',
      language: 'en',
      clarifyingQuestions: ['What would you like to know about?'],
    });
    expect(choices(en)).toEqual([]);
  });

  it('asks which region in English, with the facet key as the tag writes it', () => {
    const queryPlan = plan('How much is shipping?');
    expect(queryPlan.clarifyingQuestions).toEqual(['The answer depends on the region. Which region: US, Europe, Asia?']);
    expect(choices(queryPlan)).toEqual(['US', 'Europe', 'Asia']);
  });

  it('keeps a region named only as an upper-case stop word in the search query', () => {
    const queryPlan = plan('How much is shipping to the US?');
    expect(queryPlan.needsClarification).toBe(false);
    expect(queries(queryPlan)).toEqual(['shipping US']);
    // "tell us" is not the US.
    expect(plan('Can you tell us about shipping?').needsClarification).toBe(true);
  });

  it('writes the clarifying question in the requested language, not the message script', () => {
    const queryPlan = planRuleBased({ ...input('送料は？'), language: 'en' }, { analyzer, corpus });
    expect(queryPlan.language).toBe('en');
    expect(queryPlan.clarifyingQuestions).toEqual(['The answer depends on the 地域. Which 地域: 本州, 北海道, 沖縄・離島?']);
  });
});

describe('rule-based planner: compound questions', () => {
  it('splits the seed example into one search per part, sharing の条件', () => {
    const queryPlan = plan('ギフト配送と領収書発行の条件をまとめて教えて');
    expect(queryPlan.needsClarification).toBe(false);
    expect(queryPlan.confidence).toBe('medium');
    expect(queryPlan.steps.map((s) => s.id)).toEqual(['step_search_1', 'step_search_2', 'step_answer_1']);
    expect(queries(queryPlan)).toEqual(['ギフト 配送 条件', '領収書 発行 条件']);
    expect(queryPlan.followupQueries).toEqual(['ギフト 配送 条件', '領収書 発行 条件']);
  });

  it('shares a modifier before the coordination and splits on や, ・, 及び and 、', () => {
    expect(queries(plan('北海道への送料と手数料を教えて'))).toEqual(['北海道 送料', '北海道 手数料']);
    expect(queries(plan('返品や交換について'))).toEqual(['返品', '交換']);
    expect(queries(plan('ギフト配送・領収書発行の条件'))).toEqual(['ギフト 配送 条件', '領収書 発行 条件']);
    expect(queries(plan('配送料金及び返品条件'))).toEqual(['配送 料金', '返品 条件']);
    expect(queries(plan('送料、返品、支払い方法について'))).toEqual(['送料', '返品', '支払い 方法']);
  });

  it('does not split on と as a case particle or on a comma between clauses', () => {
    expect(queries(plan('友達と一緒に買いたい'))).toEqual(['友達 一緒 買い']);
    expect(queries(plan('北海道ですが、送料は？'))).toEqual(['北海道 送料']);
  });

  it('splits English coordinations, sharing only a plural head', () => {
    expect(queries(plan('What are your shipping time and return policy?'))).toEqual(['shipping time', 'return policy']);
    expect(queries(plan('shipping and return policies'))).toEqual(['shipping policies', 'return policies']);
    expect(queries(plan('conditions for gift wrapping and receipts'))).toEqual(['gift wrapping conditions', 'receipts conditions']);
    expect(queries(plan('gift wrapping as well as receipts'))).toEqual(['gift wrapping', 'receipts']);
  });

  it('does not split English clauses joined by "and"', () => {
    expect(plan('I returned the item and it has not been refunded').steps.filter((s) => s.type === 'search')).toHaveLength(1);
  });
});

describe('rule-based planner: follow-ups', () => {
  it('carries the topic over when the follow-up names only another region', () => {
    const history = exchange('北海道への送料は？', '北海道への送料は800円です。');
    const queryPlan = plan('沖縄は？', history);
    expect(queryPlan.steps[0]).toMatchObject({ type: 'followup_search', basedOn: 'user', query: '沖縄 送料' });
    expect((queryPlan.raw as { rules: string[] }).rules).toContain('carry_topic');
  });

  it('carries the topic over in English, replacing the previous region', () => {
    const history = exchange('How much is shipping to the US?', 'Shipping to the US costs $10.');
    expect(queries(plan('What about Europe?', history))).toEqual(['europe shipping']);
    expect(queries(plan('And Asia?', history))).toEqual(['asia shipping']);
  });

  it('bases a question about the answer itself on the previous answer', () => {
    const history = exchange('返品ポリシーを教えて', '返品は商品到着後30日以内です。');
    const ja = plan('それはいつまで？', history);
    expect(ja.steps[0]).toMatchObject({ type: 'followup_search', basedOn: 'previous_answer', query: '返品 ポリシー' });
    const en = plan('how long is that?', exchange('What is your return policy?', 'Within 30 days.'));
    expect(en.steps[0]).toMatchObject({ type: 'followup_search', basedOn: 'previous_answer' });
    expect(en.steps[0]).toHaveProperty('query', expect.stringContaining('return policy'));
  });

  it('keeps the borrowed subject through a chain of follow-ups', () => {
    const first = exchange('北海道への送料は？', '800円です。');
    const second = plan('それはいつ届く？', first);
    expect(second.steps[0]).toMatchObject({ basedOn: 'previous_answer', query: '届く 北海道 送料' });
    const history: PlannerHistoryEntry[] = [
      ...first,
      { role: 'user', content: 'それはいつ届く？' },
      { role: 'assistant', content: '2日後です。', plan: second },
    ];
    expect(queries(plan('沖縄は？', history))).toEqual(['沖縄 送料']);
  });

  it('follows up on English markers with the new topic only', () => {
    const history = exchange('How much is shipping to Europe?', 'Shipping to Europe costs $15.');
    const queryPlan = plan('What about the return policy?', history);
    expect(queryPlan.steps[0]).toMatchObject({ type: 'followup_search', basedOn: 'user', query: 'return policy' });
  });

  it('fills in a region named earlier in the dialog instead of asking again', () => {
    const history = exchange('返品ポリシーを教えて', '30日以内です。', exchange('北海道への送料は？', '800円です。'));
    const queryPlan = plan('あと送料も', history);
    expect(queryPlan.needsClarification).toBe(false);
    expect(queries(queryPlan)).toEqual(['送料 北海道']);
  });

  it('still asks which region when the follow-up topic depends on one nobody named', () => {
    const history = exchange('返品ポリシーを教えて', '30日以内です。');
    const queryPlan = plan('じゃあ送料も', history);
    expect(queryPlan.needsClarification).toBe(true);
    expect((queryPlan.raw as { pendingQuery?: string }).pendingQuery).toBe('送料');
  });

  it('does not treat a new, complete question after an exchange as a follow-up', () => {
    const history = exchange('北海道への送料は？', '800円です。');
    const queryPlan = plan('ギフト包装はできますか', history);
    expect(queryPlan.steps[0]).toMatchObject({ type: 'search', query: 'ギフト 包装' });
    expect(queryPlan.confidence).toBe('high');
  });
});

describe('LLM planner prompts', () => {
  it('sends the seed system prompt and the user template with the history newest first', () => {
    const history: PlannerHistoryEntry[] = [
      { role: 'user', content: '北海道への送料は？' },
      { role: 'assistant', content: '送料は地域と商品サイズにより異なります。通常は本州500円、北海道800円です。' },
    ];
    const [system, user] = buildLlmPlannerMessages(input('じゃあ返品ポリシーも知りたい', history));
    expect(system?.role).toBe('system');
    expect(system?.content).toContain(PLANNER_SYSTEM_PROMPT);
    expect(system?.content).toContain('あなたは EC / コマース FAQ 検索の「プランナー」です。');
    expect(system?.content).toContain('"needsClarification": boolean');
    expect(user?.role).toBe('user');
    expect(user?.content).toContain('## 現在のユーザー質問\nじゃあ返品ポリシーも知りたい');
    expect(user?.content).toContain(
      '## 会話履歴（新しい順）\nassistant: 送料は地域と商品サイズにより異なります。通常は本州500円、北海道800円です。\nuser: 北海道への送料は？',
    );
  });

  it('says so when there is no history', () => {
    expect(buildLlmPlannerMessages(input('送料は？'))[1]?.content).toContain('## 会話履歴（新しい順）\n（なし）');
  });
});

const SEED_PLAN_JSON = JSON.stringify({
  steps: [
    { id: 'step_search_1', type: 'search', description: 'ギフト配送の条件を検索', query: 'ギフト配送 条件' },
    { id: 'step_search_2', type: 'search', description: '領収書発行の条件を検索', query: '領収書 発行 条件', topK: 3, filters: null },
    { id: 'step_answer_1', type: 'answer', description: '2 つの条件をまとめて回答' },
  ],
  needsClarification: false,
  followupQueries: ['ギフト配送 条件', '領収書 発行 条件'],
  confidence: 'high',
  language: 'ja',
});

/** A provider that replays one scripted reply (or failure) and records what it was asked. */
function scriptedLlm(reply: string | null | Error): LlmProvider & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    name: 'scripted',
    requests,
    async chat(req: ChatRequest): Promise<ChatResponse> {
      requests.push(req);
      if (reply instanceof Error) throw reply;
      return { content: reply, toolCalls: [], usage: { promptTokens: 0, completionTokens: 0 }, model: req.model };
    },
  };
}

describe('planMultiStepQuery with the LLM planner', () => {
  const compound = 'ギフト配送と領収書発行の条件をまとめて教えて';

  it('maps the LLM plan, filling topK, answer style and sources', async () => {
    const llm = scriptedLlm(SEED_PLAN_JSON);
    const { plan: queryPlan, meta } = await planMultiStepQuery(input(compound, [], 8), {
      analyzer,
      corpus,
      useLlmPlanner: true,
      llm,
      model: 'test-model',
    });
    expect(meta).toEqual({ planner: 'llm' });
    expect(queryPlan.steps).toEqual([
      { id: 'step_search_1', type: 'search', description: 'ギフト配送の条件を検索', query: 'ギフト配送 条件', topK: 8 },
      { id: 'step_search_2', type: 'search', description: '領収書発行の条件を検索', query: '領収書 発行 条件', topK: 3, filters: null },
      { id: 'step_answer_1', type: 'answer', description: '2 つの条件をまとめて回答', style: 'faq', includeSources: true },
    ]);
    expect(queryPlan).toMatchObject({
      needsClarification: false,
      confidence: 'high',
      language: 'ja',
      followupQueries: ['ギフト配送 条件', '領収書 発行 条件'],
    });
    expect(queryPlan.raw).toEqual(JSON.parse(SEED_PLAN_JSON));
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]).toMatchObject({ agent: 'planner', model: 'test-model', tools: [] });
    expect(llm.requests[0]?.messages).toEqual(buildLlmPlannerMessages(input(compound, [], 8)));
  });

  it('accepts JSON inside a code fence', async () => {
    const llm = scriptedLlm('```json\n' + SEED_PLAN_JSON + '\n```');
    const { meta } = await planMultiStepQuery(input(compound), { analyzer, corpus, useLlmPlanner: true, llm, model: 'm' });
    expect(meta.planner).toBe('llm');
  });

  it('falls back to the rule planner on broken JSON', async () => {
    const llm = scriptedLlm('{"steps": [ {"id": "step_search_1", ');
    const { plan: queryPlan, meta } = await planMultiStepQuery(input(compound), { analyzer, corpus, useLlmPlanner: true, llm, model: 'm' });
    expect(meta.planner).toBe('rule');
    expect(meta.fallback?.reason).toBe('unparsable_json');
    expect(queries(queryPlan)).toEqual(['ギフト 配送 条件', '領収書 発行 条件']);
  });

  it('falls back when a search step has no query', async () => {
    const broken = JSON.stringify({ steps: [{ id: 'step_search_1', type: 'search' }], needsClarification: false, confidence: 'high' });
    const { meta } = await planMultiStepQuery(input('送料は？'), {
      analyzer,
      corpus,
      useLlmPlanner: true,
      llm: scriptedLlm(broken),
      model: 'm',
    });
    expect(meta.fallback?.reason).toBe('invalid_plan');
    expect(meta.fallback?.detail).toContain('steps.0.query');
  });

  it('falls back when the provider throws, and when none is configured', async () => {
    const failing = await planMultiStepQuery(input('送料は？'), {
      analyzer,
      corpus,
      useLlmPlanner: true,
      llm: scriptedLlm(new Error('HTTP 503')),
      model: 'm',
    });
    expect(failing.meta).toEqual({ planner: 'rule', fallback: { reason: 'llm_error', detail: 'Error: HTTP 503' } });
    expect(failing.plan.needsClarification).toBe(true);
    const missing = await planMultiStepQuery(input('送料は？'), { analyzer, corpus, useLlmPlanner: true });
    expect(missing.meta.fallback?.reason).toBe('llm_unavailable');
  });

  it('falls back on an empty reply', async () => {
    const { meta } = await planMultiStepQuery(input('送料は？'), {
      analyzer,
      corpus,
      useLlmPlanner: true,
      llm: scriptedLlm(null),
      model: 'm',
    });
    expect(meta.fallback).toEqual({ reason: 'unparsable_json', detail: 'empty response' });
  });

  it('rethrows when the caller aborted instead of planning for nobody', async () => {
    const ac = new AbortController();
    ac.abort(new Error('client went away'));
    const llm = scriptedLlm(new Error('aborted'));
    await expect(
      planMultiStepQuery(input('送料は？'), { analyzer, corpus, useLlmPlanner: true, llm, model: 'm', signal: ac.signal }),
    ).rejects.toThrow('aborted');
  });

  it('uses the rule planner without calling the LLM when useLlmPlanner is false', async () => {
    const llm = scriptedLlm(SEED_PLAN_JSON);
    const { meta } = await planMultiStepQuery(input('送料は？'), { analyzer, corpus, useLlmPlanner: false, llm, model: 'm' });
    expect(meta).toEqual({ planner: 'rule' });
    expect(llm.requests).toHaveLength(0);
  });
});

describe('parseLlmPlan', () => {
  it('keeps the flag and the clarify steps consistent (seed crew example: clarify plus searches)', () => {
    const text = JSON.stringify({
      steps: [
        { id: 'step_search_1', type: 'search', query: 'ギフト配送 条件', topK: 5 },
        { id: 'step_answer_1', type: 'answer', style: 'faq', includeSources: true },
      ],
      needsClarification: true,
      clarifyingQuestions: ['ギフト配送と領収書発行のどちらを優先して知りたいですか？'],
      confidence: 'high',
    });
    const parsed = parseLlmPlan(text, input('ギフト配送と領収書発行の条件をまとめて教えて'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.plan.steps.map((s) => s.type)).toEqual(['clarify', 'search', 'answer']);
    expect(parsed.plan.steps[0]).toMatchObject({ questions: ['ギフト配送と領収書発行のどちらを優先して知りたいですか？'] });
    expect(parsed.plan.language).toBe('ja');
  });

  it('marks a plan with a clarify step as needing clarification even when the flag says otherwise', () => {
    const text = JSON.stringify({
      steps: [{ id: 'c', type: 'clarify', questions: ['どの商品ですか？'] }],
      needsClarification: false,
      confidence: 'low',
    });
    const parsed = parseLlmPlan(text, input('教えて'));
    expect(parsed).toMatchObject({ ok: true, plan: { needsClarification: true, clarifyingQuestions: ['どの商品ですか？'] } });
  });

  it('appends an answer step to a plan that searches without one, and renumbers repeated ids', () => {
    const text = JSON.stringify({
      steps: [
        { id: 'step_1', type: 'followup_search', basedOn: 'user', query: '返品 ポリシー' },
        { id: 'step_1', type: 'search', query: '返品' },
      ],
      needsClarification: false,
      confidence: 'medium',
    });
    const parsed = parseLlmPlan(text, input('じゃあ返品ポリシーも知りたい'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.plan.steps.map((s) => s.id)).toEqual(['step_followup_1', 'step_search_1', 'step_answer_1']);
    expect(parsed.plan.followupQueries).toEqual(['返品 ポリシー']);
  });

  it('refuses a plan with nothing to do and clarification without questions', () => {
    const answerOnly = JSON.stringify({ steps: [{ id: 'a', type: 'answer' }], needsClarification: false, confidence: 'high' });
    expect(parseLlmPlan(answerOnly, input('送料は？'))).toMatchObject({ ok: false, reason: 'invalid_plan' });
    const noQuestions = JSON.stringify({ steps: [{ id: 'a', type: 'answer' }], needsClarification: true, confidence: 'low' });
    expect(parseLlmPlan(noQuestions, input('送料は？'))).toMatchObject({ ok: false, reason: 'invalid_plan' });
  });

  it('takes the object out of a sentence around it', () => {
    expect(parseLlmPlan(`Here is the plan: ${SEED_PLAN_JSON}`, input('x')).ok).toBe(true);
  });
});

describe('a close call between two entries', () => {
  const CARDS: FaqDocument[] = [
    { id: 'renew', question: 'How do I renew my travel card?', answer: 'Renew it online before it expires.', tags: [], language: 'en' },
    {
      id: 'replace',
      question: 'How do I replace my travel card?',
      answer: 'Report it lost and order a new one.',
      tags: [],
      language: 'en',
    },
    { id: 'fares', question: 'How are fares calculated?', answer: 'By zones travelled and the time of day.', tags: [], language: 'en' },
  ];
  // The engine's ranking, and a confidence set by the test: the rule is the planner's, the confidence the engine's (search.test.ts).
  const withConfidence = async (sure: number): Promise<PlannerCorpus> => {
    const index = await createFaqIndex(CARDS);
    return { probe: (query, topK) => index.search(query, { topK }), confidence: () => sure, abstainBelow: 0.3 };
  };

  it('asks which of the two questions is meant when the best hit is unsure and the next scores nearly as well', async () => {
    const unsure = planRuleBased(input('travel card'), { analyzer, corpus: await withConfidence(0.5) });
    expect(unsure.needsClarification).toBe(true);
    expect(unsure.raw).toMatchObject({
      rules: ['clarify_close_call'],
      choices: ['How do I renew my travel card', 'How do I replace my travel card'],
    });
    expect(unsure.clarifyingQuestions?.[0]).toBe(
      'Which of these do you mean: How do I renew my travel card / How do I replace my travel card?',
    );
  });

  it('answers when sure, when too unsure to answer at all (the search abstains), or when the second is far behind', async () => {
    for (const sure of [0.9, 0.1])
      expect(planRuleBased(input('travel card'), { analyzer, corpus: await withConfidence(sure) }).needsClarification).toBe(false);
    // "renew" tells the two apart: the second hit is far behind.
    expect(planRuleBased(input('renew travel card online'), { analyzer, corpus: await withConfidence(0.5) }).needsClarification).toBe(
      false,
    );
    // A corpus that does not calibrate never gets the question.
    const { probe } = await withConfidence(0.5);
    expect(planRuleBased(input('travel card'), { analyzer, corpus: { probe } }).needsClarification).toBe(false);
  });
});
