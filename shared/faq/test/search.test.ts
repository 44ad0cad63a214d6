import { beforeAll, describe, expect, it } from 'vitest';
import {
  abstentionMessage,
  confidentGroups,
  createBm25Baseline,
  createEngine,
  createFaqIndex,
  type FaqSearchIndex,
  select,
} from '@convo/faq';
import type { FaqDocument } from '@convo/contract';
import { generalSynonyms, parseSynonymGroups } from '@convo/faq/internal/search/synonyms';

const doc = (id: string, language: 'ja' | 'en', question: string, answer: string, tags: string[] = []): FaqDocument => ({
  id,
  language,
  question,
  answer,
  tags,
});

/** A small shop FAQ in both languages, written for these tests. */
const CORPUS: FaqDocument[] = [
  doc(
    'ja-ship-fee',
    'ja',
    '送料はいくらですか？',
    '送料は全国一律550円です。北海道・沖縄・離島は1,100円となります。5,000円以上のご注文で送料無料です。',
    ['配送', '地域:北海道'],
  ),
  doc(
    'ja-ship-days',
    'ja',
    '注文してから何日で届きますか？',
    '通常、ご注文確定後2〜3営業日以内に発送いたします。お届けまでは発送から1〜2日が目安です。',
    ['配送'],
  ),
  doc(
    'ja-return',
    'ja',
    '返品はできますか？',
    '商品到着後30日以内であれば、未使用品に限り返品を承ります。マイページの注文履歴から返品申請してください。',
    ['返品'],
  ),
  doc('ja-refund', 'ja', '返金はいつ頃されますか？', '返品商品の到着を確認後、7営業日以内にご指定の支払方法へ返金いたします。', ['返金']),
  doc(
    'ja-cancel',
    'ja',
    '注文をキャンセルしたい',
    '発送前であればマイページの注文履歴からキャンセルできます。発送後のキャンセルはお受けできません。',
    ['注文'],
  ),
  doc(
    'ja-gift',
    'ja',
    'ギフトラッピングはできますか？',
    'ご注文時に「ギフト包装」を選択いただくと、1点につき330円でラッピングいたします。のしも承ります。',
    ['ギフト'],
  ),
  doc('ja-receipt', 'ja', '領収書は発行できますか？', '商品発送後、マイページの注文履歴から領収書をPDFでダウンロードいただけます。', [
    '領収書',
  ]),
  doc('ja-pay', 'ja', '支払い方法は何がありますか？', 'クレジットカード、コンビニ払い、銀行振込、代金引換、PayPayがご利用いただけます。', [
    '支払い',
  ]),
  doc(
    'ja-password',
    'ja',
    'パスワードを忘れてしまいました',
    'ログイン画面の「パスワードをお忘れの方」から再設定用のリンクをお送りします。',
    ['アカウント'],
  ),
  doc(
    'en-ship-fee',
    'en',
    'How much is shipping?',
    'Standard shipping is $5.99 for orders under $50. Orders of $50 or more ship for free.',
    ['shipping'],
  ),
  doc(
    'en-ship-days',
    'en',
    'How long does delivery take?',
    'Orders are dispatched within 1-2 business days and usually arrive within 3-5 business days.',
    ['shipping'],
  ),
  doc(
    'en-return',
    'en',
    'What is your return policy?',
    'You can return unused items within 30 days of delivery. Start a return from the Orders page.',
    ['returns'],
  ),
  doc(
    'en-refund',
    'en',
    'When will I get my refund?',
    'Refunds are issued to the original payment method within 5-7 business days after we receive the returned item.',
    ['refunds'],
  ),
  doc('en-cancel', 'en', 'How do I cancel my order?', 'Orders can be cancelled from your account until they are shipped.', ['orders']),
  doc(
    'en-gift',
    'en',
    'Do you offer gift wrapping?',
    'Yes, select gift wrapping at checkout for $4 per item. You can also add a message card.',
    ['gifts'],
  ),
  doc('en-pay', 'en', 'Which payment methods do you accept?', 'We accept Visa, Mastercard, PayPal, PayPay and Apple Pay.', ['payment']),
  doc(
    'en-password',
    'en',
    'I forgot my password',
    'Click "Forgot password" on the sign-in page and we will email you a link to reset it.',
    ['account'],
  ),
];

