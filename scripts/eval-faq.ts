import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  createBm25Baseline,
  createEngine,
  createFaqIndex,
  DEFAULT_ENGINE_CONFIG,
  type EngineConfig,
  type FaqSearchIndex,
  meanScores,
  type MeanScores,
  parseSynonymGroups,
  type QueryScores,
  scoreQuery,
} from '@convo/faq';
import { FaqDocument } from '@convo/contract';

/**
 * `npm run eval:faq`: retrieval quality of the FAQ search engine next to the
 * plain BM25 baseline, on a labelled query set.
 *
 *   --corpus <path>   FAQ documents (default examples/faq/ec-faq.json)
 *   --queries <path>  labelled queries (default eval/faq/queries.json)
 *   --synonyms <path> a deployment's synonym groups (default: the sample corpus's own, examples/faq/ec-synonyms.txt)
 *   --no-ablation     skip the table of the engine with one part turned off
 *   --json            print JSON (summary + per-query results) instead of tables
 *   --details         also print one line per query (nDCG of both systems, top hits)
 *
 * Every query runs with `{ topK: 10, language: 'auto' }`. Metrics are
 * macro-averaged over queries:
 * - Recall@10: share of labelled docs (grade >= 1) in the top 10;
 * - nDCG@10: gains 2 (answer) / 1 (partial), discount 1/log2(rank + 1),
 *   ideal DCG from the labels;
 * - MRR@10: reciprocal rank of the first result with grade >= 1 (a partial
 *   hit counts), 0 when none is in the top 10.
 */

const TOP_K = 10;
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KINDS = ['exact', 'paraphrase', 'typo', 'width', 'compound', 'near_duplicate', 'out_of_domain'] as const;
const LANGUAGES = ['ja', 'en'] as const;

const EvalQuery = z
  .object({
    id: z.string().min(1),
    query: z.string().min(1),
    language: z.enum(LANGUAGES),
    relevant: z.record(
      z.string().min(1),
      z.number().refine((g) => g === 1 || g === 2, 'grade must be 2 (the answer) or 1 (partially relevant)'),
    ),
    kind: z.enum(KINDS),
  })
  // A query the corpus cannot answer (kind out_of_domain) labels nothing; every other query labels its answer.
  .refine((q) => (q.kind === 'out_of_domain') === (Object.keys(q.relevant).length === 0), {
    message: 'an out_of_domain query labels no document; any other kind labels at least one',
    path: ['relevant'],
  });
type EvalQuery = z.infer<typeof EvalQuery>;

const USAGE =
  'usage: npm run eval:faq -- [--corpus <path>] [--queries <path>] [--synonyms <path>] [--abstain-below <0..1>] [--json] [--details] [--no-ablation]';

/** The deployment's default (FAQ_ABSTAIN_BELOW): a search whose best hit's confidence is below it abstains. */
const DEFAULT_ABSTAIN_BELOW = 0.3;
const answerable = (q: EvalQuery) => q.kind !== 'out_of_domain';

/**
 * The engine with one part turned off, to show what each part contributes.
 * "lexicon" is the one piece of domain knowledge (lexicon.ts); the other
 * sets under eval/faq/ show how the engine does where it knows nothing.
 */
const ABLATIONS: [string, Partial<EngineConfig>][] = [
  ['− synonyms', { synonymWeight: 0 }],
  ['− typo correction', { fuzzyWeights: [0, 0] }],
  ['− n-grams, readings', { channels: { ...DEFAULT_ENGINE_CONFIG.channels, gram: 0, reading: 0 } }],
  ['− rerank', { rerank: { ...DEFAULT_ENGINE_CONFIG.rerank, weight: 0 } }],
  ['− aspect weighting', { aspectWeight: 1 }],
  ['− compounds', { compounds: false }],
  ['− predicate weighting', { predicateWeight: 1 }],
  ['− question words', { intentWeight: 0 }],
  ['− feedback', { feedback: { ...DEFAULT_ENGINE_CONFIG.feedback, weight: 0 } }],
];

class EvalInputError extends Error {}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new EvalInputError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new EvalInputError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

