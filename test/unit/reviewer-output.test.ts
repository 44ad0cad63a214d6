import { describe, expect, it } from 'vitest';
import type { ChatRequest, ToolOutcome } from '@convo/agent-kit';
import { toolParameters, toolSpec } from '@convo/agent-kit/internal/llm/json-schema';
import {
  MissingReason,
  parseSubAgentResult,
  type ReviewerOutput,
  ReviewerVerdict,
  type ReviewMessages,
  type SessionLanguage,
  SubAgentResultError,
  withReviewMessages,
} from '@convo/forms';
import { SystemError } from '@convo/runtime';
import { interviewerContext } from '../../services/interviewer/src/agent.js';
import { interviewerPolicy } from '../../services/interviewer/src/offline.js';
import { REVIEW_TOOL } from '../../services/reviewer/src/agent.js';
import { type Interview, startInterview, throughGreeting } from '../support/interview-harness.js';

/**
 * Every sentence the offline reviewer writes (review-messages.ts) can be
 * reworded at will: the interviewer reads the reviewer's findings as data
 * (ReviewerOutput), so the same answers lead to the same follow-ups and the
 * same stored values. REWORDED says something else entirely for every
 * message, in both languages.
 */
const memo = (lang: SessionLanguage, what: string) =>
  lang === 'ja' ? `〔審査メモ〕${what}をご確認ください。` : `Reviewer memo — please look at ${what} again.`;
const REWORDED = (): ReviewMessages => ({
  verdict: (lang, _type, fact, verdict) =>
    memo(lang, lang === 'ja' ? `「${fact}」（${verdict.code === 'missing' ? '未回答' : '要確認'}）` : `“${fact}” (${verdict.code})`),
  required: (lang, reason) => memo(lang, lang === 'ja' ? '必須の設問' : `this required question (${reason})`),
  optionalHint: (lang) => memo(lang, lang === 'ja' ? '省略できる設問' : 'a question you may leave out'),
  skipped: (lang) => memo(lang, lang === 'ja' ? '省略された設問' : 'the skipped question'),
});