const ids = (index: FaqSearchIndex, query: string, topK = 3, language?: 'ja' | 'en' | 'auto') =>
  index.search(query, { topK, language }).map((h) => h.id);

describe('createFaqIndex', () => {
  let index: FaqSearchIndex;
  beforeAll(async () => {
    index = await createFaqIndex(CORPUS);
  });

  it.each([
    ['北海道への送料を教えてください', 'ja-ship-fee'],
    ['何日くらいで届く？', 'ja-ship-days'],
    ['注文を取り消したい', 'ja-cancel'],
    ['How long does delivery take?', 'en-ship-days'],
    ['cancel my order', 'en-cancel'],
    ['return policy', 'en-return'],
  ])('finds the FAQ a plain question asks for: %s', (query, want) => {
    expect(ids(index, query)[0]).toBe(want);
  });

  it.each([
    ['how much is shiping', 'en-ship-fee'],
    ['refnd', 'en-refund'],
    ['when do I recieve the refund', 'en-refund'],
    ['forgot pasword', 'en-password'],
  ])('finds the FAQ despite a misspelling: %s', (query, want) => {
    expect(ids(index, query)[0]).toBe(want);
  });

  it.each([
    ['ｷﾞﾌﾄ', 'ja-gift'],
    ['ＧＩＦＴ wrapping', 'en-gift'],
    ['ぎふと', 'ja-gift'],
    ['りょうしゅうしょ', 'ja-receipt'],
    ['ぱすわーど', 'ja-password'],
  ])('folds full/half width and kana spellings: %s', (query, want) => {
    expect(ids(index, query)[0]).toBe(want);
  });

  // General resources, not a shop lexicon: Sudachi's synonym groups (解約 ~ キャンセル, サインイン ~ ログイン).
  it.each([
    ['注文を解約したい', 'ja-cancel'],
    ['サインイン用のパスワードを忘れた', 'ja-password'],
  ])('bridges a paraphrase through a general synonym dictionary: %s', (query, want) => {
    expect(ids(index, query, 3)).toContain(want);
  });

  it('shows which synonyms a query was expanded to, only those some document holds', () => {
    expect(index.expansions?.('注文を解約したい')).toEqual(
      expect.arrayContaining([{ word: '解約', synonyms: expect.arrayContaining(['キャンセル']) }]),
    );
  });

  it('expands English words through WordNet only when asked: measured, it did not help English sets', async () => {
    expect(index.expansions?.('will you repay me')).toEqual([]);
    const withWordNet = await createEngine(CORPUS, {}, generalSynonyms({ english: true }));
    expect(withWordNet.expansions?.('will you repay me')).toEqual([{ word: 'repai', synonyms: ['refund', 'return'] }]);
    expect(ids(withWordNet, 'will you repay me')).toContain('en-refund');
  });

  it("takes a deployment's own synonym groups before the general ones", async () => {
    const groups = parseSynonymGroups('# shop words\n戻し金、返金\nreimbursement, refund, money back\npresent, gift\n');
    const custom = await createFaqIndex(CORPUS, { synonymGroups: groups });
    expect(ids(custom, '戻し金はいつ')).toContain('ja-refund');
    expect(ids(custom, 'reimbursement please')).toContain('en-refund');
    expect(ids(custom, 'Can I send it as a present?')).toContain('en-gift');
    expect(ids(index, 'Can I send it as a present?')).not.toContain('en-gift');
  });

  it('returns both FAQs of a compound question', () => {
    expect(ids(index, 'ギフト配送と領収書発行の条件', 3)).toEqual(expect.arrayContaining(['ja-gift', 'ja-receipt']));
  });

  it('does not let an aspect word ("の条件", "policy") outweigh the topic it is asked about', async () => {
    const docs = [
      doc('free-shipping', 'ja', '送料無料になる条件はありますか？', '5,000円以上のご注文で送料無料でお届けします。', ['送料']),
      doc('gift-address', 'ja', '注文者と異なる住所に届けられますか？', 'お届け先には別の住所を指定できます。', ['ギフト', '配送']),
      doc('gift-wrap', 'ja', 'ギフトラッピングはできますか？', '1点につき330円で承ります。', ['ギフト']),
    ];
    const small = await createFaqIndex(docs);
    expect(ids(small, 'ギフト 配送 条件', 3)[0]).toBe('gift-address');
    // Still a word of the query: with the topic matched equally, the entry about conditions wins.
    expect(ids(small, '送料無料の条件', 3)[0]).toBe('free-shipping');
    const plain = await createEngine(docs, { aspectWeight: 1 });
    expect(ids(plain, 'ギフト 配送 条件', 3)[0]).toBe('free-shipping');
  });

  it('tells compounds that share a word apart (保険証 / 保険料 / 保険者), but not across a space', async () => {
    const docs = [
      doc('card', 'ja', '保険証をなくしたとき', '再交付の申請をしてください。', []),
      doc('premium', 'ja', '保険料の納付について', '保険料は毎月の給与から差し引かれます。', []),
      doc('insurer', 'ja', '保険者の変更について', '転職すると保険者が変わります。', []),
    ];
    const small = await createFaqIndex(docs);
    expect(ids(small, '保険証', 3)[0]).toBe('card');
    expect(ids(small, 'ほけん料', 3)).toContain('premium');
    expect(ids(small, '保険者', 3)[0]).toBe('insurer');
    expect(ids(small, '保険料いくら', 3)[0]).toBe('premium');
    // Words typed apart are two words, not the compound 保険納付.
    const { textFeatures } = await import('@convo/faq/internal/search/features');
    const { loadAnalyzer } = await import('@convo/text');
    const analyzer = await loadAnalyzer();
    expect(textFeatures(analyzer, '保険 納付').compounds).toEqual([]);
    expect(textFeatures(analyzer, '保険証の再交付').compounds).toEqual(['保険証', '再交付']);
  });

  describe('on long public-service answers', () => {
    const pension = (id: string, question: string, answer: string) => doc(id, 'ja', question, answer);
    // Unrelated entries, so that the words the tested entries share are not in a quarter of the corpus.
    const fillers = [
      '国民年金の保険料の納付',
      '口座振替の申込',
      '学生納付特例',
      '免除の申請',
      '年金手帳の再交付',
      '源泉徴収票の再発行',
      'ねんきん定期便の見方',
      '繰下げ受給',
      '加入記録の確認',
      '電話相談の受付時間',
    ].map((title, i) => pension(`filler-${i}`, title, `${title}については窓口でご案内します。`));
    const corpus = [
      pension('pension-amount', '年金はいくらもらえますか', '老齢基礎年金の額は保険料を納めた月数で決まります。'),
      pension('survivor', '遺族年金はもらえますか', '亡くなった方に生計を維持されていた家族が受け取れます。'),
      pension('spouse', '加給年金はもらえますか', '65歳未満の配偶者がいる場合に加算されます。'),
      pension('disability', '障害の状態になったとき', 'うつ病などの精神の障害も対象になります。初診日の要件があります。'),
      pension(
        'refund-foreign',
        '脱退一時金とは',
        '日本に住所がなくなった外国籍の方は、帰国後2年以内に請求できます。請求書に年金手帳を添えて提出してください。',
      ),
      pension('return-home', '出国するときの手続き', '外国籍の方が帰国するときは、請求書と年金手帳を用意し、2年以内に提出してください。'),
      ...fillers,
    ];

    it('weighs a verb every title shares (もらえる) below the thing asked about', async () => {
      expect(ids(await createFaqIndex(corpus), 'うつ病でも もらえる？', 3)[0]).toBe('disability');
      // At a noun's weight, the titles that share the verb come first.
      expect(ids(await createEngine(corpus, { predicateWeight: 1 }), 'うつ病でも もらえる？', 3)[0]).not.toBe('disability');
    });

    it("reaches an entry in other words through the best entry's typical words (pseudo-relevance feedback)", async () => {
      expect(ids(await createFaqIndex(corpus), '脱退一時金', 5)).toEqual(['refund-foreign', 'return-home']);
      expect(ids(await createEngine(corpus, { feedback: { docs: 5, terms: 10, weight: 0 } }), '脱退一時金', 5)).toEqual(['refund-foreign']);
    });
  });

  it('ranks a match in the question above a match only in the answer', async () => {
    const small = await createFaqIndex([
      doc(
        'answer-only',
        'en',
        'Can my watch be repaired?',
        'Repairs are free during the warranty period, which lasts one year from purchase.',
      ),
      doc('in-question', 'en', 'What is the warranty period?', 'One year from the date of purchase for every product we sell.'),
    ]);
    expect(ids(small, 'warranty period', 2)).toEqual(['in-question', 'answer-only']);
  });

  it('returns hits best first with positive scores, at most topK', () => {
    const hits = index.search('送料', { topK: 2 });
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(hits.every((h) => h.score > 0)).toBe(true);
    expect(index.search('送料', { topK: 1 })).toHaveLength(1);
    expect(hits[0]).toMatchObject({ id: 'ja-ship-fee', question: '送料はいくらですか？', language: 'ja', tags: ['配送', '地域:北海道'] });
  });

  it.each(['', '   ', '？！…', '!!! ???', 'の は を'])('returns nothing for a query with nothing to match: %j', (query) => {
    expect(index.search(query, { topK: 5 })).toEqual([]);
  });

  it('prefers the requested language without filtering the other out', () => {
    expect(ids(index, 'PayPay', 1, 'ja')).toEqual(['ja-pay']);
    expect(ids(index, 'PayPay', 1, 'en')).toEqual(['en-pay']);
    // 'auto' takes the query's language: Latin letters only, so English.
    expect(ids(index, 'PayPay', 1, 'auto')).toEqual(['en-pay']);
    // Only an English FAQ mentions Apple Pay: a Japanese preference still finds it.
    expect(ids(index, 'Apple Pay', 1, 'ja')).toEqual(['en-pay']);
  });

  it('gives the same results whatever order the documents were added in', async () => {
    const reversed = await createFaqIndex([...CORPUS].reverse());
    for (const query of ['送料', 'refund', 'ギフト 領収書', 'order']) {
      expect(reversed.search(query, { topK: 5 })).toEqual(index.search(query, { topK: 5 }));
    }
  });
});

