import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { difficultyOf, mathTopicOf, problemLanguage } from '@convo/workbench';

/**
 * `npm run eval:workbench -- --requests`: the blind set of teacher requests
 * (eval/workbench-requests, three writers who had not read the code, from
 * BRIEF.md) sent to a running system as a teacher's page would: create the
 * worksheet, put the teacher's own problem in place when the item gives one,
 * send the request to the problem's agent, and judge the answer against the
 * item's expected outcome and effects. Split by a hash of the item id: 40%
 * dev, 60% held out.
 */

const Own = z.object({
  type: z.enum(['multiple_choice', 'written']),
  prompt: z.string(),
  choices: z.array(z.string()).optional(),
  correctChoiceIndex: z.number().int().optional(),
  explanation: z.string().optional(),
  modelAnswer: z.string().optional(),
  rubric: z.array(z.string()).optional(),
});
const Sheet = z.object({ subject: z.string(), difficulty: z.enum(['easy', 'normal', 'hard']), topic: z.string().nullable().optional() });
const Item = z.discriminatedUnion('kind', [
  z.object({
    id: z.string(),
    kind: z.literal('edit'),
    language: z.enum(['ja', 'en']),
    worksheet: Sheet,
    problem: z.number().int().min(1).max(10),
    request: z.string(),
    expect: z.object({ outcome: z.enum(['edit', 'report', 'refuse']), effects: z.array(z.string()) }),
    own: Own.optional(),
    note: z.string().optional(),
  }),
  z.object({
    id: z.string(),
    kind: z.literal('create'),
    language: z.enum(['ja', 'en']),
    worksheet: Sheet,
    expect: z.object({ outcome: z.enum(['honour', 'refuse']), topic: z.string().nullable().optional() }),
    note: z.string().optional(),
  }),
]);
export type RequestItem = z.infer<typeof Item>;

export function loadRequests(root: string): { dev: RequestItem[]; heldout: RequestItem[] } {
  const items = ['a', 'b', 'c'].flatMap((writer) =>
    z.array(Item).parse(JSON.parse(readFileSync(path.join(root, 'eval', 'workbench-requests', `writer-${writer}.json`), 'utf8'))),
  );
  const dev = items.filter((item) => createHash('sha1').update(item.id).digest()[0]! < 0.4 * 256);
  return { dev, heldout: items.filter((item) => !dev.includes(item)) };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `appended`: text an edit added after the end of the prompt or the explanation, where no hint was asked for. */
export type Verdict = {
  item: RequestItem;
  done: boolean;
  failed: string[];
  appended: string | null;
  falseSuccess: boolean;
  message: string;
};

async function call(base: string, method: string, url: string, body?: unknown, token?: string): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}

const answerOf = (problem: Json): string =>
  String(problem.type === 'written' ? problem.modelAnswer : (problem.choices?.[problem.correctChoiceIndex] ?? ''))
    .normalize('NFKC')
    .trim();
// The answer a text gives is its last number: a model answer ends with it ("60 × 2.5 = 150。答え: 150").
const numberIn = (text: string) => {
  const match = [...text.matchAll(/-?\d+(?:\.\d+)?(?:\/\d+)?/g)].at(-1);
  if (!match) return null;
  const [top, bottom] = match[0].split('/');
  return bottom ? Number(top) / Number(bottom) : Number(top);
};
const sameAnswer = (left: string, right: string) => {
  if (left === right) return true;
  const [a, b] = [numberIn(left), numberIn(right)];
  return a !== null && b !== null && Math.abs(a - b) < 1e-9;
};
const SAYS_WHY = /できません|できない|ありません|ません|cannot|can't|could not|not |no /i;