const FORMS = {
  en: {
    title: 'Club sign-up',
    fields: [
      { id: 'f1', fieldId: 'name', label: 'Full name', intent: 'Put you on the member list', required: true, sortOrder: 1 },
      { id: 'f2', fieldId: 'email', label: 'Email', intent: 'Send the newsletter', required: true, sortOrder: 2 },
      { id: 'f3', fieldId: 'experience', label: 'Coaching experience', intent: 'Match you to a team', required: true, sortOrder: 3 },
      {
        id: 'f4',
        fieldId: 'started',
        label: 'Year you started playing',
        intent: 'Group members by experience',
        required: true,
        sortOrder: 4,
      },
      { id: 'f5', fieldId: 'tshirt', label: 'T-shirt size (S/M/L/XL)', intent: 'Order shirts', required: true, sortOrder: 5 },
      { id: 'f6', fieldId: 'motivation', label: 'Motivation', intent: 'Plan the season', required: true, sortOrder: 6 },
      { id: 'f7', fieldId: 'phone', label: 'Phone number', intent: 'Reach you on match days', required: false, sortOrder: 7 },
    ],
    facts: [
      { id: 'k1', formFieldId: 'f1', factKey: 'full_name', fact: 'Full name', doneCriteria: 'Given and family name' },
      { id: 'k2', formFieldId: 'f2', factKey: 'email', fact: 'Email address', doneCriteria: 'A valid email address' },
      {
        id: 'k3',
        formFieldId: 'f3',
        factKey: 'what',
        fact: 'What coaching you have done',
        doneCriteria: 'A concrete activity, with the team or age group',
      },
      { id: 'k4', formFieldId: 'f3', factKey: 'when', fact: 'When you did it', doneCriteria: 'A year or period is given' },
      { id: 'k5', formFieldId: 'f4', factKey: 'year', fact: 'Year you started playing', doneCriteria: 'A year' },
      { id: 'k6', formFieldId: 'f5', factKey: 'size', fact: 'T-shirt size', doneCriteria: 'One of S, M, L, XL' },
      { id: 'k7', formFieldId: 'f6', factKey: 'why', fact: 'Why you want to join the club', doneCriteria: 'A concrete reason' },
      {
        id: 'k8',
        formFieldId: 'f6',
        factKey: 'improve',
        fact: 'What you hope to get better at',
        doneCriteria: 'A skill or area to improve',
      },
      { id: 'k9', formFieldId: 'f7', factKey: 'phone', fact: 'Phone number', doneCriteria: 'A phone number we can call' },
    ],
  },
  ja: {
    title: 'クラブ入会申込',
    fields: [
      { id: 'f1', fieldId: 'name', label: '氏名', intent: '会員名簿に登録する', required: true, sortOrder: 1 },
      { id: 'f2', fieldId: 'email', label: 'メールアドレス', intent: '会報を送る', required: true, sortOrder: 2 },
      { id: 'f3', fieldId: 'experience', label: '指導経験', intent: 'チームを決める', required: true, sortOrder: 3 },
      { id: 'f4', fieldId: 'started', label: '競技を始めた年', intent: '経験年数で分ける', required: true, sortOrder: 4 },
      { id: 'f5', fieldId: 'tshirt', label: 'Tシャツのサイズ（S・M・L・XL）', intent: 'Tシャツを手配する', required: true, sortOrder: 5 },
      { id: 'f6', fieldId: 'motivation', label: '入会の動機', intent: 'シーズンの計画を立てる', required: true, sortOrder: 6 },
      { id: 'f7', fieldId: 'phone', label: '電話番号', intent: '試合当日の連絡のため', required: false, sortOrder: 7 },
    ],
    facts: [
      { id: 'k1', formFieldId: 'f1', factKey: 'full_name', fact: '氏名', doneCriteria: '姓と名' },
      { id: 'k2', formFieldId: 'f2', factKey: 'email', fact: 'メールアドレス', doneCriteria: '正しい形式' },
      { id: 'k3', formFieldId: 'f3', factKey: 'what', fact: 'どんな指導をしたか', doneCriteria: '具体的な活動内容とチームや年代' },
      { id: 'k4', formFieldId: 'f3', factKey: 'when', fact: 'いつ行ったか', doneCriteria: '年または期間' },
      { id: 'k5', formFieldId: 'f4', factKey: 'year', fact: '競技を始めた年', doneCriteria: '西暦の年' },
      { id: 'k6', formFieldId: 'f5', factKey: 'size', fact: 'Tシャツのサイズ', doneCriteria: 'S・M・L・XLのいずれか' },
      { id: 'k7', formFieldId: 'f6', factKey: 'why', fact: '入会したい理由', doneCriteria: '具体的な理由' },
      { id: 'k8', formFieldId: 'f6', factKey: 'improve', fact: '伸ばしたい技術', doneCriteria: '伸ばしたい技術や分野' },
      { id: 'k9', formFieldId: 'f7', factKey: 'phone', fact: '電話番号', doneCriteria: '連絡のつく番号' },
    ],
  },
} as const;

// Answers that draw every kind of finding: half a name, no email, a vague and a brief answer, two years, a refused
// required choice, a colour that is no size, "I don't know" to the end, a missing part, and "I don't know" to an
// optional question.
const SCRIPTS: Record<'en' | 'ja', { residence: string; answers: string[] }> = {
  en: {
    residence: 'I live in Toronto, Canada',
    answers: [
      'Jane',
      'Jane Doe',
      "It's the same one as my work account",
      'jane@',
      'jane@example.com',
      'a little',
      'I coached',
      'I coached the under-12 girls team in 2019',
      '2012? Or 2013?',
      '2012',
      'skip',
      'purple',
      "I don't know",
      "I don't know",
      'Money',
      'My friends play there and I want to play in a league',
      'I want to improve my passing and my stamina',
      "I don't know",
      'skip',
    ],
  },
  ja: {
    residence: '大阪に住んでいます',
    answers: [
      '花子',
      '山田花子',
      'あとで送ります',
      'hanako@',
      'hanako@example.jp',
      '少し',
      '指導しました',
      '2019年に小学生の女子チームのコーチをしました',
      '2012年か2013年',
      '2012年',
      'スキップ',
      '紫',
      'わかりません',
      'わかりません',
      'お金',
      '友人が所属していて、リーグ戦に出たいからです',
      'パスの精度とスタミナを伸ばしたいです',
      'わかりません',
      'スキップ',
    ],
  },
};

