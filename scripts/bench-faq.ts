import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  createBaseline,
  createBm25Baseline,
  createEngine,
  createFaqIndex,
  DEFAULT_ENGINE_CONFIG as D,
  type EngineConfig,
  type FaqSearchIndex,
} from '@convo/faq';
import { loadAnalyzer, type Analyzer } from '@convo/text';
import type { FaqDocument } from '@convo/contract';
import { Api } from '../test/support/api.js';
import { HARNESS_ENV, REPO_ROOT, startStack } from '../test/support/processes.js';
import { ensureRedis } from './ensure-redis.js';

/**
 * `npm run bench:faq`: the FAQ engine on a synthetic shop FAQ of 10,000
 * documents (half Japanese, half English, from templates and random vocabulary,
 * seeded so every run sees the same corpus). Prints analyzer load, index
 * build, an incremental upsert of 100 documents, query latency for the engine
 * and the BM25 baseline, heap; then how often each variant finds the right
 * document for queries made from a document's question and then damaged
 * (keywords with typos, kana for katakana or kanji, keywords only), which measures what
 * n-grams, readings, typo correction, the lexicon and the rerank each add.
 * Last, the same corpus through the running system (gateway, planner and
 * search as processes, offline model): upload, /agent.search and
 * /agent.dialog latency, and /agent.search throughput with 16 clients
 * (skip with BENCH_FAQ_STACK=0). Prints numbers; asserts nothing.
 */
const DOCS = Number(process.env.BENCH_FAQ_DOCS ?? 10_000);
const QUERIES = Number(process.env.BENCH_FAQ_QUERIES ?? 1_000);
const ABLATION_DOCS = Number(process.env.BENCH_FAQ_ABLATION_DOCS ?? 3_000);

