import { describe, expect, it } from 'vitest';
import { type AuditInput, auditTranscript, maskCollectedValue, resolveTopics } from '@convo/forms';

const topics = resolveTopics(['religion', 'family']);
const NOW = new Date('2026-01-15T00:00:00Z');

type Msg = AuditInput['messages'][number];
type Field = AuditInput['fields'][number];

const assistant = (text: string, fieldId: string | null): Msg => ({ role: 'assistant', text, fieldId });
const user = (text: string, fieldId: string | null): Msg => ({ role: 'user', text, fieldId });

function englishFields(overrides: Partial<Record<string, Partial<Field>>> = {}): Field[] {
  const base: Field[] = [
    { fieldId: 'full_name', label: 'Full name', intent: 'Identify the applicant', required: true, status: 'done', value: 'Jane Doe' },
    {
      fieldId: 'email',
      label: 'Contact email',
      intent: 'Contact the applicant about the application',
      required: true,
      status: 'done',
      value: 'jane@example.com',
    },
    {
      fieldId: 'experience_years',
      label: 'Years of backend experience',
      intent: 'Check the experience the role needs',
      required: true,
      status: 'done',
      value: '7',
    },
    {
      fieldId: 'motivation',
      label: 'Why you want to join us',
      intent: "Understand the applicant's motivation",
      required: true,
      status: 'done',
      value: 'I want to build reliable payment systems',
    },
    {
      fieldId: 'start_date',
      label: 'Earliest start date',
      intent: 'Plan the onboarding',
      required: true,
      status: 'done',
      value: '2026-04-01',
    },
    { fieldId: 'portfolio', label: 'Portfolio URL', intent: "See the applicant's work", required: false, status: 'skipped', value: null },
  ];
  return base.map((f) => ({ ...f, ...overrides[f.fieldId] }));
}

const FACTS: AuditInput['facts'] = [
  { formFieldId: 'a1', factKey: 'full_name', fact: "The applicant's full name" },
  { formFieldId: 'a4', factKey: 'contribution', fact: 'What the applicant would contribute to the team' },
];

function englishTranscript(): Msg[] {
  return [
    assistant("Let's start with the first question. Could you tell me your full name?", 'full_name'),
    user('Jane Doe', 'full_name'),
    assistant('Thank you! Next question: Could you tell me your contact email?', 'email'),
    user('jane@example.com', 'email'),
    assistant('Thank you! Next question: Could you tell me how many years of backend experience you have?', 'experience_years'),
    user('7 years', 'experience_years'),
    assistant('Thank you! Next question: Could you tell me why you want to join us?', 'motivation'),
    user('I want to build reliable payment systems', 'motivation'),
    assistant('Thank you! Next question: Could you tell me your earliest start date?', 'start_date'),
    user('April 1, 2026', 'start_date'),
    assistant(
      'Thank you! Next question: Could you tell me your portfolio URL?\nThis one is optional — just say “skip” if you’d rather not answer.',
      'portfolio',
    ),
    user('skip', 'portfolio'),
    assistant(
      "Thank you — that's all the questions! Here is a summary of your answers:\n• Full name: Jane Doe\n\nPlease look them over and press “Submit”.",
      null,
    ),
  ];
}

function audit(messages: Msg[], fields: Field[] = englishFields(), language: 'ja' | 'en' = 'en') {
  return auditTranscript({ language, messages, fields, facts: FACTS, topics, now: NOW });
}

const ofType = (r: ReturnType<typeof audit>, type: string) => r.violations.filter((v) => v.type === type);

describe('auditTranscript on a clean interview', () => {
  it('passes with no violations and summarises every field in the session language', () => {
    const result = audit(englishTranscript());
    expect(result.violations).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.summary).toBe(
      [
        'Application summary',
        '• Full name: Jane Doe',
        '• Contact email: jane@example.com',
        '• Years of backend experience: 7',
        '• Why you want to join us: I want to build reliable payment systems',
        '• Earliest start date: 2026-04-01',
        '• Portfolio URL: (skipped)',
        'Warnings: 0',
      ].join('\n'),
    );
  });

  it('summarises a Japanese interview in Japanese', () => {
    const fields: Field[] = [
      { fieldId: 'full_name', label: '氏名', intent: '応募者を確認する', required: true, status: 'done', value: '山田花子' },
      { fieldId: 'portfolio', label: 'ポートフォリオのURL', intent: null, required: false, status: 'skipped', value: null },
    ];
    const messages = [
      assistant('それでは、最初の質問です。氏名を教えていただけますか？', 'full_name'),
      user('山田花子', 'full_name'),
      assistant('すべての質問にお答えいただき、ありがとうございました！', null),
    ];
    const result = audit(messages, fields, 'ja');
    expect(result.passed).toBe(true);
    expect(result.summary).toBe(['応募内容の要約', '・氏名：山田花子', '・ポートフォリオのURL：（スキップ）', '警告：0件'].join('\n'));
  });
});