export async function judge(base: string, item: RequestItem): Promise<Verdict> {
  const failed: string[] = [];
  const verdict = (
    message: string,
    extra: Pick<Verdict, 'appended' | 'falseSuccess'> = { appended: null, falseSuccess: false },
  ): Verdict => ({
    item,
    done: failed.length === 0,
    failed,
    message,
    ...extra,
  });
  const body = {
    subject: item.worksheet.subject,
    difficulty: item.worksheet.difficulty,
    language: item.language,
    ...(item.worksheet.topic ? { topic: item.worksheet.topic } : {}),
  };
  const sheet = await call(base, 'POST', '/api/worksheets', body);
  if (item.kind === 'create') {
    if (item.expect.outcome === 'refuse') {
      if (sheet.status !== 422) failed.push(`status ${sheet.status}, expected 422`);
      const message = String(sheet.json.error?.message ?? '');
      if (item.language === 'ja' ? !/[ぁ-ん]/.test(message) : /[ぁ-ん]/.test(message)) failed.push('message not in the request language');
      return verdict(message);
    }
    if (!sheet.json.problems) {
      failed.push(`status ${sheet.status}: ${sheet.json.error?.message ?? ''}`);
      return verdict('');
    }
    const topic = item.expect.topic;
    if (topic) {
      const off = (sheet.json.problems as Json[]).filter((problem) => mathTopicOf(problem.source?.generator) !== topic);
      if (off.length > 0) failed.push(`${off.length} problems off topic ${topic}`);
    }
    return verdict(String(sheet.json.title ?? ''));
  }
  if (!sheet.json.problems) {
    failed.push(`worksheet not made: ${sheet.status} ${sheet.json.error?.message ?? ''}`);
    return verdict('');
  }
  const token = String(sheet.json.editToken);
  const problemId = `${sheet.json.worksheetId}-p${item.problem}`;
  if (item.own) {
    const own = item.own;
    const fields: Array<[string, unknown]> = [
      ['prompt', own.prompt],
      ...(own.type === 'multiple_choice'
        ? ([
            ['choices', own.choices],
            ['correctChoiceIndex', own.correctChoiceIndex],
          ] as Array<[string, unknown]>)
        : ([['modelAnswer', own.modelAnswer]] as Array<[string, unknown]>)),
      ['explanation', own.explanation],
    ];
    for (const [field, value] of fields) {
      if (value === undefined) continue;
      const current = await call(base, 'GET', `/api/problems/${problemId}`, undefined, token);
      const patched = await call(base, 'PATCH', `/api/problems/${problemId}`, { field, value, version: current.json.version }, token);
      if (patched.status !== 200) {
        failed.push(`own problem not set (${field}: ${patched.status})`);
        return verdict('');
      }
    }
  }
  const res = await call(base, 'POST', `/api/problems/${problemId}/agent`, { request: item.request }, token);
  if (res.status !== 200) {
    failed.push(`agent answered ${res.status}: ${res.json.error?.message ?? ''}`);
    return verdict('');
  }
  const result = res.json;
  const before = result.before.problem as Json;
  const after = result.after.problem as Json;
  const changed = (result.changed as string[]).length > 0;
  const tools = (result.actions as Json[]).map((action) => action.tool as string);
  const message = String(result.message ?? '');
  const reasons = [
    message,
    ...(result.actions as Json[]).filter((action) => action.status === 'error').map((action) => String(action.summary)),
  ].join(' ');
  if (item.expect.outcome === 'edit') {
    if (!changed) failed.push('nothing changed');
    else if (!result.after.consistency.isConsistent) failed.push('inconsistent after the edit');
  } else if (changed) failed.push(`changed ${(result.changed as string[]).join(', ')} (expected ${item.expect.outcome})`);
  for (const effect of item.expect.effects) {
    const ok = (() => {
      switch (effect) {
        case 'prompt_changes':
          return before.prompt !== after.prompt;
        case 'prompt_unchanged':
          return before.prompt === after.prompt;
        case 'choices_change':
          return JSON.stringify(before.choices) !== JSON.stringify(after.choices);
        case 'choices_unchanged':
          return JSON.stringify(before.choices) === JSON.stringify(after.choices);
        case 'answer_changes':
          return !sameAnswer(answerOf(before), answerOf(after));
        case 'answer_unchanged':
          return sameAnswer(answerOf(before), answerOf(after));
        case 'explanation_changes':
          return before.explanation !== after.explanation;
        case 'harder':
        case 'easier': {
          // Numbers by the quality scorer's estimate; words by how rare they are (the generator's band, via its record).
          if (before.prompt === after.prompt) return false;
          const [from, to] = [difficultyOf(before as { prompt: string }), difficultyOf(after as { prompt: string })];
          return effect === 'harder' ? to > from || changedWord(before, after) : to < from || changedWord(before, after);
        }
        case 'shorter_prompt':
          return [...String(after.prompt)].length < [...String(before.prompt)].length;
        case 'language_en':
          return problemLanguage(after as { prompt: string }) === 'en';
        case 'language_ja':
          return problemLanguage(after as { prompt: string }) === 'ja';
        case 'has_hint':
          return (
            /ヒント|hint|（|\(/i.test(`${after.prompt} ${after.explanation}`) &&
            `${after.prompt}${after.explanation}` !== `${before.prompt}${before.explanation}`
          );
        case 'report_check':
          return tools.includes('consistency_checker');
        case 'report_score':
          return tools.includes('quality_scorer') && /\d/.test(reasons);
        case 'report_suggestions':
          return tools.includes('suggestion_generator');
        case 'says_why':
          return SAYS_WHY.test(reasons);
        default:
          if (effect.startsWith('topic:')) return mathTopicOf(after.source?.generator) === effect.slice('topic:'.length);
          return false;
      }
    })();
    if (!ok) failed.push(effect);
  }
  // Text appended where no hint was asked for: canned (the stock "improvement" the issue names) when it is the same for other items.
  let appended: string | null = null;
  for (const field of ['prompt', 'explanation'] as const) {
    const [was, now] = [String(before[field] ?? ''), String(after[field] ?? '')];
    if (now.length > was.length && now.startsWith(was) && !item.expect.effects.includes('has_hint'))
      appended = now.slice(was.length).trim();
  }
  const falseSuccess = !changed && (result.actions as Json[]).some((action) => action.tool === 'editor' && action.status === 'success');
  return verdict(message, { appended, falseSuccess });
}

/** Whether a word problem's word changed (kanji and vocabulary: the level is the word's rarity, judged by the record). */
function changedWord(before: Json, after: Json): boolean {
  const word = (problem: Json) => problem.source?.params?.surface ?? problem.source?.params?.word ?? null;
  return word(before) !== null && word(after) !== null && word(before) !== word(after) && !mathTopicOf(after.source?.generator);
}

export function printRequests(name: string, verdicts: Verdict[], details: boolean): void {
  const done = verdicts.filter((verdict) => verdict.done).length;
  const by = (pick: (verdict: Verdict) => string) => {
    const groups = new Map<string, Verdict[]>();
    for (const verdict of verdicts) groups.set(pick(verdict), [...(groups.get(pick(verdict)) ?? []), verdict]);
    return [...groups].map(([key, list]) => `${key} ${list.filter((verdict) => verdict.done).length}/${list.length}`).join(', ');
  };
  const items = new Set(verdicts.map((verdict) => verdict.item.id)).size;
  console.log(`\n## Teacher requests: ${name} (${items} items, ${verdicts.length / Math.max(1, items)} runs each)\n`);
  console.log(`- did what was asked: ${done}/${verdicts.length} runs (${((100 * done) / Math.max(1, verdicts.length)).toFixed(1)}%)`);
  console.log(
    `- by expected outcome: ${by((verdict) => (verdict.item.kind === 'create' ? `create-${verdict.item.expect.outcome}` : verdict.item.expect.outcome))}`,
  );
  console.log(`- by language: ${by((verdict) => verdict.item.language)}`);
  // Canned: the same text appended to the problems of two different items (a stock sentence, not one made of the problem).
  const itemsOf = new Map<string, Set<string>>();
  for (const verdict of verdicts)
    if (verdict.appended) itemsOf.set(verdict.appended, (itemsOf.get(verdict.appended) ?? new Set()).add(verdict.item.id));
  const canned = (verdict: Verdict) => verdict.appended !== null && itemsOf.get(verdict.appended)!.size > 1;
  console.log(
    `- canned sentences appended: ${verdicts.filter(canned).length} (text appended without a hint asked for: ${verdicts.filter((verdict) => verdict.appended).length})`,
  );
  console.log(`- success reported for an edit that did not happen: ${verdicts.filter((verdict) => verdict.falseSuccess).length}`);
  if (!details) return;
  // One line per item that failed in any run: how often, and the first failure's reasons.
  const failing = new Map<string, Verdict[]>();
  for (const verdict of verdicts.filter((entry) => !entry.done || canned(entry)))
    failing.set(verdict.item.id, [...(failing.get(verdict.item.id) ?? []), verdict]);
  for (const [id, list] of failing) {
    const [first] = list as [Verdict];
    const runs = verdicts.filter((verdict) => verdict.item.id === id).length;
    console.log(
      `- ${id} (${list.length}/${runs}) [${first.item.kind === 'edit' ? first.item.request : first.item.worksheet.subject}] failed: ${first.failed.join('; ')}${canned(first) ? ` canned: ${first.appended}` : ''} — ${first.message.slice(0, 160).replace(/\n/g, ' ')}`,
    );
  }
}