function parseList<T>(file: string, schema: z.ZodType<T>, what: string): T[] {
  const raw = readJson(file);
  const result = z.array(schema).min(1).safeParse(raw);
  if (!result.success) {
    // Name the entry by its id when it has one: `[12 q-ja-013].kind: …`.
    const where = (issuePath: PropertyKey[]) => {
      const [index, ...rest] = issuePath;
      if (typeof index !== 'number') return issuePath.map(String).join('.') || '(root)';
      const id = Array.isArray(raw) ? (raw[index] as { id?: unknown } | null)?.id : undefined;
      return `[${index}${typeof id === 'string' ? ` ${id}` : ''}]${rest.map((x) => `.${String(x)}`).join('')}`;
    };
    const issues = result.error.issues.slice(0, 20).map((i) => `  ${where(i.path)}: ${i.message}`);
    const more = result.error.issues.length > 20 ? `\n  … ${result.error.issues.length - 20} more` : '';
    throw new EvalInputError(`${file}: invalid ${what}\n${issues.join('\n')}${more}`);
  }
  return result.data;
}

function duplicates(ids: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}

function loadInputs(corpusPath: string, queriesPath: string): { docs: FaqDocument[]; queries: EvalQuery[] } {
  const docs = parseList(corpusPath, FaqDocument, 'FAQ documents');
  const queries = parseList(queriesPath, EvalQuery, 'queries');
  const problems: string[] = [];
  const dupDocs = duplicates(docs.map((d) => d.id));
  if (dupDocs.length > 0) problems.push(`duplicate document ids in ${corpusPath}: ${dupDocs.join(', ')}`);
  const dupQueries = duplicates(queries.map((q) => q.id));
  if (dupQueries.length > 0) problems.push(`duplicate query ids in ${queriesPath}: ${dupQueries.join(', ')}`);
  const known = new Set(docs.map((d) => d.id));
  for (const query of queries) {
    const unknown = Object.keys(query.relevant).filter((id) => !known.has(id));
    if (unknown.length > 0) problems.push(`query ${query.id} labels unknown document id(s): ${unknown.join(', ')}`);
  }
  if (problems.length > 0) throw new EvalInputError(problems.join('\n'));
  return { docs, queries };
}

interface SystemRun {
  name: string;
  buildMs: number;
  /** Per query, in the order of `queries`; `confidence` where the index calibrates (the engine). */
  results: { ranked: string[]; scores: QueryScores; ms: number; confidence?: number }[];
}

async function runSystem(name: string, build: () => Promise<FaqSearchIndex>, queries: EvalQuery[]): Promise<SystemRun> {
  const t0 = performance.now();
  const index = await build();
  const buildMs = performance.now() - t0;
  const results = queries.map((query) => {
    const queryStart = performance.now();
    const hits = index.search(query.query, { topK: TOP_K, language: 'auto' });
    const ms = performance.now() - queryStart;
    const ranked = hits.map((h) => h.id);
    const confidence = index.confidence?.(query.query, hits[0]);
    return { ranked, scores: scoreQuery(ranked, query.relevant, TOP_K), ms, ...(confidence !== undefined ? { confidence } : {}) };
  });
  return { name, buildMs, results };
}

interface Group {
  label: string;
  select: (q: EvalQuery) => boolean;
}

// Retrieval is measured on the queries the corpus answers; out-of-domain ones are measured by abstention.
const GROUPS: Group[] = [
  { label: 'all', select: answerable },
  ...LANGUAGES.map((l) => ({ label: `lang:${l}`, select: (q: EvalQuery) => answerable(q) && q.language === l })),
  ...KINDS.filter((k) => k !== 'out_of_domain').map((k) => ({ label: `kind:${k}`, select: (q: EvalQuery) => q.kind === k })),
];

interface Abstention {
  /** Out-of-domain queries, and the share of them abstained on (abstention recall). */
  ood: number;
  recall: number;
  /** Share of abstentions that were out of domain (NaN without any). */
  precision: number;
  /** Answerable queries, and the share wrongly abstained on. */
  answerable: number;
  falseRate: number;
}

function abstention(run: SystemRun, queries: EvalQuery[], below: number): Abstention {
  let ood = 0;
  let oodAbstained = 0;
  let answerableCount = 0;
  let falseAbstained = 0;
  run.results.forEach((result, i) => {
    const abstained = result.ranked.length === 0 || (result.confidence ?? 1) < below;
    if (answerable(queries[i]!)) {
      answerableCount++;
      if (abstained) falseAbstained++;
    } else {
      ood++;
      if (abstained) oodAbstained++;
    }
  });
  return {
    ood,
    recall: ood > 0 ? oodAbstained / ood : NaN,
    precision: oodAbstained + falseAbstained > 0 ? oodAbstained / (oodAbstained + falseAbstained) : NaN,
    answerable: answerableCount,
    falseRate: answerableCount > 0 ? falseAbstained / answerableCount : NaN,
  };
}

const pct = (x: number) => (Number.isNaN(x) ? '    -' : `${(x * 100).toFixed(1).padStart(5)}%`);

