import { describe, expect, it } from 'vitest';
import { isForeign } from '../../services/interviewer/src/phrasing.js';
import { startInterview, throughGreeting } from '../support/interview-harness.js';
import { ScriptedModel } from '../support/scripted-model.js';

// The volunteer sign-up form the issue was found with, in both languages.
const volunteerEn = {
  title: 'Volunteer sign-up',
  fields: [
    { id: 'f1', fieldId: 'name', label: 'Full name', intent: 'Put you on the volunteer list', required: true, sortOrder: 1 },
    { id: 'f2', fieldId: 'email', label: 'Email', intent: 'Contact the volunteer', required: true, sortOrder: 2 },
    { id: 'f3', fieldId: 'phone', label: 'Phone number', intent: 'Reach you on the day', required: true, sortOrder: 3 },
    { id: 'f4', fieldId: 'tshirt', label: 'T-shirt size (S/M/L/XL)', intent: 'Order shirts', required: true, sortOrder: 4 },
    { id: 'f5', fieldId: 'experience', label: 'Volunteering experience', intent: 'Match you to a team', required: true, sortOrder: 5 },
    { id: 'f6', fieldId: 'available', label: 'Available date', intent: 'Plan the shifts', required: true, sortOrder: 6 },
  ],
  facts: [
    { id: 'k1', formFieldId: 'f1', factKey: 'full_name', fact: "The volunteer's full name", doneCriteria: 'Given and family name' },
    { id: 'k2', formFieldId: 'f2', factKey: 'email', fact: 'Email address', doneCriteria: 'A valid email address' },
    { id: 'k3', formFieldId: 'f3', factKey: 'phone', fact: 'Phone number', doneCriteria: 'A phone number we can call' },
    { id: 'k4', formFieldId: 'f4', factKey: 'tshirt_size', fact: 'T-shirt size', doneCriteria: 'One of S, M, L, XL' },
    { id: 'k5', formFieldId: 'f5', factKey: 'what', fact: 'What volunteering they have done', doneCriteria: 'A concrete activity' },
    { id: 'k6', formFieldId: 'f5', factKey: 'when', fact: 'When they did it', doneCriteria: 'A year or period is given' },
    { id: 'k7', formFieldId: 'f6', factKey: 'date', fact: 'The date they can help', doneCriteria: 'A date' },
  ],
};

const volunteerJa = {
  title: 'ボランティア申込',
  fields: [
    { id: 'f1', fieldId: 'name', label: '氏名', intent: '名簿に登録する', required: true, sortOrder: 1 },
    { id: 'f2', fieldId: 'email', label: 'メールアドレス', intent: 'ご連絡のため', required: true, sortOrder: 2 },
    { id: 'f3', fieldId: 'phone', label: '電話番号', intent: '当日の連絡のため', required: true, sortOrder: 3 },
    { id: 'f4', fieldId: 'tshirt', label: 'Tシャツのサイズ（S・M・L・XL）', intent: 'Tシャツを手配する', required: true, sortOrder: 4 },
    { id: 'f5', fieldId: 'experience', label: 'ボランティア経験', intent: '担当を決める', required: true, sortOrder: 5 },
  ],
  facts: [
    { id: 'k1', formFieldId: 'f1', factKey: 'full_name', fact: '氏名', doneCriteria: '姓と名' },
    { id: 'k2', formFieldId: 'f2', factKey: 'email', fact: 'メールアドレス', doneCriteria: '正しい形式' },
    { id: 'k3', formFieldId: 'f3', factKey: 'phone', fact: '電話番号', doneCriteria: '連絡のつく番号' },
    { id: 'k4', formFieldId: 'f4', factKey: 'size', fact: 'Tシャツのサイズ', doneCriteria: 'S・M・L・XLのいずれか' },
    { id: 'k5', formFieldId: 'f5', factKey: 'what', fact: 'どんなボランティアをしたか', doneCriteria: '具体的な活動内容' },
    { id: 'k6', formFieldId: 'f5', factKey: 'when', fact: 'いつ行ったか', doneCriteria: '年または期間' },
  ],
};

const statusOf = (i: ReturnType<typeof startInterview>, id: string) => i.draft.state.fields.find((f) => f.fieldId === id);