/** mulberry32: a seeded generator in four lines, not worth a dependency for a bench. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(20240611);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const fill = (template: string, vars: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? '');

const JA = {
  brands: [
    'さくら',
    'ひかり',
    'アオゾラ',
    'ナミキ',
    'コハク',
    'ツバメ',
    'ヤマト',
    'ハルカ',
    'モミジ',
    'カエデ',
    'すずらん',
    'ミナト',
    'アサヒナ',
    'しずく',
    'ホクト',
    'ユキワリ',
    'イロハ',
    'トキワ',
    'ソラマメ',
    'キララ',
  ],
  products: [
    'Tシャツ',
    'スニーカー',
    '腕時計',
    'リュック',
    'マグカップ',
    'ワイヤレスイヤホン',
    'ノートパソコン',
    '炊飯器',
    '加湿器',
    '電動歯ブラシ',
    'ヨガマット',
    'テント',
    '折りたたみ傘',
    '革財布',
    'ハンドクリーム',
    'コーヒー豆',
    '緑茶セット',
    'ぬいぐるみ',
    'ベビーカー',
    '自転車ライト',
    'デニムパンツ',
    'ダウンジャケット',
    '電気ケトル',
    'フライパン',
    '枕',
    '毛布',
    'スマホケース',
    'キーボード',
    '香水',
    '日傘',
  ],
  regions: ['北海道', '沖縄', '離島', '東北', '九州', '関西'],
  pays: ['クレジットカード', 'コンビニ払い', '銀行振込', '代金引換', '後払い', 'PayPay'],
  topics: [
    { q: '{b}の{p}の送料はいくらですか？', a: '{p}の送料は全国一律{n}円です。{r}は別途{m}円かかります。', tags: ['配送', '送料'] },
    {
      q: '{b}の{p}を返品できますか？',
      a: '商品到着後{d}日以内で未使用の{p}に限り返品を承ります。マイページから返品申請してください。',
      tags: ['返品'],
    },
    {
      q: '{b}の{p}のサイズ交換はできますか？',
      a: '在庫がある場合に限り、{p}の別サイズへの交換を承ります。交換時の送料は当社負担です。',
      tags: ['交換'],
    },
    {
      q: '{b}の{p}は何日で届きますか？',
      a: 'ご注文から{d}営業日以内に発送します。{r}へのお届けはさらに1〜2日かかります。',
      tags: ['配送'],
    },
    {
      q: '{b}の{p}をギフト包装できますか？',
      a: 'ご注文時にギフト包装を選ぶと{n}円でラッピングいたします。のしとメッセージカードは無料です。',
      tags: ['ギフト'],
    },
    {
      q: '{b}の{p}の領収書は発行できますか？',
      a: '発送後にマイページの注文履歴から領収書をPDFでダウンロードできます。宛名の変更も可能です。',
      tags: ['領収書'],
    },
    {
      q: '{b}の{p}は{pay}で支払えますか？',
      a: '{p}のお支払いには{pay}をご利用いただけます。分割払いは{n}円以上のご注文で選べます。',
      tags: ['支払い'],
    },
    {
      q: '{b}の{p}の保証期間はどのくらいですか？',
      a: 'メーカー保証は購入日から{d}か月です。保証書と領収書を保管してください。',
      tags: ['保証'],
    },
    {
      q: '{b}の{p}はいつ再入荷しますか？',
      a: '再入荷の時期は未定です。商品ページの入荷お知らせに登録するとメールでお知らせします。',
      tags: ['在庫'],
    },
    {
      q: '{b}の{p}の注文をキャンセルしたい',
      a: '発送前であればマイページの注文履歴からキャンセルできます。発送後は返品の手続きをお願いします。',
      tags: ['注文'],
    },
    {
      q: '{b}の{p}が壊れて届きました',
      a: '申し訳ございません。到着後{d}日以内に写真を添えてお問い合わせください。新品と交換いたします。',
      tags: ['不良品'],
    },
    {
      q: '{b}の{p}を{r}へ配送できますか？',
      a: '{r}への配送も承っております。送料は{m}円で、お届けまで通常より{d}日ほど長くかかります。',
      tags: ['配送', '地域:{r}'],
    },
  ],
  filler: [
    'ご不明な点はお問い合わせフォームよりご連絡ください。',
    '詳しくはご利用ガイドをご覧ください。',
    'セール期間中はお届けが遅れる場合があります。',
    '会員の方はポイントが貯まります。',
    '土日祝日は発送をお休みしております。',
  ],
};

const EN = {
  brands: [
    'Acme',
    'Northwind',
    'Bluebird',
    'Cedar',
    'Driftwood',
    'Evergreen',
    'Foxglove',
    'Granite',
    'Harbor',
    'Juniper',
    'Kestrel',
    'Lumen',
    'Maple',
    'Nimbus',
    'Orchard',
    'Pebble',
    'Quartz',
    'Riverstone',
    'Summit',
    'Tidewater',
  ],
  products: [
    't-shirt',
    'sneakers',
    'wristwatch',
    'backpack',
    'coffee mug',
    'wireless earbuds',
    'laptop',
    'rice cooker',
    'humidifier',
    'electric toothbrush',
    'yoga mat',
    'tent',
    'umbrella',
    'leather wallet',
    'hand cream',
    'coffee beans',
    'tea set',
    'plush toy',
    'stroller',
    'bike light',
    'jeans',
    'down jacket',
    'kettle',
    'frying pan',
    'pillow',
    'blanket',
    'phone case',
    'keyboard',
    'perfume',
    'sunglasses',
  ],
  regions: ['Alaska', 'Hawaii', 'Canada', 'Puerto Rico', 'the UK', 'Australia'],
  pays: ['credit card', 'PayPal', 'Apple Pay', 'bank transfer', 'gift card', 'installments'],
  topics: [
    {
      q: 'How much is shipping for the {b} {p}?',
      a: 'Shipping for the {p} is ${n}. Orders to {r} cost an extra ${m}.',
      tags: ['shipping'],
    },
    {
      q: 'Can I return the {b} {p}?',
      a: 'Unused items can be returned within {d} days of delivery. Start a return from your account.',
      tags: ['returns'],
    },
    {
      q: 'Can I exchange the {b} {p} for another size?',
      a: 'If the size you want is in stock we will exchange your {p}. Return shipping is on us.',
      tags: ['returns', 'exchange'],
    },
    {
      q: 'How long does delivery of the {b} {p} take?',
      a: 'We dispatch within {d} business days. Delivery to {r} takes one or two days longer.',
      tags: ['shipping'],
    },
    { q: 'Can the {b} {p} be gift wrapped?', a: 'Choose gift wrapping at checkout for ${n}. A message card is free.', tags: ['gifts'] },
    {
      q: 'Can I get a receipt for the {b} {p}?',
      a: 'Once the order ships you can download a PDF receipt from your order history.',
      tags: ['billing'],
    },
    {
      q: 'Can I pay for the {b} {p} with {pay}?',
      a: 'Yes, {pay} is accepted for the {p}. Installments are available on orders over ${n}.',
      tags: ['payment'],
    },
    {
      q: 'What warranty comes with the {b} {p}?',
      a: 'The manufacturer warranty lasts {d} months from purchase. Keep your receipt.',
      tags: ['warranty'],
    },
    {
      q: 'When will the {b} {p} be back in stock?',
      a: 'We do not have a restock date yet. Sign up for a stock alert on the product page.',
      tags: ['stock'],
    },
    {
      q: 'How do I cancel my order for the {b} {p}?',
      a: 'You can cancel from your order history until the order ships. After that, please return it.',
      tags: ['orders'],
    },
    {
      q: 'My {b} {p} arrived broken',
      a: 'We are sorry! Send us a photo within {d} days and we will ship a replacement.',
      tags: ['returns', 'damaged'],
    },
    {
      q: 'Do you ship the {b} {p} to {r}?',
      a: 'Yes, we deliver to {r}. Shipping costs ${m} and takes about {d} extra days.',
      tags: ['shipping', 'region:{r}'],
    },
  ],
  filler: [
    'Contact customer service if you have any questions.',
    'See our help center for details.',
    'Deliveries may be delayed during sales.',
    'Members earn reward points on every order.',
    'We do not ship on weekends or holidays.',
  ],
};

type Lang = typeof JA;

function makeDoc(id: number, lang: 'ja' | 'en', used: Set<string>): FaqDocument {
  const vocab: Lang = lang === 'ja' ? JA : EN;
  for (;;) {
    const vars = {
      b: pick(vocab.brands),
      p: pick(vocab.products),
      r: pick(vocab.regions),
      pay: pick(vocab.pays),
      n: String(100 * (1 + Math.floor(random() * 30))),
      m: String(100 * (1 + Math.floor(random() * 15))),
      d: String(2 + Math.floor(random() * 28)),
    };
    const topic = pick(vocab.topics);
    const question = fill(topic.q, vars);
    if (used.has(question)) continue;
    used.add(question);
    const extra = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(vocab.filler));
    const answer = [fill(topic.a, vars), ...extra].join(lang === 'ja' ? '' : ' ');
    return { id: `${lang}-${String(id).padStart(5, '0')}`, language: lang, question, answer, tags: topic.tags.map((t) => fill(t, vars)) };
  }
}

function makeCorpus(size: number): FaqDocument[] {
  const used = new Set<string>();
  return Array.from({ length: size }, (_, i) => makeDoc(i, i % 2 === 0 ? 'ja' : 'en', used));
}

// --- Damaged queries: what a user types instead of the FAQ's question ---

type Probe = { kind: string; query: string; want: string };

/** Every Latin word of five letters or more gets a deleted, doubled or swapped letter. */
function typos(text: string): string {
  return text.replace(/[a-z]{5,}/gi, (word) => {
    const at = 1 + Math.floor(random() * (word.length - 2));
    return pick([
      word.slice(0, at) + word.slice(at + 1),
      word.slice(0, at) + word[at] + word.slice(at),
      word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2),
    ]);
  });
}