function summarize(run: SystemRun, queries: EvalQuery[]): Record<string, MeanScores> {
  const out: Record<string, MeanScores> = {};
  for (const group of GROUPS) {
    const scores = run.results.filter((_, i) => group.select(queries[i]!)).map((r) => r.scores);
    if (scores.length > 0) out[group.label] = meanScores(scores);
  }
  return out;
}

const f3 = (x: number) => (Number.isNaN(x) ? '   -  ' : x.toFixed(3).padStart(6));
const delta = (engineValue: number, baselineValue: number) => {
  const difference = engineValue - baselineValue;
  return (difference >= 0 ? '+' : '') + difference.toFixed(3);
};

function printTable(engine: Record<string, MeanScores>, base: Record<string, MeanScores>, questions: Record<string, MeanScores>): void {
  const metrics: [keyof MeanScores, string][] = [
    ['recall', `Recall@${TOP_K}`],
    ['ndcg', `nDCG@${TOP_K}`],
    ['mrr', `MRR@${TOP_K}`],
  ];
  const head1 = ['group'.padEnd(18), '  n'].join(' ') + metrics.map(([, t]) => ' | ' + t.padEnd(28)).join('');
  const head2 = ' '.repeat(22) + metrics.map(() => ' | ' + 'engine  bm25   bm25-q  Δbest ').join('');
  console.log(head1);
  console.log(head2);
  console.log('-'.repeat(head2.length));
  for (const group of GROUPS) {
    const engineScores = engine[group.label];
    const baselineScores = base[group.label];
    const questionScores = questions[group.label];
    if (!engineScores || !baselineScores || !questionScores) continue;
    const cells = metrics.map(([m]) => {
      const best = Math.max(baselineScores[m] as number, questionScores[m] as number);
      return ` | ${f3(engineScores[m] as number)} ${f3(baselineScores[m] as number)} ${f3(questionScores[m] as number)} ${delta(engineScores[m] as number, best).padStart(6)} `;
    });
    console.log(`${group.label.padEnd(18)} ${String(engineScores.n).padStart(3)}${cells.join('')}`);
  }
}

function printAbstention(run: SystemRun, queries: EvalQuery[], below: number): void {
  const a = abstention(run, queries, below);
  console.log(
    `\nanswer or abstain (confidence < ${below}): out-of-domain abstained ${pct(a.recall)} of ${a.ood}; ` +
      `answerable wrongly abstained ${pct(a.falseRate)} of ${a.answerable}; precision ${pct(a.precision)}`,
  );
}

