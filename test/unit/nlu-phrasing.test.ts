import { describe, expect, it } from 'vitest';
import {
  alreadyCompleteText,
  askCountryText,
  askTimezoneText,
  bootstrapDoneText,
  completionText,
  countryNotUnderstoodText,
  followUpText,
  greetingText,
  languageNotUnderstoodText,
  languageUnsupportedText,
  questionText,
  requiredStillMissingText,
  toRespondent,
} from '../../shared/src/nlu/phrasing.js';
import type { FactDefinition, FormField } from '../../shared/src/schemas/form.js';

function field(label: string, opts: { required?: boolean; intent?: string | null } = {}): FormField {
  return { id: 'f1', fieldId: 'field_1', label, intent: opts.intent ?? null, required: opts.required ?? true, sortOrder: 0 };
}

function fact(factKey: string, description: string, hints: string | null = null): FactDefinition {
  return { id: `k_${factKey}`, formFieldId: 'f1', factKey, fact: description, doneCriteria: '', questioningHints: hints };
}

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

describe('greeter phrasing', () => {
  it('greets in both languages and asks which one when the language is not known', () => {
    const text = greetingText(null, '採用応募フォーム');
    expect(text).toContain('「採用応募フォーム」');
    expect(text).toContain('日本語と英語のどちらで');
    expect(text).toContain('Japanese or English');
  });

  it('greets in the chosen language and goes on to ask for the country', () => {
    const ja = greetingText('ja', null);
    expect(ja).toContain('こんにちは');
    expect(ja).toContain('お住まいの国');
    expect(ja).not.toMatch(/[A-Za-z]{3,}/);
    const en = greetingText('en', 'Job application');
    expect(en).toContain('“Job application”');
    expect(en).toContain('Which country do you currently live in?');
    expect(en).not.toMatch(JAPANESE);
  });

  it('asks for the country politely and mentions that the city helps', () => {
    expect(askCountryText('ja')).toMatch(/教えていただけますか？/);
    expect(askCountryText('ja')).toContain('都市名');
    expect(askCountryText('en')).toContain('city');
  });

  it('asks for the city or time zone and lists at most five candidates', () => {
    const candidates = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'America/Phoenix', 'America/Anchorage', 'Pacific/Honolulu'];
    const en = askTimezoneText('en', 'United States', candidates);
    expect(en).toContain('United States has several time zones');
    expect(en).toContain('New York (America/New_York)');
    expect(en.match(/America\/|Pacific\//g)).toHaveLength(5);
    expect(en).not.toContain('Anchorage');
    const ja = askTimezoneText('ja', 'アメリカ合衆国', candidates);
    expect(ja).toContain('ニューヨーク（America/New_York）');
    expect(ja).toContain('お住まいの都市名');
  });

  it('asks without examples when there are no candidates', () => {
    expect(askTimezoneText('en', 'Canada', [])).not.toContain('For example');
  });

  it('says in both languages that an unsupported language is not available and offers Japanese or English', () => {
    const text = languageUnsupportedText('fr');
    expect(text).toContain('フランス語');
    expect(text).toContain('French');
    expect(text).toContain('日本語または英語');
    expect(text).toContain('Japanese or English');
  });

  it('asks again in both languages when no language was understood', () => {
    const text = languageNotUnderstoodText();
    expect(text).toContain('日本語');
    expect(text).toContain('English');
    expect(text).toMatch(JAPANESE);
  });

  it('asks for a country name again when none was understood', () => {
    expect(countryNotUnderstoodText('ja')).toContain('国名');
    expect(countryNotUnderstoodText('en')).toContain('country');
  });

  it('confirms the country and time zone, accepting a country code', () => {
    expect(bootstrapDoneText('ja', { country: 'JP', timezone: 'Asia/Tokyo' })).toBe(
      'ありがとうございます。お住まいの国を日本、タイムゾーンをAsia/Tokyoに設定しました。',
    );
    expect(bootstrapDoneText('en', { country: 'Canada', timezone: 'America/Toronto' })).toContain('Canada');
    expect(bootstrapDoneText('en', { country: 'Canada', timezone: 'America/Toronto' })).toContain('America/Toronto');
  });
});

describe('questionText', () => {
  it('asks for a label as a polite question rather than printing "label?"', () => {
    const en = questionText({ field: field('Email address'), facts: [fact('email', 'Email address')], language: 'en', isFirst: false });
    expect(en).toContain('Could you tell me your email address?');
    expect(en).not.toContain('Email address?');
    const ja = questionText({ field: field('メールアドレス'), facts: [fact('email', 'メールアドレス')], language: 'ja', isFirst: false });
    expect(ja).toContain('メールアドレスを教えていただけますか？');
  });

  it('keeps a label that is already a question', () => {
    const text = questionText({ field: field('What do you enjoy about your work?'), facts: [], language: 'en', isFirst: false });
    expect(text).toContain('What do you enjoy about your work?');
    expect(text).not.toContain('Could you tell me');
  });

  it('opens the first question differently from the next ones', () => {
    const args = { field: field('Email'), facts: [], language: 'en' as const };
    expect(questionText({ ...args, isFirst: true })).toMatch(/^Let's start with the first question\./);
    expect(questionText({ ...args, isFirst: false })).toMatch(/^Thank you! Next question:/);
    expect(questionText({ ...args, language: 'ja', isFirst: true })).toMatch(/^それでは、最初の質問です。/);
  });

  it('gives the purpose and lists the facts to cover, addressed to the respondent', () => {
    const text = questionText({
      field: field('Motivation', { intent: 'Understand why the respondent applied' }),
      facts: [fact('reason', 'Why the respondent wants to join the company'), fact('goal', 'What the respondent hopes to achieve in the first year')],
      language: 'en',
      isFirst: false,
    });
    expect(text).toContain('(Purpose: Understand why the respondent applied)');
    expect(text).toContain('• Why you want to join the company');
    expect(text).toContain('• What you hope to achieve in the first year');
  });

  it('includes the questioning hints when there are some', () => {
    const text = questionText({
      field: field('志望動機'),
      facts: [fact('reason', '当社を志望する理由', '具体的なエピソードがあれば添えてください')],
      language: 'ja',
      isFirst: false,
    });
    expect(text).toContain('ヒント：具体的なエピソードがあれば添えてください');
  });

  it('shows the expected format for a date', () => {
    const text = questionText({ field: field('入社可能日'), facts: [fact('start', '入社可能日')], language: 'ja', isFirst: false });
    expect(text).toContain('（例：2025年4月1日）');
  });

  it('says an optional question may be skipped, and a required one does not', () => {
    const optional = questionText({ field: field('Comments', { required: false }), facts: [], language: 'en', isFirst: false });
    expect(optional).toContain('optional');
    expect(optional).toContain('skip');
    expect(questionText({ field: field('備考', { required: false }), facts: [], language: 'ja', isFirst: false })).toContain('任意');
    expect(questionText({ field: field('Comments'), facts: [], language: 'en', isFirst: false })).not.toContain('optional');
  });

  it('speaks polite Japanese (です/ます) in a Japanese session', () => {
    const text = questionText({ field: field('氏名'), facts: [fact('name', '氏名')], language: 'ja', isFirst: true });
    expect(text).toMatch(/です。|ます|ください/);
    expect(text).not.toMatch(/Could you|Please/);
  });
});

describe('followUpText', () => {
  it('gives the reviewer feedback and asks for the missing fact', () => {
    const text = followUpText({ field: field('Email'), missingFacts: ['Email address'], feedback: "The email address 'foo@' is not valid.", language: 'en' });
    expect(text).toContain("The email address 'foo@' is not valid.");
    expect(text).toContain('Could you please tell me your email address?');
  });

  it('does not repeat the missing fact when the feedback already names it', () => {
    const text = followUpText({
      field: field('Motivation'),
      missingFacts: ['What the respondent hopes to achieve in the first year'],
      feedback: 'No answer yet about: What the respondent hopes to achieve in the first year.',
      language: 'en',
    });
    expect(text).toContain('What you hope to achieve in the first year');
    expect(text.match(/hope to achieve/g)).toHaveLength(1);
  });

  it('lists several missing facts and thanks the respondent when there is no feedback', () => {
    const text = followUpText({ field: field('志望動機'), missingFacts: ['志望理由', '入社後に挑戦したいこと'], feedback: null, language: 'ja' });
    expect(text).toMatch(/^ありがとうございます。/);
    expect(text).toContain('・志望理由');
    expect(text).toContain('・入社後に挑戦したいこと');
  });

  it('reminds that an optional question may be skipped', () => {
    const text = followUpText({ field: field('Hobbies', { required: false }), missingFacts: ['Hobbies'], feedback: null, language: 'en' });
    expect(text).toContain('skip');
  });
});

describe('toRespondent', () => {
  it('turns reviewer wording into words for the respondent', () => {
    expect(toRespondent("The respondent's current role.", 'en')).toBe('your current role');
    expect(toRespondent('Whether the respondent has used Python', 'en')).toBe('Whether you have used Python');
    expect(toRespondent('回答者の経験年数', 'ja')).toBe('ご自身の経験年数');
  });
});

describe('closing phrasing', () => {
  it('names the required questions still missing', () => {
    expect(requiredStillMissingText('en', ['Email'])).toContain('“Email”');
    const ja = requiredStillMissingText('ja', ['メールアドレス', '氏名']);
    expect(ja).toContain('「メールアドレス」');
    expect(ja).toContain('「氏名」');
  });

  it('summarises every field and invites the respondent to review and submit', () => {
    const summary = [
      { label: 'Name', value: 'Taro Yamada', status: 'done' },
      { label: 'Motivation', value: 'Great team\nInteresting product', status: 'done' },
      { label: 'Comments', value: null, status: 'skipped' },
    ];
    const en = completionText('en', summary);
    expect(en).toContain('• Name: Taro Yamada');
    expect(en).toContain('• Motivation: Great team / Interesting product');
    expect(en).toContain('• Comments: (skipped)');
    expect(en).toContain('Submit');
    const ja = completionText('ja', summary);
    expect(ja).toContain('・Comments：（スキップ）');
    expect(ja).toContain('「送信」');
  });

  it('replies politely after completion', () => {
    expect(alreadyCompleteText('ja')).toContain('完了');
    expect(alreadyCompleteText('en')).toContain('already');
  });
});