describe('FaqSearchIndex updates', () => {
  it('upsert replaces a document by id, remove takes it out', async () => {
    const index = await createFaqIndex(CORPUS);
    expect(index.size).toBe(CORPUS.length);
    expect(index.has('ja-gift')).toBe(true);

    index.upsert([doc('ja-gift', 'ja', 'ポイントの有効期限はありますか？', '最後のご購入日から1年間有効です。', ['ポイント'])]);
    expect(index.size).toBe(CORPUS.length);
    expect(index.get('ja-gift')?.question).toBe('ポイントの有効期限はありますか？');
    expect(ids(index, 'ポイントの有効期限')[0]).toBe('ja-gift');
    expect(ids(index, 'ラッピング', 10)).not.toContain('ja-gift');

    index.upsert([doc('en-warranty', 'en', 'How long is the warranty?', 'Every product has a one-year warranty.')]);
    expect(index.size).toBe(CORPUS.length + 1);
    expect(ids(index, 'warranty')[0]).toBe('en-warranty');

    index.remove(['en-warranty', 'no-such-id']);
    expect(index.size).toBe(CORPUS.length);
    expect(index.has('en-warranty')).toBe(false);
    expect(index.get('en-warranty')).toBeUndefined();
    expect(ids(index, 'warranty', 10)).not.toContain('en-warranty');
  });

  it('keeps answering correctly after many replacements compact the index', async () => {
    const index = await createFaqIndex(CORPUS);
    for (let round = 0; round < 40; round++) index.upsert(CORPUS.map((d) => ({ ...d, answer: `${d.answer} (${round})` })));
    index.remove(['en-gift']);
    expect(index.size).toBe(CORPUS.length - 1);
    expect(ids(index, '送料はいくら')[0]).toBe('ja-ship-fee');
    expect(ids(index, 'gift wrapping', 10)).not.toContain('en-gift');
  });

  it('starts empty and finds what is added later', async () => {
    const index = await createFaqIndex();
    expect(index.size).toBe(0);
    expect(index.search('送料', { topK: 3 })).toEqual([]);
    index.upsert(CORPUS.slice(0, 2));
    expect(ids(index, '送料')[0]).toBe('ja-ship-fee');
  });
});