describe('prohibited_topic', () => {
  it('is an error when the interviewer asks about a topic, quoting the words and the message', () => {
    const messages = [...englishTranscript(), assistant('One more thing: are you married?', 'full_name')];
    const result = audit(messages);
    expect(result.passed).toBe(false);
    expect(ofType(result, 'prohibited_topic')).toEqual([
      {
        type: 'prohibited_topic',
        severity: 'error',
        message: 'the interviewer asked about prohibited topic "marital status" (EEOC) in message #14: "married"',
      },
    ]);
  });

  it('is an error for a Japanese question on an MHLW topic', () => {
    const result = audit([assistant('ご両親の職業を教えていただけますか？', 'full_name')], englishFields(), 'ja');
    expect(ofType(result, 'prohibited_topic')[0]).toMatchObject({ severity: 'error', message: expect.stringContaining('"family') });
  });

  it('is a warning when the applicant volunteers it, naming the topic but not repeating what was said', () => {
    const messages = englishTranscript();
    messages[7] = user('I go to church every Sunday, and I want to build reliable payment systems', 'motivation');
    const result = audit(messages);
    expect(result.passed).toBe(true);
    const [violation] = ofType(result, 'prohibited_topic');
    expect(violation).toEqual({
      type: 'prohibited_topic',
      severity: 'warning',
      message: 'the applicant volunteered information about "religion" (MHLW, EEOC) in message #8; it was not stored',
    });
    expect(JSON.stringify(result.violations)).not.toMatch(/church/i);
  });

  it('masks a stored value about a topic in the summary and warns about it', () => {
    const fields = englishFields({ motivation: { value: 'My faith guides me, and I want to build reliable payment systems' } });
    const result = audit(englishTranscript(), fields);
    expect(result.summary).toContain('• Why you want to join us: [redacted], and I want to build reliable payment systems');
    expect(result.summary).not.toMatch(/faith/i);
    expect(result.summary).toMatch(/^Warnings: 1$/m);
    expect(ofType(result, 'prohibited_topic')).toEqual([
      {
        type: 'prohibited_topic',
        severity: 'warning',
        message: 'the stored value of "Why you want to join us" (motivation) mentions "religion" (MHLW, EEOC); it is masked in the summary',
      },
    ]);
  });

  it('does not blame the interviewer for an applicant value quoted in the closing summary', () => {
    const fields = englishFields({ motivation: { value: 'I pray that my code ships' } });
    const messages = [...englishTranscript(), assistant('Here is a summary:\n• Why you want to join us: I pray that my code ships', null)];
    const result = audit(messages, fields);
    expect(ofType(result, 'prohibited_topic').map((v) => v.severity)).toEqual(['warning']);
  });
});

describe('over_collection', () => {
  it('warns about a question bound to no field', () => {
    const result = audit([...englishTranscript(), assistant('Before you go, could you tell me what car you drive?', null)]);
    expect(result.passed).toBe(true);
    expect(ofType(result, 'over_collection')).toEqual([
      {
        type: 'over_collection',
        severity: 'warning',
        message: 'message #14 asks "Before you go, could you tell me what car you drive?" but is bound to no form field',
      },
    ]);
  });

  it('warns about a question for a field that shares no keyword with any field', () => {
    const result = audit([...englishTranscript(), assistant('Also, what hobbies do you enjoy on weekends?', 'motivation')]);
    expect(ofType(result, 'over_collection')).toEqual([
      {
        type: 'over_collection',
        severity: 'warning',
        message: 'message #14 asks "Also, what hobbies do you enjoy on weekends?", which no form field needs',
      },
    ]);
  });

  it('does not warn about closing and thank-you messages that ask for nothing, in either language', () => {
    const messages = [
      ...englishTranscript(),
      assistant('Thank you for your answers. Please review them and submit your application.', null),
      assistant('すべての質問にお答えいただき、ありがとうございました！内容をご確認のうえ、「送信」ボタンを押してください。', null),
    ];
    expect(ofType(audit(messages), 'over_collection')).toEqual([]);
  });
});