describe('the volunteer form, answered as people answer', () => {
  it('English: a size in words, an experience with its year, and a vague answer followed up', async () => {
    const interview = startInterview({ form: volunteerEn, language: 'en' });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    await interview.say('Jane Doe');
    await interview.say('jane@example.com');
    await interview.say('(416) 555-0123');
    expect(interview.lastAssistant()).toContain('Please answer with one of: S, M, L, XL.');
    await interview.say('Medium (M)');
    expect(statusOf(interview, 'tshirt')).toMatchObject({ status: 'done', value: 'M', followUps: 0 });
    await interview.say('a little');
    expect(statusOf(interview, 'experience')).toMatchObject({ status: 'interviewing', followUps: 1 });
    await interview.say('In 2023 I handed out water at the Toronto Waterfront Marathon aid station');
    expect(statusOf(interview, 'experience')).toMatchObject({ status: 'done' });
    expect(statusOf(interview, 'experience')?.value).toContain('2023');
    expect(statusOf(interview, 'experience')?.value).toContain('Toronto Waterfront Marathon');
    await interview.say('December 5, 2026');
    expect(statusOf(interview, 'available')).toMatchObject({ status: 'done', value: '2026-12-05' });
    expect(interview.draft.state.status).toBe('awaiting_confirmation');
    expect(interview.draft.state.collectedFields).toMatchObject({ email: 'jane@example.com', phone: '+14165550123', tshirt: 'M' });
  });

  it('Japanese: 「Mサイズです」 is M, and an experience with its year passes in one turn, 「少しあります」 does not', async () => {
    const interview = startInterview({ form: volunteerJa, language: 'ja' });
    await throughGreeting(interview, '大阪に住んでいます');
    await interview.say('山田花子');
    await interview.say('hanako@example.jp');
    await interview.say('090-1234-5678');
    await interview.say('Mサイズです');
    expect(statusOf(interview, 'tshirt')).toMatchObject({ status: 'done', value: 'M' });
    await interview.say('少しあります');
    expect(statusOf(interview, 'experience')).toMatchObject({ status: 'interviewing', followUps: 1 });
    await interview.say('2023年に神戸マラソンで給水所のボランティアをしました');
    expect(statusOf(interview, 'experience')?.status).toBe('done');
    expect(interview.draft.state.status).toBe('awaiting_confirmation');
    for (const text of interview.assistantTexts().slice(1)) expect(isForeign(text, 'ja')).toBe(false);
  });

  it('an English form in a Japanese session pastes no English form text', async () => {
    const interview = startInterview({ form: volunteerEn, language: 'ja' });
    await throughGreeting(interview, '東京に住んでいます');
    await interview.say('山田太郎');
    await interview.say('taro@example.jp');
    await interview.say('090-1234-5678');
    await interview.say('Lです');
    await interview.say('2022年に地域の清掃活動に参加しました');
    await interview.say('2026年12月5日');
    expect(interview.draft.state.status).toBe('awaiting_confirmation');
    for (const text of interview.assistantTexts().slice(1)) {
      expect(text).toMatch(/[ぁ-んァ-ヶ一-龠]/);
      // No run of English words (the form's labels, intents or facts).
      expect(text.replace(/taro@example\.jp|https?:\S+/g, '')).not.toMatch(/\p{Script=Latin}{2,}[\s-]+\p{Script=Latin}{2,}/u);
    }
  });
});