describe('select (the k-th score of a query without sorting them all)', () => {
  it('returns what a sort would put at the index, ties and all', () => {
    // Seeded so a failure reproduces; small values so ties are common.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 2000; round++) {
      const values = Float64Array.from({ length: 1 + Math.floor(next() * 60) }, () => Math.floor(next() * 8));
      const index = Math.floor(next() * values.length);
      const sorted = [...values].sort((a, b) => a - b);
      expect(select(Float64Array.from(values), index)).toBe(sorted[index]);
    }
  });
});

describe('createBm25Baseline', () => {
  it('finds exact-word matches in both languages and follows upsert and remove', async () => {
    const baseline = await createBm25Baseline(CORPUS);
    expect(baseline.size).toBe(CORPUS.length);
    expect(ids(baseline, '送料はいくらですか')[0]).toBe('ja-ship-fee');
    expect(ids(baseline, 'return policy?')[0]).toBe('en-return');
    expect(baseline.search('', { topK: 3 })).toEqual([]);

    baseline.remove(['en-return']);
    expect(ids(baseline, 'return policy', 10)).not.toContain('en-return');
    baseline.upsert([doc('en-return', 'en', 'Can I send an item back?', 'Yes, within 30 days.')]);
    expect(ids(baseline, 'send back')[0]).toBe('en-return');
  });

  it('is plain: no typo tolerance', async () => {
    const baseline = await createBm25Baseline(CORPUS);
    expect(ids(baseline, 'refnd')).toEqual([]);
  });
});