describe('rude_expression', () => {
  it('is an error for rude or pressuring interviewer wording, in both languages', () => {
    const result = audit([
      ...englishTranscript(),
      assistant('Hurry up and give me your email!!', 'email'),
      assistant('さっさと氏名を書け。', 'full_name'),
    ]);
    expect(result.passed).toBe(false);
    expect(ofType(result, 'rude_expression').map((v) => v.message)).toEqual([
      'message #14: pressuring wording: "Hurry up"',
      'message #14: shouting: "!!"',
      'message #15: pressuring wording: "さっさと"',
      'message #15: rude or demeaning wording: "書け"',
    ]);
  });

  it('does not judge the applicant’s own words quoted back in the summary', () => {
    const fields = englishFields({ motivation: { value: 'I LOVE SHIPPING CODE AND I WANT TO DO IT!!!' } });
    const messages = [
      ...englishTranscript(),
      assistant('Here is a summary:\n• Why you want to join us: I LOVE SHIPPING CODE AND I WANT TO DO IT!!!', null),
    ];
    expect(ofType(audit(messages, fields), 'rude_expression')).toEqual([]);
  });
});

describe('inconsistency', () => {
  it('warns when two different email addresses are given for one field', () => {
    const messages = englishTranscript();
    messages.splice(4, 0, user('actually use jane.doe@work.example', 'email'));
    expect(ofType(audit(messages), 'inconsistency')).toEqual([
      {
        type: 'inconsistency',
        severity: 'warning',
        message: 'different email address values were given for "Contact email" (email): jane@example.com, jane.doe@work.example',
      },
    ]);
  });

  it('warns when two different numbers are given for one field', () => {
    const messages = englishTranscript();
    messages.splice(6, 0, user('sorry, 9 years', 'experience_years'));
    expect(ofType(audit(messages), 'inconsistency').map((v) => v.message)).toEqual([
      'different number values were given for "Years of backend experience" (experience_years): 7, 9',
    ]);
  });

  it('warns about a start date before today', () => {
    const fields = englishFields({ start_date: { value: '2025-12-01' } });
    const messages = englishTranscript();
    messages[9] = user('December 1, 2025', 'start_date');
    expect(ofType(audit(messages, fields), 'inconsistency').map((v) => v.message)).toEqual([
      'the start date 2025-12-01 given for "Earliest start date" (start_date) is before today (2026-01-15)',
    ]);
  });

  it('warns about more years of experience than a working life', () => {
    const fields = englishFields({ experience_years: { value: '70' } });
    const messages = englishTranscript();
    messages[5] = user('70 years', 'experience_years');
    expect(ofType(audit(messages, fields), 'inconsistency').map((v) => v.message)).toEqual([
      '70 years of experience for "Years of backend experience" (experience_years) is implausible (more than 50)',
    ]);
  });

  it('does not warn when each field got one consistent answer', () => {
    expect(ofType(audit(englishTranscript()), 'inconsistency')).toEqual([]);
  });
});

describe('missing_required', () => {
  it('is an error for a required field that is not done, and ignores a skipped optional one', () => {
    const fields = englishFields({ full_name: { status: 'skipped', value: null } });
    const result = audit(englishTranscript(), fields);
    expect(result.passed).toBe(false);
    expect(ofType(result, 'missing_required')).toEqual([
      { type: 'missing_required', severity: 'error', message: 'required field "Full name" (full_name) is not done (status: skipped)' },
    ]);
    expect(result.summary).toContain('• Full name: (skipped)');
    expect(result.summary).toMatch(/^Warnings: 0, Errors: 1$/m);
  });
});

describe('needs_review', () => {
  it('warns about a required answer kept as given after the last follow-up, without failing the audit', () => {
    const fields = englishFields({ start_date: { value: "I'm not sure yet", needsReview: true } });
    const result = audit(englishTranscript(), fields);
    expect(ofType(result, 'needs_review')).toEqual([
      {
        type: 'needs_review',
        severity: 'warning',
        message: '"Earliest start date" (start_date) was kept as the applicant gave it after the last follow-up; check it with them',
      },
    ]);
    expect(ofType(result, 'missing_required')).toEqual([]);
  });
});

describe('maskCollectedValue', () => {
  it('returns null when the whole value is about a prohibited topic', () => {
    expect(maskCollectedValue('I am Catholic.', topics)).toEqual({ value: null, masked: true });
    expect(maskCollectedValue('既婚です。', topics)).toEqual({ value: null, masked: true });
  });

  it('masks only the clause about the topic', () => {
    expect(maskCollectedValue('My wife works in Osaka, so I want to relocate there.', topics)).toEqual({
      value: '[redacted], so I want to relocate there.',
      masked: true,
    });
    expect(maskCollectedValue('家族と暮らしており、Goの経験が5年あります。', topics)).toEqual({
      value: '［非開示］、Goの経験が5年あります。',
      masked: true,
    });
  });

  it('keeps a clean value and null as they are', () => {
    expect(maskCollectedValue('jane@example.com', topics)).toEqual({ value: 'jane@example.com', masked: false });
    expect(maskCollectedValue(null, topics)).toEqual({ value: null, masked: false });
  });
});