const toHiragana = (s: string) => s.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));

/** Katakana words in hiragana (ぎふと for ギフト), kanji nouns as their reading in hiragana (りょうしゅうしょ). */
function kanaFor(analyzer: Analyzer, text: string, kanji: boolean): string {
  return analyzer
    .tokens(text)
    .map((token) => {
      if (!kanji && /^[\u30a1-\u30fc]+$/.test(token.surface)) return toHiragana(token.surface);
      if (kanji && token.pos === '名詞' && /[\u4e00-\u9fff]/.test(token.surface) && token.reading) return toHiragana(token.reading);
      return token.surface;
    })
    .join('');
}

/** Only the content words, as a keyword search box would get them. */
function keywords(analyzer: Analyzer, text: string): string {
  return analyzer
    .tokens(text)
    .filter((t) => t.content)
    .map((t) => t.surface)
    .join(' ');
}

function makeProbes(analyzer: Analyzer, docs: FaqDocument[], count: number): Probe[] {
  const probes: Probe[] = [];
  for (let i = 0; i < count; i++) {
    const doc = pick(docs);
    const question = doc.question;
    if (doc.language === 'en') {
      const kind = pick(['en typos', 'en keywords', 'en clean']);
      probes.push({
        kind,
        want: doc.id,
        query: kind === 'en typos' ? typos(keywords(analyzer, question)) : kind === 'en keywords' ? keywords(analyzer, question) : question,
      });
    } else {
      const kind = pick(['ja hiragana', 'ja reading', 'ja keywords', 'ja clean']);
      const query =
        kind === 'ja hiragana'
          ? kanaFor(analyzer, question, false)
          : kind === 'ja reading'
            ? kanaFor(analyzer, question, true)
            : kind === 'ja keywords'
              ? keywords(analyzer, question)
              : question;
      probes.push({ kind, want: doc.id, query });
    }
  }
  return probes;
}