async function main(): Promise<void> {
  let values: {
    corpus?: string;
    queries?: string;
    synonyms?: string;
    'abstain-below'?: string;
    json?: boolean;
    details?: boolean;
    ablation?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        corpus: { type: 'string' },
        queries: { type: 'string' },
        synonyms: { type: 'string' },
        'abstain-below': { type: 'string' },
        json: { type: 'boolean', default: false },
        details: { type: 'boolean', default: false },
        ablation: { type: 'boolean', default: true },
      },
      allowNegative: true,
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new EvalInputError(`${(err as Error).message}\n${USAGE}`);
  }
  const below = values['abstain-below'] === undefined ? DEFAULT_ABSTAIN_BELOW : Number(values['abstain-below']);
  if (!(below >= 0 && below <= 1)) throw new EvalInputError(`--abstain-below must be a number in [0, 1]\n${USAGE}`);
  const corpusPath = path.resolve(values.corpus ?? path.join(REPO_ROOT, 'examples/faq/ec-faq.json'));
  const queriesPath = path.resolve(values.queries ?? path.join(REPO_ROOT, 'eval/faq/queries.json'));
  const { docs, queries } = loadInputs(corpusPath, queriesPath);
  // The sample corpus is evaluated as it is deployed, with its own synonym file; other sets with the general resources only.
  const synonymsPath = values.synonyms ?? (values.corpus ? undefined : path.join(REPO_ROOT, 'examples/faq/ec-synonyms.txt'));
  const synonymGroups = synonymsPath ? parseSynonymGroups(readFileSync(synonymsPath, 'utf8')) : [];

  // Each system gets its own copy of the documents, so neither can affect the other.
  const copy = () => docs.map((d) => ({ ...d, tags: [...d.tags] }));
  const engine = await runSystem('engine', () => createFaqIndex(copy(), { synonymGroups }), queries);
  const baseline = await runSystem('bm25', () => createBm25Baseline(copy()), queries);
  const questionBaseline = await runSystem('bm25-q', () => createBm25Baseline(copy(), 'question'), queries);
  const engineSummary = summarize(engine, queries);
  const baseSummary = summarize(baseline, queries);
  const questionSummary = summarize(questionBaseline, queries);

  const rel = (p: string) => path.relative(process.cwd(), p) || p;
  const count = <T>(xs: T[], key: (x: T) => string) =>
    xs.reduce<Record<string, number>>((acc, x) => ((acc[key(x)] = (acc[key(x)] ?? 0) + 1), acc), {});
  const timing = (systemRun: SystemRun) => ({
    buildMs: Number(systemRun.buildMs.toFixed(1)),
    meanQueryMs: Number((systemRun.results.reduce((s, x) => s + x.ms, 0) / systemRun.results.length).toFixed(3)),
    maxQueryMs: Number(Math.max(...systemRun.results.map((x) => x.ms)).toFixed(3)),
  });

  if (values.json) {
    const out = {
      corpus: { path: rel(corpusPath), docs: docs.length, byLanguage: count(docs, (d) => d.language) },
      queries: {
        path: rel(queriesPath),
        count: queries.length,
        byLanguage: count(queries, (q) => q.language),
        byKind: count(queries, (q) => q.kind),
      },
      settings: {
        topK: TOP_K,
        language: 'auto',
        mrr: 'first result with grade >= 1',
        ndcgGain: 'linear (2/1)',
        average: 'macro over queries',
      },
      systems: {
        engine: { ...timing(engine), metrics: engineSummary, abstention: { below, ...abstention(engine, queries, below) } },
        bm25: { ...timing(baseline), metrics: baseSummary },
        bm25Questions: { ...timing(questionBaseline), metrics: questionSummary },
      },
      perQuery: queries.map((query, i) => {
        const engineResult = engine.results[i]!;
        const baselineResult = baseline.results[i]!;
        return {
          id: query.id,
          kind: query.kind,
          language: query.language,
          query: query.query,
          relevant: query.relevant,
          engine: { ...engineResult.scores, top: engineResult.ranked, confidence: engineResult.confidence },
          bm25: { ...baselineResult.scores, top: baselineResult.ranked },
        };
      }),
    };
    console.log(JSON.stringify(out, null, 2));
    return;
  }

  const langs = count(docs, (d) => d.language);
  const qLangs = count(queries, (q) => q.language);
  console.log(`FAQ retrieval evaluation`);
  console.log(
    `  corpus : ${rel(corpusPath)} — ${docs.length} docs (${Object.entries(langs)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  console.log(
    `  queries: ${rel(queriesPath)} — ${queries.length} (${Object.entries(qLangs)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')})`,
  );
  console.log(`  search(q, { topK: ${TOP_K}, language: 'auto' }); macro-averaged over queries.`);
  console.log(`  Recall@${TOP_K}: labelled docs (grade >= 1) found; nDCG@${TOP_K}: gains 2/1, 1/log2(rank+1), ideal from labels;`);
  console.log(`  MRR@${TOP_K}: 1/rank of the first result with grade >= 1 (partial hits count).`);
  console.log('');
  printTable(engineSummary, baseSummary, questionSummary);
  printAbstention(engine, queries, below);
  console.log('');
  for (const systemRun of [engine, baseline, questionBaseline]) {
    const times = timing(systemRun);
    console.log(
      `  ${systemRun.name.padEnd(6)}: index build ${times.buildMs} ms, query mean ${times.meanQueryMs} ms, max ${times.maxQueryMs} ms`,
    );
  }

  if (values.ablation) {
    console.log('\nwhat each part adds (all queries):');
    console.log(`  ${'system'.padEnd(22)} Recall@${TOP_K}  nDCG@${TOP_K}  MRR@${TOP_K}`);
    const line = (name: string, m: MeanScores) => console.log(`  ${name.padEnd(22)} ${f3(m.recall)}     ${f3(m.ndcg)}   ${f3(m.mrr)}`);
    line('engine', engineSummary.all!);
    for (const [name, overrides] of ABLATIONS) {
      const run = await runSystem(name, () => createEngine(copy(), overrides), queries);
      line(name, summarize(run, queries).all!);
    }
    line('bm25 baseline', baseSummary.all!);
  }

  if (!values.corpus && !values.queries) await printOtherSets(values.ablation ?? true, below);

  if (values.details) {
    console.log('\nper query (nDCG engine / bm25, engine top 3; * = labelled):');
    queries.forEach((query, i) => {
      const engineResult = engine.results[i]!;
      const baselineResult = baseline.results[i]!;
      const top = engineResult.ranked
        .slice(0, 3)
        .map((id) => (query.relevant[id] ? `${id}*` : id))
        .join(', ');
      const sure = engineResult.confidence === undefined ? '' : ` c=${engineResult.confidence.toFixed(2)}`;
      console.log(
        `  ${query.id} ${query.kind.padEnd(10)} ${f3(engineResult.scores.ndcg)} ${f3(baselineResult.scores.ndcg)}${sure}  ${query.query}  →  ${top}`,
      );
    });
  }
}

/**
 * The other labelled sets: eval/faq/<name>/corpus.json with `queries.json`, or with a split into
 * `queries-dev.json` (looked at while tuning) and `queries-heldout.json` (totals only). `dev` is the set
 * the engine's weights were first chosen on; the others are corpora no part of the engine was written for.
 */
async function printOtherSets(ablation: boolean, below: number): Promise<void> {
  const root = path.join(REPO_ROOT, 'eval/faq');
  const runs = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(root, e.name, 'corpus.json')))
    .map((e) => e.name)
    .sort()
    .flatMap((set) =>
      readdirSync(path.join(root, set))
        .filter((f) => /^queries(?:-[\w-]+)?\.json$/.test(f))
        .sort()
        .map((f) => ({
          set,
          label: f === 'queries.json' ? set : `${set}/${f.slice('queries-'.length, -'.json'.length)}`,
          queries: path.join(root, set, f),
        })),
    );
  if (runs.length === 0) return;
  const width = Math.max(8, ...runs.map((r) => r.label.length));
  console.log(`\nother labelled sets (answerable queries; engine / bm25 / bm25 over questions; abstention below ${below}):`);
  console.log(
    `  ${'set'.padEnd(width)} ${'docs'.padStart(5)} ${'queries'.padStart(8)}   Recall@${TOP_K}                nDCG@${TOP_K}                  out-of-domain abstained  answerable abstained`,
  );
  for (const run of runs) {
    const { docs, queries } = loadInputs(path.join(root, run.set, 'corpus.json'), run.queries);
    const engineRun = await runSystem('engine', () => createFaqIndex(docs.map((d) => ({ ...d }))), queries);
    const engineScores = summarize(engineRun, queries).all!;
    const baselineScores = summarize(await runSystem('bm25', () => createBm25Baseline(docs.map((d) => ({ ...d }))), queries), queries).all!;
    const questionScores = summarize(
      await runSystem(
        'bm25-q',
        () =>
          createBm25Baseline(
            docs.map((d) => ({ ...d })),
            'question',
          ),
        queries,
      ),
      queries,
    ).all!;
    const triple = (m: keyof MeanScores) =>
      `${f3(engineScores[m] as number)} / ${f3(baselineScores[m] as number)} / ${f3(questionScores[m] as number)}`;
    const a = abstention(engineRun, queries, below);
    console.log(
      `  ${run.label.padEnd(width)} ${String(docs.length).padStart(5)} ${String(queries.length).padStart(8)}   ${triple('recall')}  ${triple('ndcg')}  ${pct(a.recall)} of ${String(a.ood).padStart(3)}        ${pct(a.falseRate)}`,
    );
  }
  const heldout = runs.filter((r) => r.label.endsWith('/heldout'));
  if (!ablation || heldout.length === 0) return;
  // Each part is kept only where these, the blind held-out parts, show it helps.
  console.log(`\nwhat each part adds on the held-out parts (nDCG@${TOP_K}):`);
  console.log(`  ${'system'.padEnd(22)} ${heldout.map((r) => r.label.padStart(width)).join(' ')}`);
  const rows: [string, (docs: FaqDocument[]) => Promise<FaqSearchIndex>][] = [
    ['engine', (docs) => createEngine(docs)],
    ...ABLATIONS.map(([name, overrides]): [string, (docs: FaqDocument[]) => Promise<FaqSearchIndex>] => [
      name,
      (docs) => createEngine(docs, overrides),
    ]),
    ['bm25 baseline', (docs) => createBm25Baseline(docs)],
    ['bm25 over questions', (docs) => createBm25Baseline(docs, 'question')],
  ];
  for (const [name, build] of rows) {
    const cells: string[] = [];
    for (const run of heldout) {
      const { docs, queries } = loadInputs(path.join(root, run.set, 'corpus.json'), run.queries);
      cells.push(
        f3(summarize(await runSystem(name, () => build(docs.map((d) => ({ ...d }))), queries), queries).all!.ndcg).padStart(width),
      );
    }
    console.log(`  ${name.padEnd(22)} ${cells.join(' ')}`);
  }
}

main().catch((err: unknown) => {
  if (err instanceof EvalInputError) {
    console.error(`eval:faq: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exitCode = 1;
});