describe('createBm25Baseline over questions only', () => {
  it('matches the question and never the answer', async () => {
    const questions = await createBm25Baseline(CORPUS, 'question');
    expect(ids(questions, 'return policy')[0]).toBe('en-return');
    // "PayPal" is only in an answer: the question-only baseline cannot see it, the classic one can.
    expect(ids(questions, 'paypal')).toEqual([]);
    expect(ids(await createBm25Baseline(CORPUS), 'paypal')[0]).toBe('en-pay');
  });
});

describe('words as users write them', () => {
  const TRANSIT: FaqDocument[] = [
    doc('pushchair', 'en', 'Can I bring a pushchair on board?', 'Yes, folded or unfolded in the wheelchair space when it is free.'),
    doc('lost', 'en', 'How do I report lost property?', 'Fill in the lost property form within seven days.'),
    doc('email', 'en', 'How do I change my email address?', 'Open your account settings and edit the email address.'),
    doc('day', 'en', 'What is the family day pass?', 'A day pass for two adults and three children.'),
  ];
  let index: FaqSearchIndex;
  beforeAll(async () => {
    index = await createFaqIndex(TRANSIT);
  });

  it.each([
    ['push chair on the tram', 'pushchair'],
    ['change my e-mail', 'email'],
    ['change my e mail', 'email'],
    ['lostproperty', 'lost'],
    ['daypass for a family', 'day'],
  ])('finds a compound written apart or together the other way: %s', (query, want) => {
    expect(ids(index, query)[0]).toBe(want);
  });

  it('joins only into words the corpus has, and splits only unknown words', async () => {
    const plain = await createEngine(TRANSIT);
    // "lost property" is two corpus words: nothing is joined, and the result is the same as before.
    expect(ids(plain, 'lost property')[0]).toBe('lost');
    expect(plain.search('zzqx flurb', { topK: 3 }).every((hit) => hit.id !== 'lost' || hit.score < 0.2)).toBe(true);
  });
});