// --- Measurement ---

function gc(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
const heapMb = () => process.memoryUsage().heapUsed / 2 ** 20;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const ms = (n: number) => `${n.toFixed(2)} ms`;

async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

function latencies(index: FaqSearchIndex, queries: string[]): number[] {
  for (const q of queries.slice(0, 50)) index.search(q, { topK: 5 }); // warm-up
  return queries.map((query) => {
    const t0 = performance.now();
    index.search(query, { topK: 5, language: 'auto' });
    return performance.now() - t0;
  });
}

function quality(index: FaqSearchIndex, probes: Probe[]): Map<string, { hit1: number; mrr: number; n: number }> {
  const byKind = new Map<string, { hit1: number; mrr: number; n: number }>();
  for (const probe of probes) {
    const rank = index.search(probe.query, { topK: 10 }).findIndex((h) => h.id === probe.want) + 1;
    for (const kind of [probe.kind, 'all']) {
      const stats = byKind.get(kind) ?? { hit1: 0, mrr: 0, n: 0 };
      stats.n++;
      if (rank === 1) stats.hit1++;
      if (rank > 0) stats.mrr += 1 / rank;
      byKind.set(kind, stats);
    }
  }
  return byKind;
}

async function main(): Promise<void> {
  const load = await timed(() => loadAnalyzer());
  const analyzer = load.value;
  const docs = makeCorpus(DOCS);
  const probes = makeProbes(analyzer, docs, QUERIES);
  const queries = probes.map((p) => p.query);

  gc();
  const heap0 = heapMb();
  const engine = await timed(() => createFaqIndex(docs));
  gc();
  const heapEngine = heapMb() - heap0;
  const baseline = await timed(() => createBm25Baseline(docs));
  gc();
  const heapBaseline = heapMb() - heap0 - heapEngine;

  const fresh = makeCorpus(DOCS + 50).slice(DOCS);
  const changed = docs.slice(0, 50).map((d) => ({ ...d, answer: `${d.answer} (updated)` }));
  const upsert = await timed(() => engine.value.upsert([...changed, ...fresh]));
  const remove = await timed(() => engine.value.remove(fresh.map((d) => d.id)));

  const engineLat = latencies(engine.value, queries);
  const baselineLat = latencies(baseline.value, queries);
  // What the pseudo-relevance feedback pass costs: its second scan is most of a query's time beyond the first.
  const noFeedbackLat = latencies(await createEngine(docs, { feedback: { ...D.feedback, weight: 0 } }), queries);

  console.log(`\nFAQ search bench: ${DOCS} docs (half ja, half en), ${queries.length} queries, Node ${process.version}\n`);
  console.log(`analyzer load (kuromoji dictionary)   ${ms(load.ms)}`);
  console.log(`engine build                          ${ms(engine.ms)}  (${((engine.ms / DOCS) * 1000).toFixed(0)} µs/doc)`);
  console.log(`baseline build                        ${ms(baseline.ms)}`);
  console.log(`engine upsert 100 (50 changed, 50 new) ${ms(upsert.ms)}`);
  console.log(`engine remove 50                      ${ms(remove.ms)}`);
  console.log(`heap: engine ${heapEngine.toFixed(1)} MB, baseline ${heapBaseline.toFixed(1)} MB, total used ${heapMb().toFixed(1)} MB\n`);
  console.log('query latency   p50        p99        mean');
  for (const [name, lat] of [
    ['engine', engineLat],
    ['− feedback', noFeedbackLat],
    ['baseline', baselineLat],
  ] as const) {
    const mean = lat.reduce((a, b) => a + b, 0) / lat.length;
    console.log(`${name.padEnd(14)}  ${ms(pct(lat, 50)).padEnd(9)}  ${ms(pct(lat, 99)).padEnd(9)}  ${ms(mean)}`);
  }

  // Ablation on a smaller corpus: each variant re-analyses it.
  const small = docs.slice(0, ABLATION_DOCS);
  const smallProbes = makeProbes(analyzer, small, 600);
  const variants: [string, () => Promise<FaqSearchIndex>][] = [
    ['baseline', () => createBaseline(small)],
    ['engine', () => createEngine(small)],
    ['- n-grams', () => createEngine(small, { channels: { ...D.channels, gram: 0 } })],
    ['- readings', () => createEngine(small, { channels: { ...D.channels, reading: 0 } })],
    ['- fuzzy', () => createEngine(small, { fuzzyWeights: [0, 0] })],
    ['- both', () => createEngine(small, { channels: { ...D.channels, gram: 0 }, fuzzyWeights: [0, 0] })],
    ['- lexicon', () => createEngine(small, { synonymWeight: 0 })],
    ['- rerank', () => createEngine(small, { rerank: { ...D.rerank, weight: 0 } } satisfies Partial<EngineConfig>)],
  ];
  const kinds = ['all', ...new Set(smallProbes.map((p) => p.kind))].sort();
  console.log(`\nfinding the damaged question's own FAQ (${small.length} docs, ${smallProbes.length} queries): hit@1 / MRR@10`);
  console.log(['variant'.padEnd(11), ...kinds.map((k) => k.padEnd(13))].join(' '));
  for (const [name, make] of variants) {
    const qualityByKind = quality(await make(), smallProbes);
    console.log(
      [
        name.padEnd(11),
        ...kinds.map((k) => {
          const stats = qualityByKind.get(k)!;
          return `${(stats.hit1 / stats.n).toFixed(2)}/${(stats.mrr / stats.n).toFixed(2)}`.padEnd(13);
        }),
      ].join(' '),
    );
  }
  console.log(
    `\nexamples: ${smallProbes
      .slice(0, 6)
      .map((p) => `[${p.kind}] ${p.query}`)
      .join(' | ')}`,
  );

  if (process.env.BENCH_FAQ_STACK !== '0') await throughTheStack(docs, queries);
}

const STACK_REQUESTS = Number(process.env.BENCH_FAQ_STACK_REQUESTS ?? 300);
const STACK_CLIENTS = 16;

/** The same corpus behind the HTTP API: what a client of /agent.search and /agent.dialog sees. */
async function throughTheStack(docs: FaqDocument[], queries: string[]): Promise<void> {
  const redis = await ensureRedis({ repoRoot: REPO_ROOT, log: () => undefined });
  const id = randomUUID().slice(0, 8);
  const stack = await startStack({
    env: {
      REDIS_URL: redis.url,
      KEY_PREFIX: `benchfaq-${id}`,
      QUEUE_PREFIX: `{benchfaq-${id}}`,
      FAQ_SEED_FILE: '',
      FAQ_WRITE_KEY: `bench-${id}`,
      ...HARNESS_ENV,
      SEARCH_CONCURRENCY: '8',
      PLANNER_CONCURRENCY: '8',
    },
    services: ['planner', 'search'],
  });
  try {
    const api = new Api(stack.url);
    const upload = await timed(() => api.call('POST', '/faq/documents', { body: docs, token: `bench-${id}` }));
    if (upload.value.status !== 200) throw new Error(`upload: ${upload.value.status} ${JSON.stringify(upload.value.json)}`);
    // The first search after the upload answers from the version already indexed (waiting at most FAQ_INDEX_WAIT_MS);
    // a client that needs the upload asks for its version and comes back after Retry-After until it is indexed.
    const firstSearch = await timed(() => api.call('POST', '/agent.search', { body: { query: queries[0], topK: 5 } }));
    const uploaded = upload.value.json.version as number;
    const searchable = await timed(async () => {
      for (;;) {
        const response = await api.call('POST', '/agent.search', { body: { query: queries[0], topK: 5, minCorpusVersion: uploaded } });
        if (response.status === 200) return response;
        if (response.status !== 503) throw new Error(`/agent.search with minCorpusVersion: ${response.status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    const sample = queries.slice(0, STACK_REQUESTS);
    const search = async (query: string) => {
      const response = await timed(() => api.call('POST', '/agent.search', { body: { query, topK: 5 } }));
      if (response.value.status !== 200) throw new Error(`/agent.search: ${response.value.status}`);
      return response.ms;
    };
    for (const q of sample.slice(0, 30)) await search(q); // warm-up
    const searchLat: number[] = [];
    for (const q of sample) searchLat.push(await search(q));
    const dialogLat: number[] = [];
    for (const query of sample.slice(0, Math.ceil(STACK_REQUESTS / 2))) {
      const response = await timed(() => api.call('POST', '/agent.dialog', { body: { message: query, options: { topK: 5 } } }));
      if (response.value.status !== 200) throw new Error(`/agent.dialog: ${response.value.status}`);
      dialogLat.push(response.ms);
    }
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: STACK_CLIENTS }, async () => {
        while (next < sample.length * 2) await search(sample[next++ % sample.length]!);
      }),
    );
    const perSecond = (sample.length * 2) / ((performance.now() - t0) / 1000);

    console.log(`\nthrough the stack: gateway + planner + search as processes, ${docs.length} docs, offline model, HTTP on loopback`);
    console.log(`upload of ${docs.length} docs (POST /faq/documents)   ${ms(upload.ms)}`);
    console.log(
      `first /agent.search after it              ${ms(firstSearch.ms)} (status ${firstSearch.value.status}, from corpus version ${String(firstSearch.value.json.corpusVersion)}; the upload made ${uploaded})`,
    );
    console.log(`searchable at the upload's version after   ${ms(searchable.ms)} more (minCorpusVersion, 503 until then)`);
    console.log('request              p50        p99        n');
    for (const [name, lat] of [
      ['/agent.search', searchLat],
      ['/agent.dialog', dialogLat],
    ] as const) {
      console.log(`${name.padEnd(19)}  ${ms(pct(lat, 50)).padEnd(9)}  ${ms(pct(lat, 99)).padEnd(9)}  ${lat.length}`);
    }
    console.log(`/agent.search with ${STACK_CLIENTS} clients: ${perSecond.toFixed(0)} requests/s`);
  } finally {
    await stack.stop();
    await redis.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