type Turn = { answer: string; reply: string; review: ReviewerOutput | null };

/** One interview through the offline agents, turn by turn: what the interviewer said and the reviewer's result behind it. */
async function interview(lang: 'en' | 'ja', reworded: boolean): Promise<{ turns: Turn[]; session: Interview }> {
  return withReviewMessages(reworded ? REWORDED : (written) => written, async () => {
    const session = startInterview({ form: FORMS[lang], language: lang, maxFollowUps: 3 });
    await throughGreeting(session, SCRIPTS[lang].residence);
    const turns: Turn[] = [];
    for (const answer of SCRIPTS[lang].answers) {
      const before = session.draft.runSteps.length;
      await session.say(answer);
      const handedBack = session.draft.runSteps
        .slice(before)
        .find((step) => step.toolName === 'subtask' && step.agent === 'interviewer' && isReviewerResult(step.output));
      const parsed = handedBack ? parseSubAgentResult('reviewer', (handedBack.output as { result: Record<string, unknown> }).result) : null;
      if (parsed && !parsed.success) throw parsed.error;
      turns.push({ answer, reply: session.lastAssistant(), review: parsed?.data ?? null });
    }
    return { turns, session };
  });
}

function isReviewerResult(output: unknown): boolean {
  return (
    typeof output === 'object' &&
    output !== null &&
    'result' in output &&
    typeof output.result === 'object' &&
    output.result !== null &&
    'reviewerAgentOutput' in output.result
  );
}

/** What the reviewer asked to be passed on before a follow-up: its notice, and its notes on findings a question alone does not explain. */
function passedOn(review: ReviewerOutput, lang: 'en' | 'ja'): string {
  const notes = review.missing.filter((fact) => !['absent', 'not_found', 'too_brief'].includes(fact.reason)).map((fact) => fact.note ?? '');
  return [review.notice?.text ?? '', ...notes].filter(Boolean).join(lang === 'ja' ? '' : ' ');
}

const fieldsOf = (session: Interview) =>
  session.draft.state.fields.map(({ fieldId, status, value, needsReview, followUps, skipReason }) => ({
    fieldId,
    status,
    value,
    needsReview,
    followUps,
    skipReason,
  }));

