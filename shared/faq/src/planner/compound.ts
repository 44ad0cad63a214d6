import type { Token } from '@convo/text';
import { queryOf, termsFromTokens, type Term } from './terms.js';

/**
 * Compound questions ("ギフト配送と領収書発行の条件", "shipping time and return
 * policy") become one query per coordinated part, with what the parts share
 * (の条件, a plural head noun) given to each.
 */

const MAX_PARTS = 5;

/** One query per part, or null when the message is not a coordination of searchable parts. */
export function splitCompound(tokens: Token[], language: 'ja' | 'en'): string[] | null {
  const queries = language === 'ja' ? splitJapanese(tokens) : splitEnglish(tokens);
  if (!queries || queries.length < 2 || queries.length > MAX_PARTS) return null;
  return new Set(queries).size === queries.length ? queries : null;
}

const JA_CONJUNCTIONS: ReadonlySet<string> = new Set(['及び', 'および', '並びに', 'ならびに']);

function isNounish(token: Token | undefined): boolean {
  return token !== undefined && (token.pos === '名詞' || token.pos === '接頭詞');
}

// と/や count only as kuromoji's 並立助詞 (送料と手数料), never as 格助詞 (友達と一緒に).
function isJaCoordinator(tokens: Token[], i: number): boolean {
  const token = tokens[i];
  if (!token || !isNounish(tokens[i - 1]) || !isNounish(tokens[i + 1])) return false;
  if (token.pos === '助詞') return token.posDetail === '並立助詞' && (token.surface === 'と' || token.surface === 'や');
  if (token.pos === '接続詞') return JA_CONJUNCTIONS.has(token.surface);
  return ['・', '、', ',', '&'].includes(token.surface);
}

/**
 * Parts are the noun runs joined by coordinators; nouns outside the run (北海道
 * in 北海道への送料と手数料, 条件 in …の条件をまとめて教えて) are shared by
 * every part. Verbs outside it are how the request is phrased, not its subject.
 */
function splitJapanese(tokens: Token[]): string[] | null {
  const first = tokens.findIndex((_, i) => isJaCoordinator(tokens, i));
  if (first < 0) return null;
  let start = first;
  while (isNounish(tokens[start - 1])) start--;
  const parts: Term[][] = [termsFromTokens(tokens.slice(start, first))];
  let at = first;
  while (isJaCoordinator(tokens, at)) {
    let end = at + 1;
    while (isNounish(tokens[end])) end++;
    parts.push(termsFromTokens(tokens.slice(at + 1, end)));
    at = end;
  }
  if (parts.some((part) => part.length === 0)) return null;
  const nouns = (ts: Token[]) => termsFromTokens(ts.filter((token) => isNounish(token)));
  const before = nouns(tokens.slice(0, start));
  const after = nouns(tokens.slice(at));
  return parts.map((part) => queryOf([...before, ...part, ...after]));
}

const EN_COORDINATORS: ReadonlySet<string> = new Set(['and', 'plus', '&', ',']);
// "…and it hasn't arrived" joins clauses, not things to look up.
const EN_SUBJECTS: ReadonlySet<string> = new Set(['i', 'it', 'they', 'we', 'you', 'he', 'she', 'this', 'that', 'there']);
const EN_HEAD_PREPOSITIONS: ReadonlySet<string> = new Set(['for', 'of', 'on', 'about', 'regarding']);

function englishCoordinatorLength(tokens: Token[], i: number, commasCoordinate: boolean): number {
  const token = tokens[i];
  if (!token || (token.surface === ',' && !commasCoordinate)) return 0;
  if (token.surface === 'as' && tokens[i + 1]?.surface === 'well' && tokens[i + 2]?.surface === 'as')
    return EN_SUBJECTS.has(tokens[i + 3]?.surface ?? '') ? 0 : 3;
  return EN_COORDINATORS.has(token.surface) && !EN_SUBJECTS.has(tokens[i + 1]?.surface ?? '') ? 1 : 0;
}

function isPlural(term: Term | undefined): boolean {
  return term !== undefined && /[^s]s$/.test(term.text) && term.text.length > 3;
}

/**
 * English has no particle to mark a shared head, so only a plural one is
 * shared: "shipping and return policies" is two policies, "shipping time
 * and return policy" is one policy and one time. A head before
 * for/of ("conditions for gift wrapping and receipts") is shared the same way.
 */
function splitEnglish(tokens: Token[]): string[] | null {
  // A comma lists things only in "A, B and C"; alone it mostly separates clauses.
  const commasCoordinate = tokens.some((token, i) => token.surface !== ',' && englishCoordinatorLength(tokens, i, false) > 0);
  const segments: Token[][] = [[]];
  for (let i = 0; i < tokens.length;) {
    const len = englishCoordinatorLength(tokens, i, commasCoordinate);
    if (len > 0) {
      segments.push([]);
      i += len;
    } else {
      segments[segments.length - 1]?.push(tokens[i] as Token);
      i++;
    }
  }
  const firstSeg = segments[0] ?? [];
  const prep = firstSeg.findIndex((token) => EN_HEAD_PREPOSITIONS.has(token.surface));
  let head: Term[] = prep > 0 ? termsFromTokens(firstSeg.slice(0, prep)) : [];
  if (head.length > 0) segments[0] = firstSeg.slice(prep + 1);
  // Segments without terms ("Hi, …") are greetings or phrasing, not parts.
  const parts = segments.map(termsFromTokens).filter((part) => part.length > 0);
  if (parts.length < 2) return null;
  if (head.length > 0 && !isPlural(head[head.length - 1])) {
    // A singular head belongs to the first part only ("cost of shipping and returns").
    parts[0] = [...(parts[0] ?? []), ...head];
    head = [];
  }
  const last = parts[parts.length - 1] ?? [];
  const tail = last.length >= 2 && isPlural(last[last.length - 1]) ? last.slice(-1) : [];
  return parts.map((part) => {
    const ownHead = isPlural(part[part.length - 1]) ? [] : tail;
    return queryOf([...part, ...ownHead, ...head]);
  });
}
