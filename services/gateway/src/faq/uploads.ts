import { createHash } from 'node:crypto';
import { ValidationError } from '@convo/runtime';
import { type FaqDocument, FaqDocumentInput } from '@convo/contract';
import { detectLanguage, normalize } from '@convo/text';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse as csvParser } from 'csv-parse';

/**
 * POST /faq/documents bodies: JSON (one document, an array, or
 * `{ "documents": [...] }`) or CSV with a header row. An upload is checked as
 * a whole before anything is stored, and every problem is named by its row.
 */

export const MAX_DOCS_PER_UPLOAD = 10_000;

/**
 * An upload of a megabyte parsed and checked in one go held the gateway's event loop for about 150 ms (every other
 * client and stream waited): the CSV goes to the parser in pieces and the documents are checked in slices, with a
 * turn of the event loop between them.
 */
const CSV_PIECE_CHARS = 8 * 1024;
const SLICE_MS = 10;

/** The text in pieces of CSV_PIECE_CHARS, never cut inside a surrogate pair, each after a turn of the event loop. */
async function* pieces(text: string): AsyncGenerator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + CSV_PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    yield text.slice(at, end);
    at = end;
    await nextTurn();
  }
}

/** Resolves at once while this slice of work is under SLICE_MS, else after a turn of the event loop. */
function slices(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await nextTurn();
    since = performance.now();
  };
}

export function jsonRecords(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as { documents?: unknown }).documents))
    return (body as { documents: unknown[] }).documents;
  if (body && typeof body === 'object') return [body];
  throw new ValidationError('expected a document, an array of documents, or { "documents": [...] }', 'invalid_documents');
}

/** CSV with a header row: id (optional), question, answer, tags (separated by | or ;), language (optional). */
export async function csvRecords(text: string): Promise<unknown[]> {
  const rows: Array<Record<string, string>> = [];
  try {
    const parser = Readable.from(pieces(text.replace(/^\uFEFF/, ''))).pipe(
      csvParser({
        columns: (headers: string[]) => headers.map((header) => header.trim().toLowerCase()),
        skip_empty_lines: true,
        trim: true,
      }),
    );
    for await (const row of parser) rows.push(row as Record<string, string>);
  } catch (err) {
    throw new ValidationError(`CSV could not be parsed: ${err instanceof Error ? err.message : String(err)}`, 'invalid_csv');
  }
  return rows.map((row) => ({
    ...(row.id ? { id: row.id } : {}),
    question: row.question,
    answer: row.answer,
    ...(row.tags
      ? {
          tags: row.tags
            .split(/[|;]/)
            .map((tag) => tag.trim())
            .filter(Boolean),
        }
      : {}),
    ...(row.language ? { language: row.language } : {}),
  }));
}

/**
 * Validates every record and completes it: the language is detected when
 * absent, and a missing id is derived from language + normalised question,
 * so uploading the same question again replaces its earlier version.
 */
export async function toDocuments(records: unknown[]): Promise<FaqDocument[]> {
  if (records.length === 0) throw new ValidationError('no documents in the upload', 'invalid_documents');
  if (records.length > MAX_DOCS_PER_UPLOAD)
    throw new ValidationError(`at most ${MAX_DOCS_PER_UPLOAD} documents per upload`, 'too_many_documents');
  const problems: string[] = [];
  const docs: FaqDocument[] = [];
  const pause = slices();
  for (const [i, rec] of records.entries()) {
    await pause();
    const parsed = FaqDocumentInput.safeParse(rec);
    if (!parsed.success) {
      problems.push(
        `document ${i + 1}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join(', ')}`,
      );
      continue;
    }
    const doc = parsed.data;
    const language = doc.language ?? detectLanguage(`${doc.question} ${doc.answer}`);
    const id =
      doc.id ??
      `faq-${createHash('sha256')
        .update(`${language}\n${normalize(doc.question)}`)
        .digest('hex')
        .slice(0, 16)}`;
    docs.push({ id, question: doc.question, answer: doc.answer, tags: doc.tags ?? [], language });
  }
  if (problems.length > 0) {
    const more = problems.length > 10 ? `; and ${problems.length - 10} more` : '';
    throw new ValidationError(`invalid documents: ${problems.slice(0, 10).join('; ')}${more}`, 'invalid_documents');
  }
  const seen = new Set<string>();
  for (const doc of docs) {
    if (seen.has(doc.id)) throw new ValidationError(`document id ${doc.id} appears twice in the upload`, 'duplicate_document_id');
    seen.add(doc.id);
  }
  return docs;
}