describe('when every review message is reworded, the interview does not change', () => {
  it.each(['en', 'ja'] as const)('%s: the same follow-ups name the same missing facts, and the same values are stored', async (lang) => {
    const original = await interview(lang, false);
    const reworded = await interview(lang, true);

    // The rewording took effect: every follow-up's findings carry the other sentences.
    const followUps = reworded.turns.filter((turn) => turn.review?.outcome === 'follow_up');
    expect(followUps.length).toBeGreaterThanOrEqual(12);
    for (const turn of followUps) {
      for (const note of [turn.review!.notice?.text, ...turn.review!.missing.map((fact) => fact.note)])
        if (note) expect(note).toMatch(/Reviewer memo|審査メモ/);
    }
    // …and the findings themselves, as data, are the same.
    const findings = (turns: Turn[]) =>
      turns.map(
        (turn) =>
          turn.review && {
            outcome: turn.review.outcome,
            notice: turn.review.notice?.code ?? null,
            missing: turn.review.missing.map(({ fact, reason, kind, heard, options }) => ({ fact, reason, kind, heard, options })),
          },
      );
    expect(findings(reworded.turns)).toEqual(findings(original.turns));

    // Every reply is the same, but for the reviewer's own sentences, which are passed on as written.
    reworded.turns.forEach((turn, i) => {
      const before = original.turns[i]!;
      const told = turn.review?.outcome === 'follow_up' ? passedOn(turn.review, lang) : '';
      const toldBefore = before.review?.outcome === 'follow_up' ? passedOn(before.review, lang) : '';
      if (told && !turn.review!.finalAttempt) expect(turn.reply, turn.answer).toContain(told);
      const blanked = (reply: string, said: string) => (said ? reply.replace(said, '<reviewer>') : reply);
      expect(blanked(turn.reply, told), turn.answer).toBe(blanked(before.reply, toldBefore));
    });

    // The interview completes with the same values, follow-ups and flags.
    expect(reworded.session.draft.state.status).toBe('awaiting_confirmation');
    expect(fieldsOf(reworded.session)).toEqual(fieldsOf(original.session));
  });

  it('English: each follow-up is worded from the reason, not from the reviewer’s sentence', async () => {
    const { turns } = await interview('en', true);
    const reply = (answer: string) => turns.findLast((turn) => turn.answer === answer)!.reply;
    // Nothing found: an apology naming the kind of value, then the question.
    expect(reply("It's the same one as my work account")).toBe(
      "Sorry, I couldn't find an email address in your answer. Could you tell me your email address?",
    );
    // Too brief, and a part not answered yet.
    expect(reply('Money')).toBe(
      'Thanks! Could you tell me a little more about why you want to join the club, and also what you hope to get better at?',
    );
    expect(reply('My friends play there and I want to play in a league')).toBe(
      'Thanks! Could you also tell me what you hope to get better at?',
    );
    // A value that could not be used: the reviewer's note first, then the same question.
    expect(reply('2012? Or 2013?')).toMatch(
      /^Reviewer memo — please look at “Year you started playing” \(ambiguous\) again\. Could you please tell me your year you started playing\?$/,
    );
    // The reviewer's notice that an optional question may be skipped is said instead of the usual reminder.
    expect(reply("I don't know")).toBe(
      'Reviewer memo — please look at a question you may leave out again. Could you please tell me your phone number?',
    );
  });

  it('Japanese: each follow-up is worded from the reason, not from the reviewer’s sentence', async () => {
    const { turns } = await interview('ja', true);
    const reply = (answer: string) => turns.findLast((turn) => turn.answer === answer)!.reply;
    expect(reply('あとで送ります')).toBe(
      'すみません、ご回答からメールアドレスを読み取れませんでした。メールアドレスを教えていただけますか？',
    );
    expect(reply('お金')).toBe(
      'ありがとうございます。入会したい理由について、もう少し詳しく教えていただけますか？あわせて、伸ばしたい技術についても教えていただけますか？',
    );
    expect(reply('友人が所属していて、リーグ戦に出たいからです')).toBe(
      'ありがとうございます。あわせて、伸ばしたい技術についても教えていただけますか？',
    );
    expect(reply('2012年か2013年')).toBe(
      '〔審査メモ〕「競技を始めた年」（要確認）をご確認ください。競技を始めた年を教えていただけますか？',
    );
    expect(reply('わかりません')).toBe('〔審査メモ〕省略できる設問をご確認ください。お電話番号を教えていただけますか？');
  });
});