describe('question words as weak evidence', () => {
  const FEES: FaqDocument[] = [
    // Near duplicates, as FAQ pages have them: the same topic, a different question.
    doc('where', 'en', 'Where can I pay the fee?', 'At any branch counter or online.'),
    doc('when', 'en', 'When can I pay the fee?', 'From the first to the last day of the month.'),
    doc('ja-where', 'ja', '手数料はどこで支払えますか', '窓口またはオンラインで支払えます。'),
    doc('ja-when', 'ja', '手数料はいつまでに支払えばよいですか', '月末までにお支払いください。'),
  ];

  it.each([
    ['where do I pay the fee', 'where'],
    ['when do I pay the fee', 'when'],
    ['手数料 どこで払う', 'ja-where'],
    ['手数料 いつ払う', 'ja-when'],
  ])('tells entries on one topic apart by what is asked: %s', async (query, want) => {
    const index = await createEngine(FEES);
    expect(ids(index, query)[0]).toBe(want);
  });
});

describe('answer or abstain: the confidence of the best hit', () => {
  let index: FaqSearchIndex;
  beforeAll(async () => {
    index = await createFaqIndex(CORPUS);
  });
  const confidence = (query: string) => index.confidence!(query, index.search(query, { topK: 3 })[0]);

  it.each([
    'How much is shipping?',
    'what is your return policy',
    'I forgot my password',
    '送料はいくらですか？',
    '領収書は発行できますか',
  ])('is sure of a question the FAQ answers: %s', (query) => {
    expect(confidence(query)).toBeGreaterThanOrEqual(0.5);
  });

  it.each(['zzqx flurb', 'how do I bake sourdough bread', 'who won the football last night', '今日の天気は？', 'おすすめの映画ある?'])(
    'is unsure of a question the FAQ does not answer: %s',
    (query) => {
      expect(confidence(query)).toBeLessThan(0.3);
    },
  );

  it('is 0 without a hit, and ranks a full match above a partial one', () => {
    expect(index.confidence!('anything', undefined)).toBe(0);
    expect(confidence('how long does delivery take')).toBeGreaterThan(confidence('how long does a parcel to the moon take'));
  });

  it('is the same for the same corpus in any process (the null queries are seeded)', async () => {
    const again = await createFaqIndex([...CORPUS].reverse());
    for (const query of ['gift wrapping', 'ラッピング 料金', 'payment by card'])
      expect(again.confidence!(query, again.search(query, { topK: 1 })[0])).toBe(confidence(query));
  });

  it('draws the chance level again only after much of the corpus changed', async () => {
    const small = await createEngine(CORPUS.slice(0, 8));
    const before = small.confidence!('送料', small.search('送料', { topK: 1 })[0]);
    small.upsert(CORPUS.slice(8));
    const after = small.confidence!('送料', small.search('送料', { topK: 1 })[0]);
    expect(after).not.toBe(before);
  });
});

describe('abstentionMessage and confidentGroups', () => {
  it('asks to rephrase in the language, and names the configured contact', () => {
    expect(abstentionMessage('en')).toMatch(/rephrase/);
    expect(abstentionMessage('ja')).toMatch(/言い換え/);
    expect(abstentionMessage('en', 'call 0120-000-000 (9:00-17:00)')).toMatch(/rephrase.*contact us: call 0120-000-000 \(9:00-17:00\)$/);
    expect(abstentionMessage('ja', '市役所 03-0000-0000')).toMatch(/言い換え.*お問い合わせください：市役所 03-0000-0000$/);
  });

  it('keeps the searches whose best hit is confident; an uncalibrated search counts as confident when it has a hit', () => {
    const hit = { id: 'a', question: 'q', answer: 'a', score: 1, tags: [], language: 'en' as const };
    const groups = [
      { query: 'sure', hits: [hit], confidence: 0.8 },
      { query: 'unsure', hits: [hit], confidence: 0.1 },
      { query: 'plain', hits: [hit] },
      { query: 'nothing', hits: [] },
    ];
    expect(confidentGroups(groups, 0.3).map((group) => group.query)).toEqual(['sure', 'plain']);
    expect(confidentGroups(groups, 0).map((group) => group.query)).toEqual(['sure', 'unsure', 'plain']);
  });
});