describe('no dead ends', () => {
  it('asks a required choice at most 1 + maxFollowUps times, the last time with the options and the way out, then keeps it for review', async () => {
    const interview = startInterview({ form: volunteerEn, language: 'en', maxFollowUps: 2 });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    await interview.say('Jane Doe');
    await interview.say('jane@example.com');
    await interview.say('(416) 555-0123');
    await interview.say('purple');
    await interview.say('the purple one');
    expect(interview.lastAssistant()).toContain('S, M, L, XL');
    expect(interview.lastAssistant()).toMatch(/can't answer/);
    await interview.say('a purple one please');
    expect(statusOf(interview, 'tshirt')).toMatchObject({ status: 'done', needsReview: true, value: 'a purple one please' });
    expect(interview.lastAssistant()).toMatch(/member of staff will check/);
    const asks = interview.draft.state.messages.filter((m) => m.role === 'assistant' && m.fieldId === 'tshirt');
    expect(asks).toHaveLength(3);
  });

  it('does not ask a third time once the respondent has twice said they cannot answer', async () => {
    const interview = startInterview({ form: volunteerEn, language: 'en', maxFollowUps: 2 });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    await interview.say('Jane Doe');
    await interview.say('jane@example.com');
    await interview.say('(416) 555-0123');
    await interview.say('no idea');
    expect(statusOf(interview, 'tshirt')).toMatchObject({ status: 'interviewing' });
    await interview.say("I'm not sure, sorry");
    expect(statusOf(interview, 'tshirt')).toMatchObject({ status: 'done', needsReview: true, value: "I'm not sure, sorry" });
    expect(interview.lastAssistant()).toMatch(/member of staff will check/);
    expect(interview.draft.state.messages.filter((m) => m.role === 'assistant' && m.fieldId === 'tshirt')).toHaveLength(2);
  });

  it('closes an interview at MAX_SESSION_TURNS with the open fields kept for review', async () => {
    const interview = startInterview({ form: volunteerEn, language: 'en', maxSessionTurns: 4 });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    await interview.say('Jane Doe');
    await interview.say('jane@example.com');
    await interview.say('hmm');
    expect(interview.draft.state.status).toBe('awaiting_confirmation');
    expect(interview.draft.state.fields.filter((f) => f.needsReview).map((f) => f.fieldId)).toEqual([
      'phone',
      'tshirt',
      'experience',
      'available',
    ]);
    expect(interview.lastAssistant()).toMatch(/Submit/);
  });

  it('the greeter asks at most four times, then goes on without a country', async () => {
    const interview = startInterview({ form: volunteerEn, language: null });
    await interview.say(null);
    await interview.say('hmm');
    await interview.say('what?');
    await interview.say('somewhere nice');
    await interview.say('I would rather not say');
    expect(interview.draft.state.bootstrap).toMatchObject({ language: 'en', country: null, countryUnknown: true, timezone: 'Asia/Tokyo' });
    expect(interview.draft.state.plan).not.toBeNull();
    expect(interview.lastAssistant()).toMatch(/full name/i);
  });
});

describe('corrections and several facts at once', () => {
  it('"Actually my email is …" updates the email, with its events, and the open question is asked again', async () => {
    const interview = startInterview({ form: volunteerEn, language: 'en' });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    await interview.say('Jane Doe');
    await interview.say('jane@example.com');
    const before = interview.draft.events.length;
    await interview.say('Actually my email is jane.doe@example.org, sorry');
    expect(statusOf(interview, 'email')).toMatchObject({ status: 'done', value: 'jane.doe@example.org' });
    expect(interview.draft.events.slice(before)).toContainEqual({
      type: 'state.changed',
      data: { type: 'FIELD_VALUE', payload: { fieldId: 'email', value: 'jane.doe@example.org' } },
    });
    expect(interview.lastAssistant()).toContain('jane.doe@example.org');
    expect(interview.lastAssistant()).toMatch(/phone/i);
    expect(statusOf(interview, 'phone')?.status).toBe('interviewing');
    await interview.say('(416) 555-0123');
    expect(statusOf(interview, 'phone')).toMatchObject({ status: 'done', value: '+14165550123' });
  });

  it('「さっきの電話番号は間違いで…」 corrects the phone number', async () => {
    const interview = startInterview({ form: volunteerJa, language: 'ja' });
    await throughGreeting(interview, '大阪に住んでいます');
    await interview.say('山田花子');
    await interview.say('hanako@example.jp');
    await interview.say('090-1234-5678');
    await interview.say('さっきの電話番号は間違いで、正しくは080-2222-3333です');
    expect(statusOf(interview, 'phone')).toMatchObject({ status: 'done', value: '+818022223333' });
    expect(interview.lastAssistant()).toContain('訂正しました');
    expect(statusOf(interview, 'tshirt')?.status).toBe('interviewing');
  });

  it('an answer that also gives a later field has it confirmed instead of asked', async () => {
    const interview = startInterview({ form: volunteerEn, language: 'en' });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    await interview.say('Jane Doe, and you can reach me at jane@example.com');
    expect(statusOf(interview, 'name')).toMatchObject({ status: 'done', value: 'Jane Doe' });
    expect(interview.lastAssistant()).toContain('jane@example.com');
    expect(interview.lastAssistant()).toMatch(/Shall I use that/);
    await interview.say('yes');
    expect(statusOf(interview, 'email')).toMatchObject({ status: 'done', value: 'jane@example.com', followUps: 0 });
  });
});

describe("the interviewer's turn logic with a model that writes plain text", () => {
  const review = (passed: boolean, missing: string[] = []) => ({
    name: 'review',
    arguments: {
      passed,
      feedback: null,
      missing: missing.map((fact) => ({ fact, reason: 'absent', kind: 'choice', heard: null, options: [], note: null })),
      extracted_facts: null,
      field_value: passed ? 'M' : null,
      skipped: null,
      notice: null,
      derivation: null,
      certain: null,
    },
  });

  it('after a failed review nothing is pending: plain text is sent as the follow-up, and a second review without a new answer is refused', async () => {
    const interviewer = new ScriptedModel([
      { toolCalls: [{ name: 'ask', arguments: { message: 'What is your T-shirt size?' } }] },
      { toolCalls: [{ name: 'subtask', arguments: { agent: 'reviewer', field_id: 'tshirt', question: null, note: null } }] },
      // The model writes its follow-up as plain text, then (obeying an old habit) asks for a review again.
      { content: 'Sorry, which size: S, M, L or XL?' },
    ]);
    const reviewer = new ScriptedModel([{ toolCalls: [review(false, ['T-shirt size'])] }]);
    const form = { title: 'Shirt', fields: [volunteerEn.fields[3]], facts: [volunteerEn.facts[3]] };
    const interview = startInterview({ form, language: 'en', models: { interviewer, reviewer } });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    expect(interview.lastAssistant()).toBe('What is your T-shirt size?');
    await interview.say('the usual one');
    expect(interview.lastAssistant()).toBe('Sorry, which size: S, M, L or XL?');
    expect(interview.draft.runSteps.filter((s) => s.toolName === 'review')).toHaveLength(1);
    expect(interview.draft.runSteps.at(-1)).toMatchObject({ toolName: 'ask', input: { message: 'Sorry, which size: S, M, L or XL?' } });
    expect(interviewer.remaining).toBe(0);
    expect(reviewer.remaining).toBe(0);

    // A model that calls the reviewer again without a new answer is told what to do instead.
    interviewer.push({
      toolCalls: [{ name: 'subtask', arguments: { agent: 'reviewer', field_id: 'tshirt', question: null, note: null } }],
    });
    interviewer.push({ toolCalls: [{ name: 'ask', arguments: { message: 'Is it S, M, L or XL?' } }] });
    const draft = interview.draft;
    const { runAgentLoop } = await import('@convo/agent-kit/internal/loop');
    const { createInterviewerAgent } = await import('../../services/interviewer/src/agent.js');
    const { createLogger } = await import('@convo/runtime');
    await runAgentLoop({
      agent: createInterviewerAgent({ maxSessionTurns: 200 }),
      draft: draft,
      llm: interviewer,
      model: 'test',
      maxTurns: 5,
      turn: { turnId: 'tx', message: null },
      runStepPrefix: 'rs-x',
      log: createLogger('test', 'silent'),
    });
    const refused = draft.runSteps.filter((s) => s.toolName === 'subtask').at(-1)?.output as {
      status: string;
      result: { message: string };
    };
    expect(refused.status).toBe('error');
    expect(refused.result.message).toMatch(/already reviewed.*Ask a follow-up about T-shirt size with ask/);
  });

  it('after a failed turn the next message goes to the question last shown, and a question never shown is asked first', async () => {
    const offline = (await import('../support/offline-policies.js')).offlineProvider();
    let calls = 0;
    let failAt = 0;
    const interviewer = {
      name: 'flaky',
      chat: async (req: Parameters<typeof offline.chat>[0]) => {
        calls += 1;
        if (calls === failAt) throw new Error('context_length_exceeded');
        return offline.chat(req);
      },
    };
    const interview = startInterview({ form: volunteerEn, language: 'en', models: { interviewer } });
    await throughGreeting(interview, 'I live in Toronto, Canada');
    // The name passes review, the field moves to email, and the interviewer's next call fails before asking.
    calls = 0;
    // The answer goes to the reviewer by rule (no model call): the interviewer's first call is the next question.
    failAt = 1;
    const result = await interview.say('Jane Doe');
    expect(result.failed).toBe(true);
    expect(statusOf(interview, 'name')?.status).toBe('done');
    expect(statusOf(interview, 'email')?.status).toBe('pending');
    // "hello?" is not an answer to the email question, which was never shown.
    await interview.say('hello?');
    const hello = interview.draft.state.messages.filter((m) => m.role === 'user').at(-1);
    expect(hello?.fieldId).toBe('name');
    expect(interview.lastAssistant()).toMatch(/email/i);
    expect(statusOf(interview, 'email')).toMatchObject({ status: 'interviewing', followUps: 0 });
    await interview.say('jane@example.com');
    expect(statusOf(interview, 'email')).toMatchObject({ status: 'done', value: 'jane@example.com' });
  });
});