describe('a malformed reviewer result', () => {
  const valid: ReviewerOutput = {
    fieldId: 'email',
    outcome: 'follow_up',
    finalAttempt: false,
    passed: false,
    skipped: false,
    field_value: null,
    missing: [
      {
        fact: 'Email address',
        reason: 'invalid',
        kind: 'email',
        heard: 'jane@',
        options: [],
        note: "The email address 'jane@' is not valid.",
      },
    ],
    extracted_facts: [],
    notice: null,
    feedback: "The email address 'jane@' is not valid.",
    derivation: null,
  };

  it('parses a well-formed result as it was written', () => {
    expect(parseSubAgentResult('reviewer', { message: 'Not yet complete.', reviewerAgentOutput: valid })).toEqual({
      success: true,
      data: valid,
    });
  });

  it('is rejected with a SubAgentResultError naming the agent and where each problem is', () => {
    const bad = { ...valid, missing: [{ ...valid.missing[0], reason: 'missing' }], outcome: 'maybe' };
    const parsed = parseSubAgentResult('reviewer', { message: 'Not yet complete.', reviewerAgentOutput: bad });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error).toBeInstanceOf(SubAgentResultError);
    // Written by code from validated tool arguments: a broken one is our bug, never retried as the model's.
    expect(parsed.error).toBeInstanceOf(SystemError);
    expect(parsed.error.toJSON()).toMatchObject({ name: 'SubAgentResultError', code: 'internal_error' });
    expect(parsed.error.agent).toBe('reviewer');
    expect(parsed.error.issues).toEqual([expect.stringMatching(/^outcome: /), expect.stringMatching(/^missing\.0\.reason: /)]);
    expect(parsed.error.message).toMatch(/^the reviewer's result does not match its schema: outcome: .*; missing\.0\.reason: /);
  });

  it('is rejected when it is the old prose-and-strings shape, or absent', () => {
    const legacy = {
      fieldId: 'email',
      outcome: 'follow_up',
      passed: false,
      missing_facts: ['Email address'],
      feedback: 'No email address was found in the answer.',
    };
    const parsed = parseSubAgentResult('reviewer', { message: 'Not yet complete.', reviewerAgentOutput: legacy });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(parsed.error.issues).toEqual(
        expect.arrayContaining([expect.stringMatching(/^missing: /), expect.stringMatching(/^finalAttempt: /)]),
      );
    const absent = parseSubAgentResult('checker', { message: 'Passed.' });
    expect(absent.success).toBe(false);
    if (!absent.success) expect(absent.error.issues).toEqual([expect.stringMatching(/^\(root\): /)]);
  });

  it('fails the offline interviewer’s turn instead of phrasing a follow-up from a guess', async () => {
    const session = startInterview({ form: FORMS.en, language: 'en' });
    await throughGreeting(session, SCRIPTS.en.residence);
    const context = interviewerContext(session.draft.state);
    const request: ChatRequest = { agent: 'interviewer', model: 'offline', messages: [], tools: [], context };
    const handedBack = (reviewerAgentOutput: unknown): ToolOutcome[] => [
      {
        name: 'subtask',
        args: { agent: 'reviewer', field_id: 'name', question: null, note: null },
        status: 'success',
        result: { message: 'Not yet complete.', reviewerAgentOutput },
      },
    ];
    await expect(async () => interviewerPolicy(request, handedBack({ ...valid, fieldId: 'name', missing: 'Full name' }))).rejects.toThrow(
      SubAgentResultError,
    );
    expect(
      await interviewerPolicy(
        request,
        handedBack({ ...valid, fieldId: 'name', missing: [{ ...valid.missing[0]!, fact: 'Full name', reason: 'absent', kind: 'name' }] }),
      ),
    ).toMatchObject({
      call: { name: 'ask' },
    });
  });
});

describe("the model's review tool", () => {
  it('takes the ReviewerVerdict schema itself as its parameters, structured missing facts included', () => {
    const parameters = toolSpec(REVIEW_TOOL.name, 'review', REVIEW_TOOL.schema).parameters;
    expect(parameters).toEqual(toolParameters(ReviewerVerdict));
    const missing = (
      parameters as {
        properties: { missing: { anyOf: Array<{ type: string; items?: { properties: Record<string, { enum?: string[] }> } }> } };
      }
    ).properties.missing;
    const item = missing.anyOf.find((branch) => branch.type === 'array')!.items!;
    expect(item.properties.reason?.enum).toEqual(MissingReason.options);
    expect(Object.keys(item.properties).sort()).toEqual(['fact', 'heard', 'kind', 'note', 'options', 'reason']);
  });
});
