import { beforeAll, describe, expect, it } from 'vitest';
import { answerSpec, preloadContentAnalyzer, reviewAnswer } from '@convo/forms';
import type { FactDefinition, FormField } from '@convo/contract';

beforeAll(async () => {
  await preloadContentAnalyzer();
});

// A Tuesday in Tokyo and in Toronto alike (10:00 UTC).
const NOW = new Date('2026-11-24T10:00:00.000Z');

function field(label: string, required = true): FormField {
  return { id: 'f', fieldId: 'x', label, intent: null, required, sortOrder: 0 };
}

function fact(text: string, doneCriteria = '', extra: Partial<FactDefinition> = {}): FactDefinition {
  return { id: 'k', formFieldId: 'f', factKey: 'k', fact: text, doneCriteria, questioningHints: null, ...extra };
}

type Case = { label: string; fact?: FactDefinition; answer: string; value: string | null; kind: string };

function check(testCase: Case, language: 'ja' | 'en', country: string, timezone: string) {
  const formField = field(testCase.label);
  const facts = testCase.fact ? [testCase.fact] : [];
  expect(answerSpec(testCase.fact ?? fact(testCase.label), formField).type).toBe(testCase.kind);
  const outcome = reviewAnswer({ field: formField, facts, answers: [testCase.answer], language, country, timezone, now: NOW });
  if (testCase.value === null) expect(outcome.passed).toBe(false);
  else expect(outcome).toMatchObject({ passed: true, field_value: testCase.value });
}

const english: Case[] = [
  { label: 'T-shirt size (S/M/L/XL)', answer: 'Medium (M)', value: 'M', kind: 'choice' },
  { label: 'T-shirt size (S/M/L/XL)', answer: 'medium please', value: 'M', kind: 'choice' },
  { label: 'T-shirt size (S/M/L/XL)', answer: 'XL', value: 'XL', kind: 'choice' },
  { label: 'T-shirt size (S/M/L/XL)', answer: "I'm not sure", value: null, kind: 'choice' },
  { label: 'Shirt size', fact: fact('Shirt size', 'One of S, M, L, XL'), answer: 'Large', value: 'L', kind: 'choice' },
  {
    label: 'Preferred session',
    fact: fact('Session', 'Choose one of: morning, afternoon or evening'),
    answer: 'Afternoons suit me',
    value: 'afternoon',
    kind: 'choice',
  },
  {
    label: 'Plan',
    fact: fact('Plan', '', { answerType: 'choice', options: ['Basic', 'Premium'] }),
    answer: 'the premium one',
    value: 'Premium',
    kind: 'choice',
  },
  { label: 'Parking', fact: fact('Whether they need a parking space'), answer: "No, I'll come by train", value: 'no', kind: 'yes_no' },
  { label: 'Do you have a car? (Yes/No)', answer: 'yes I do', value: 'yes', kind: 'yes_no' },
  { label: 'Available date', answer: 'this Friday', value: '2026-11-27', kind: 'date' },
  { label: 'Available date', answer: 'next Friday', value: '2026-12-04', kind: 'date' },
  { label: 'Start date', answer: 'March 3rd, 2027', value: '2027-03-03', kind: 'date' },
  { label: 'Arrival time', answer: 'around 3pm', value: '15:00', kind: 'time' },
  { label: 'Graduation year', answer: 'I graduated in 2019', value: '2019', kind: 'year' },
  { label: 'Vehicle year', answer: "It's a 2014 Civic", value: '2014', kind: 'year' },
  { label: 'When did you do it?', answer: 'From 2019 to 2021', value: 'From 2019 to 2021', kind: 'date' },
  { label: 'When did you last donate?', answer: 'July 2026', value: '2026-07', kind: 'date' },
  { label: 'When were you born?', answer: 'March 2, 1979', value: '1979-03-02', kind: 'date' },
  { label: 'Dates of stay', answer: 'June 12 to June 15, 2027', value: 'June 12 to June 15, 2027', kind: 'period' },
  { label: 'How long have you lived at this address?', answer: 'about six years', value: 'about six years', kind: 'duration' },
  { label: 'Number of guests', answer: 'three of us', value: '3', kind: 'number' },
  { label: 'Height', fact: fact('Height in cm'), answer: '180 cm', value: '180', kind: 'number' },
  { label: 'Email', answer: 'Jane.Doe@Example.com', value: 'jane.doe@example.com', kind: 'email' },
  { label: 'Phone number', answer: '(416) 555-0123', value: '+14165550123', kind: 'phone' },
  { label: 'Website', answer: 'github.com/jane', value: 'https://github.com/jane', kind: 'url' },
  { label: 'Postal code', answer: 'm5v2t6', value: 'M5V 2T6', kind: 'postal_code' },
  { label: 'Full name', answer: 'My name is Jane Doe', value: 'Jane Doe', kind: 'name' },
  // Hesitating between values, or naming a week or a kind of day, gives no value yet.
  {
    label: 'Model year of the vehicle',
    fact: fact('Model year of the vehicle', 'Four-digit year'),
    answer: "I want to say 2012? Or 2013? I honestly don't know.",
    value: null,
    kind: 'year',
  },
  { label: 'Number of guests', answer: '3 or 4 of us', value: null, kind: 'number' },
  { label: 'Number of guests', answer: '20 or so', value: '20', kind: 'number' },
  { label: 'How many other pets live in your home?', answer: 'None right now.', value: '0', kind: 'number' },
  {
    label: 'Date of the blood draw',
    fact: fact('Date the sample was taken', 'An exact calendar date including the year'),
    answer: 'It was a weekday, sometime the week before last I think?',
    value: null,
    kind: 'date',
  },
  // A day said without its month or year, to a question about dates the form states.
  {
    label: 'Preferred day',
    fact: fact('Which conference day (14, 15 or 16 October 2026) the speaker prefers', 'A date within the conference'),
    answer: '16th',
    value: '2026-10-16',
    kind: 'date',
  },
  {
    label: 'Preferred day',
    fact: fact('Which conference day (14, 15 or 16 October 2026) the speaker prefers', 'A date within the conference'),
    answer: '15 October, if possible',
    value: '2026-10-15',
    kind: 'date',
  },
  // A website named as where something is found, and a thing's name, ask for neither a URL nor a person's name.
  {
    label: "Animal you're applying for",
    fact: fact('Which animal: the name we gave it or its shelter ID from the website listing'),
    answer: 'Biscuit (A-2291)',
    value: 'Biscuit (A-2291)',
    kind: 'text',
  },
  { label: 'What volunteering have you done?', answer: 'a little', value: null, kind: 'text' },
  {
    label: 'What volunteering have you done?',
    answer: 'I coached an under-12 football team for two seasons',
    value: 'I coached an under-12 football team for two seasons',
    kind: 'text',
  },
];

