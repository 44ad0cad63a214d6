import { describe, expect, it } from 'vitest';
import { csvRecords, toDocuments } from '../../services/gateway/src/faq/uploads.js';

describe('FAQ uploads', () => {
  it('reads a CSV of many pieces whole: characters outside the BMP across the piece boundaries, quotes, a BOM', async () => {
    // Answers long enough that the body is read in several pieces; an emoji lands on every offset mod 2.
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: `r${i}`,
      question: `質問 ${i} 🎉?`,
      answer: `${'x'.repeat(i % 2)}${'🐱'.repeat(3000)} "done"`,
    }));
    const csv = `\uFEFFid,Question,answer\n${rows.map((row) => `${row.id},${row.question},"${row.answer.replaceAll('"', '""')}"`).join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(200_000);
    expect(await csvRecords(csv)).toEqual(rows);
  });

  it('lets the event loop run while it reads a large upload', async () => {
    const csv = `id,question,answer\n${Array.from({ length: 60 }, (_, i) => `k${i},${'カ'.repeat(2000)},${'ー'.repeat(6000)}`).join('\n')}\n`;
    let turns = 0;
    const tick = () => {
      turns += 1;
      if (!done) setImmediate(tick);
    };
    let done = false;
    setImmediate(tick);
    const records = await csvRecords(csv);
    done = true;
    expect(records).toHaveLength(60);
    // Other work ran between the pieces (the body is 480,000 characters, read in pieces): the parse was not one block.
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it('refuses a CSV that does not parse with invalid_csv, and checks every document', async () => {
    await expect(csvRecords('id,question,answer\n1,"open quote,answer\n')).rejects.toMatchObject({ code: 'invalid_csv' });
    await expect(toDocuments([{ question: 'q?', answer: 'a' }, { question: '' }])).rejects.toMatchObject({ code: 'invalid_documents' });
    await expect(
      toDocuments([
        { id: 'a', question: 'q?', answer: 'a' },
        { id: 'a', question: 'r?', answer: 'b' },
      ]),
    ).rejects.toMatchObject({ code: 'duplicate_document_id' });
    expect(await toDocuments([{ question: 'Can I pay by card?', answer: 'Yes.' }])).toEqual([
      { id: expect.stringMatching(/^faq-[0-9a-f]{16}$/), question: 'Can I pay by card?', answer: 'Yes.', tags: [], language: 'en' },
    ]);
  });
});