const japanese: Case[] = [
  { label: 'Tシャツのサイズ（S・M・L・XL）', answer: 'Mサイズです', value: 'M', kind: 'choice' },
  { label: '希望時間帯（午前・午後・夜間）', answer: '午後がいいです', value: '午後', kind: 'choice' },
  { label: '希望時間帯（午前・午後・夜間）', answer: 'わかりません', value: null, kind: 'choice' },
  { label: '駐車場', fact: fact('駐車場の利用の有無'), answer: '利用しません', value: 'no', kind: 'yes_no' },
  { label: '駐車場', fact: fact('駐車場の利用の有無'), answer: 'はい、使います', value: 'yes', kind: 'yes_no' },
  { label: '入居希望日', answer: '2027年3月3日', value: '2027-03-03', kind: 'date' },
  { label: '来院希望日', answer: '来週の金曜日', value: '2026-12-04', kind: 'date' },
  { label: '到着時刻', answer: '午後3時半ごろ', value: '15:30', kind: 'time' },
  { label: '卒業年', fact: fact('卒業した年（西暦または和暦）'), answer: '令和3年です', value: '2021', kind: 'year' },
  { label: '在籍期間', answer: '2019年から2021年まで', value: '2019年から2021年まで', kind: 'period' },
  { label: '経験年数', answer: '3年間です', value: '3年間', kind: 'duration' },
  { label: '参加人数', answer: '三人です', value: '3', kind: 'number' },
  { label: 'メールアドレス', answer: 'ｈａｎａｋｏ＠ｅｘａｍｐｌｅ．ｊｐ', value: 'hanako@example.jp', kind: 'email' },
  { label: '電話番号', answer: '090-1234-5678です', value: '+819012345678', kind: 'phone' },
  { label: 'ホームページ', answer: 'https://example.jp/hanako です', value: 'https://example.jp/hanako', kind: 'url' },
  { label: '郵便番号', answer: '〒1500001', value: '150-0001', kind: 'postal_code' },
  { label: '氏名', answer: '山田花子と申します', value: '山田花子', kind: 'name' },
  { label: '卒業年', fact: fact('卒業した年'), answer: '2019年か2020年だったと思います', value: null, kind: 'year' },
  { label: '車両の製造年', answer: '2014年式です', value: '2014', kind: 'year' },
  { label: '同居しているペットの数', answer: 'いません。', value: '0', kind: 'number' },
  { label: 'どんなボランティアをしましたか', answer: '少しあります', value: null, kind: 'text' },
  {
    label: 'どんなボランティアをしましたか',
    answer: '子ども食堂で配膳の手伝いをしました',
    value: '子ども食堂で配膳の手伝いをしました',
    kind: 'text',
  },
];

describe('every answer kind, in English (Toronto)', () => {
  it.each(english)('$label ← $answer', (c) => check(c, 'en', 'CA', 'America/Toronto'));
});

describe('every answer kind, in Japanese (Tokyo)', () => {
  it.each(japanese)('$label ← $answer', (c) => check(c, 'ja', 'JP', 'Asia/Tokyo'));
});

describe('what never makes a fact numeric or a choice', () => {
  it('"size" alone is free text, and prose naming alternatives describes rather than restricts', () => {
    expect(answerSpec(fact('Shoe size'), field('Shoe size')).type).toBe('text');
    const background = fact("The attendee's current role or background", 'Their job, studies or experience');
    expect(answerSpec(background, field('Background')).type).toBe('text');
    const ja = fact('現在の職業や経歴', '仕事、専攻、経験のいずれか');
    const outcome = reviewAnswer({
      field: field('経歴'),
      facts: [ja],
      answers: ['物流会社でバックエンドエンジニアをしています'],
      language: 'ja',
      country: 'JP',
      now: NOW,
    });
    expect(outcome.passed).toBe(true);
  });
});

describe('digits of a code are not a phone number', () => {
  it('reads none in "HK-2024-0087", and still reads a number given alone', async () => {
    const { extractPhone } = await import('@convo/forms/internal/nlu/typed-values');
    expect(extractPhone('証券番号はHK-2024-0087です', 'JP').value).toBeNull();
    expect(extractPhone('the label reads AB-12345678', 'US').value).toBeNull();
    expect(extractPhone('090-8765-4321です', 'JP').value).toBe('+819087654321');
  });
});
