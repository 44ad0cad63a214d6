import { beforeAll, describe, expect, it } from 'vitest';
import {
  classifyFact,
  isNilAnswer,
  isNonAnswer,
  isSkipRequest,
  preloadContentAnalyzer,
  reviewAnswer,
  type ReviewInput,
} from '@convo/forms';
import type { FactDefinition, FormField } from '@convo/contract';

function field(label: string, opts: { required?: boolean; intent?: string | null } = {}): FormField {
  return { id: 'f1', fieldId: 'field_1', label, intent: opts.intent ?? null, required: opts.required ?? true, sortOrder: 0 };
}

function fact(factKey: string, description: string, doneCriteria = ''): FactDefinition {
  return { id: `k_${factKey}`, formFieldId: 'f1', factKey, fact: description, doneCriteria, questioningHints: null };
}

// A Wednesday, built from local components so relative dates do not depend on the machine's zone.
const NOW = new Date(2025, 2, 12, 12, 0, 0);

function review(partial: Partial<ReviewInput> & Pick<ReviewInput, 'field' | 'answers'>) {
  return reviewAnswer({ facts: [], language: 'en', country: null, now: NOW, ...partial });
}

describe('classifyFact', () => {
  const formField = field('Question');
  it.each([
    ['email', 'Email address', 'email'],
    ['contact', 'メールアドレス', 'email'],
    ['tel', 'Phone number', 'phone'],
    ['tel', '携帯電話の番号', 'phone'],
    ['dob', 'Date of birth', 'date'],
    ['start', '入社可能日', 'date'],
    ['start', 'いつから勤務できるか', 'date'],
    ['when', 'When can the respondent start?', 'date'],
    ['years', 'Years of experience', 'duration'],
    ['help', '片付けのお手伝い、何時間くらいできますか', 'duration'],
    ['help', '参加できる時間の長さ', 'duration'],
    ['days', 'How many days per week will your dog attend?', 'number'],
    ['when', '事故が起きたのは何時何分頃ですか', 'time'],
    // One point in time is a date; a coarser answer ("in 2023") is kept as written (see reviewAnswer).
    ['when', 'When they did it', 'date'],
    ['done', 'A year or period is given', 'period'],
    ['size', 'T-shirt size (S/M/L/XL)', 'choice'],
    ['size', 'Shoe size', 'text'],
    ['arrival', 'Expected arrival time', 'time'],
    ['zip', 'Postal code', 'postal_code'],
    ['parking', 'Whether they need a parking space', 'yes_no'],
    ['slot', '希望時間帯（午前・午後・夜間）', 'choice'],
    ['team', 'チームの人数', 'number'],
    ['exp', '経験年数（何年か）', 'duration'],
    ['portfolio', 'Portfolio URL', 'url'],
    ['site', 'ポートフォリオのリンク', 'url'],
    ['fullName', 'Full name', 'name'],
    ['name', '氏名', 'name'],
    ['name', 'お名前（フルネーム）', 'name'],
    ['company', 'Company name', 'text'],
    ['reason', 'Why the respondent wants to join', 'text'],
    ['tools', 'いつも使っているツール', 'text'],
  ] as const)('classifies the fact %s (%j) as %s', (key, description, type) => {
    expect(classifyFact(fact(key, description), formField)).toBe(type);
  });

  it('prefers "phone" over "number" for a phone number', () => {
    expect(classifyFact(fact('mobile', 'Mobile phone number'), formField)).toBe('phone');
  });

  it('uses the field label when the fact itself says nothing typed, unless told not to', () => {
    const emailField = field('Email');
    const vague = fact('contact', 'How we can reach the respondent');
    expect(classifyFact(vague, emailField)).toBe('email');
    expect(classifyFact(vague, emailField, { fieldContext: false })).toBe('text');
  });
});

describe('isNonAnswer', () => {
  it.each([
    "I don't know",
    'no idea',
    'Not sure',
    'dunno',
    'idk',
    '?',
    '...',
    'わかりません',
    '分かりません',
    'よくわからないです',
    '知りません',
    '不明',
    '未定です',
    // Putting the answer off is not giving it.
    "I'd have to check with my dad first, can I send it later",
    "I'll get back to you",
    '確認してから連絡します',
  ])('%j is a non-answer', (text) => expect(isNonAnswer(text)).toBe(true));

  it.each([
    "I don't know exactly, maybe five years",
    'わかりませんが、たぶん3年くらいです',
    '特にありません',
    'なし',
    'None',
    'Engineer',
    "I'd have to check with my dad first, but it's probably Anna Lee",
  ])('%j is not a non-answer', (text) => expect(isNonAnswer(text)).toBe(false));
});

describe('isSkipRequest', () => {
  it.each([
    'skip',
    'Skip please',
    'pass',
    'prefer not to say',
    "I'd rather not say",
    'no thanks',
    'next',
    'スキップ',
    'スキップでお願いします',
    'パス',
    '答えたくないです',
    '飛ばしてください',
    '次へ',
  ])('%j asks to skip', (text) => expect(isSkipRequest(text)).toBe(true));

  it.each(['next month', 'I passed the exam', 'パスポートを持っています', 'なし', 'I skipped breakfast'])(
    '%j does not ask to skip',
    (text) => expect(isSkipRequest(text)).toBe(false),
  );
});

describe('isNilAnswer', () => {
  it.each(['なし', '特にありません', '特になしです', '該当なし', 'None', 'nothing', 'n/a', 'No.'])('%j says "none"', (text) =>
    expect(isNilAnswer(text)).toBe(true),
  );

  it.each(['No allergies to report except pollen', 'わかりません', 'skip'])('%j is not just "none"', (text) =>
    expect(isNilAnswer(text)).toBe(false),
  );
});

describe('reviewAnswer — typed facts', () => {
  const emailField = field('Email');
  const emailFacts = [fact('email', 'Email address')];

  it("a required email field answered 'foo@' fails and names the invalid address", () => {
    const outcome = review({ field: emailField, facts: emailFacts, answers: ['foo@'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.missing_facts).toEqual(['Email address']);
    expect(outcome.feedback).toContain("'foo@'");
    expect(outcome.feedback).toContain('not valid');
    expect(outcome.field_value).toBeUndefined();
  });

  it('a follow-up with a valid address passes with the address lowercased', () => {
    const outcome = review({ field: emailField, facts: emailFacts, answers: ['foo@', 'sorry, it is Foo.Bar@Example.COM'] });
    expect(outcome).toMatchObject({ passed: true, field_value: 'foo.bar@example.com', extracted_facts: ['email: foo.bar@example.com'] });
    expect(outcome.factResults[0]).toMatchObject({ type: 'email', satisfied: true, value: 'foo.bar@example.com' });
  });

  it('reads a full-width address typed on a Japanese keyboard', () => {
    const outcome = review({ field: emailField, facts: emailFacts, answers: ['ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐです'], language: 'ja' });
    expect(outcome.field_value).toBe('taro@example.jp');
  });

  it('takes the latest valid value when the respondent corrects themselves', () => {
    const outcome = review({ field: emailField, facts: emailFacts, answers: ['old@example.com', 'new@example.com'] });
    expect(outcome.field_value).toBe('new@example.com');
  });

  it('reads a Japanese mobile number in the country of residence as E.164', () => {
    const outcome = review({
      field: field('電話番号'),
      facts: [fact('phone', '電話番号')],
      answers: ['090-1234-5678です'],
      language: 'ja',
      country: 'JP',
    });
    expect(outcome).toMatchObject({ passed: true, field_value: '+819012345678' });
  });

  it('assumes Japan for national phone formats in a Japanese session without a country', () => {
    const outcome = review({
      field: field('電話番号'),
      facts: [fact('phone', '電話番号')],
      answers: ['０９０－１２３４－５６７８'],
      language: 'ja',
    });
    expect(outcome.field_value).toBe('+819012345678');
  });

  it('reads an international number whatever the country', () => {
    const outcome = review({ field: field('Phone'), facts: [fact('phone', 'Phone number')], answers: ['+1 415 555 2671'], country: 'JP' });
    expect(outcome.field_value).toBe('+14155552671');
  });

  it('names a phone number that is not valid', () => {
    const outcome = review({ field: field('Phone'), facts: [fact('phone', 'Phone number')], answers: ['12-345'], country: 'JP' });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain("'12-345'");
  });

  it('reads "2025年4月1日" as 2025-04-01', () => {
    const outcome = review({
      field: field('入社可能日'),
      facts: [fact('start', '入社可能日')],
      answers: ['2025年4月1日から可能です'],
      language: 'ja',
    });
    expect(outcome).toMatchObject({ passed: true, field_value: '2025-04-01' });
  });

  it('resolves relative dates against the reference date ("next Monday", "来週の月曜日")', () => {
    const facts = [fact('start', 'Start date')];
    expect(review({ field: field('Start date'), facts, answers: ['next Monday'] }).field_value).toBe('2025-03-17');
    expect(review({ field: field('Start date'), facts, answers: ['来週の月曜日'], language: 'ja' }).field_value).toBe('2025-03-17');
  });

  it('reads ISO dates and month-only dates', () => {
    const facts = [fact('start', 'Start date')];
    expect(review({ field: field('Start date'), facts, answers: ['2025-04-01'] }).field_value).toBe('2025-04-01');
    expect(review({ field: field('Start date'), facts, answers: ['April 2025'] }).field_value).toBe('2025-04');
    expect(review({ field: field('開始日'), facts: [fact('start', '開始日')], answers: ['2025年4月'], language: 'ja' }).field_value).toBe(
      '2025-04',
    );
    // 「時期」 asks for a time at any precision: a period, kept as written.
    expect(
      review({ field: field('開始時期'), facts: [fact('start', '開始時期')], answers: ['2025年4月ごろ'], language: 'ja' }).field_value,
    ).toBe('2025年4月ごろ');
  });

  it('rejects an impossible date and names it', () => {
    const outcome = review({ field: field('Start date'), facts: [fact('start', 'Start date')], answers: ['2025-02-30'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('2025-02-30');
  });

  it('requires the year for a birth date', () => {
    const facts = [fact('dob', 'Date of birth')];
    const outcome = review({ field: field('Date of birth'), facts, answers: ['May 3rd'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('no year');
    expect(review({ field: field('Date of birth'), facts, answers: ['May 3rd', '1990'] }).passed).toBe(false);
    expect(review({ field: field('Date of birth'), facts, answers: ['May 3, 1990'] }).field_value).toBe('1990-05-03');
  });

  it.each([
    ['5年', '5'],
    ['five years', '5'],
    ['５', '5'],
    ['三年です', '3'],
    ['十二人', '12'],
    ['about 2.5 years', '2.5'],
    ['twenty-five', '25'],
    ['1,200', '1200'],
  ])('reads the number in %j as %s', (answer, value) => {
    const outcome = review({ field: field('Headcount'), facts: [fact('count', 'Number of people')], answers: [answer], language: 'ja' });
    expect(outcome).toMatchObject({ passed: true, field_value: value });
  });

  it.each([
    ['5年', '5年'],
    ['five years', 'five years'],
    ['about 2.5 years', 'about 2.5 years'],
    ['3年間です', '3年間'],
    ['twenty-five', '25'],
    ['since 2019', 'since 2019'],
  ])('reads the length of time in %j as %j', (answer, value) => {
    const outcome = review({
      field: field('Experience'),
      facts: [fact('years', 'Years of experience')],
      answers: [answer],
      language: 'ja',
    });
    expect(outcome).toMatchObject({ passed: true, field_value: value });
  });

  it('does not read "一緒" or "十分" as numbers', () => {
    const outcome = review({
      field: field('チームの人数'),
      facts: [fact('size', 'チームの人数')],
      answers: ['みんな一緒で十分です'],
      language: 'ja',
    });
    expect(outcome.passed).toBe(false);
  });

  it('accepts bare domains and adds https://', () => {
    const facts = [fact('portfolio', 'Portfolio URL')];
    expect(review({ field: field('Portfolio'), facts, answers: ['example.com/portfolio'] }).field_value).toBe(
      'https://example.com/portfolio',
    );
    expect(
      review({ field: field('Portfolio'), facts, answers: ['見てください: https://github.com/taro。'], language: 'ja' }).field_value,
    ).toBe('https://github.com/taro');
  });

  it('names a link that is not a valid URL', () => {
    const outcome = review({ field: field('Portfolio'), facts: [fact('portfolio', 'Portfolio URL')], answers: ['http://'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain("'http://'");
  });

  it('does not take a file name such as Node.js for a web site', () => {
    const outcome = review({ field: field('Portfolio'), facts: [fact('portfolio', 'Portfolio URL')], answers: ['I mostly use Node.js'] });
    expect(outcome.passed).toBe(false);
  });

  it('accepts a full name in Latin script or Japanese and removes the introduction', () => {
    const facts = [fact('fullName', 'Full name')];
    expect(review({ field: field('Name'), facts, answers: ['My name is Taro Yamada'] }).field_value).toBe('Taro Yamada');
    expect(
      review({ field: field('氏名'), facts: [fact('name', '氏名')], answers: ['山田太郎と申します'], language: 'ja' }).field_value,
    ).toBe('山田太郎');
  });

  it('asks for the family name too when only a first name is given', () => {
    const outcome = review({ field: field('Name'), facts: [fact('fullName', 'Full name')], answers: ['Taro'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('first and last name');
  });

  it('accepts one word for a first-name-only fact', () => {
    expect(review({ field: field('First name'), facts: [fact('firstName', 'First name')], answers: ['Taro'] }).passed).toBe(true);
  });

  it('does not take a sentence for a name', () => {
    const outcome = review({ field: field('Name'), facts: [fact('fullName', 'Full name')], answers: ['I would like to skip the'] });
    expect(outcome.passed).toBe(false);
  });
});

describe('reviewAnswer — refusals and optional fields', () => {
  it('an optional field answered "skip" passes as skipped, without a value', () => {
    const outcome = review({ field: field('Comments', { required: false }), answers: ['skip'] });
    expect(outcome).toMatchObject({ passed: true, skipped: true });
    expect(outcome.field_value).toBeUndefined();
    expect(outcome.feedback).toMatch(/skip/i);
  });

  it('an optional field answered "なし" passes as skipped, with feedback in Japanese', () => {
    const outcome = review({ field: field('備考', { required: false }), answers: ['なし'], language: 'ja' });
    expect(outcome).toMatchObject({ passed: true, skipped: true });
    expect(outcome.feedback).toContain('スキップ');
  });

  it('only the latest answer decides the skip', () => {
    const outcome = review({ field: field('Comments', { required: false }), answers: ['skip', 'Actually, I enjoyed the process a lot'] });
    expect(outcome.passed).toBe(true);
    expect(outcome.skipped).toBeUndefined();
  });

  it('a required field answered "skip" fails and says it is required', () => {
    const outcome = review({ field: field('Email'), facts: [fact('email', 'Email address')], answers: ['skip'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('required');
    expect(outcome.missing_facts).toEqual(['Email address']);
  });

  it('a required field answered "わかりません" fails and asks for an approximate answer', () => {
    const outcome = review({ field: field('志望動機'), facts: [fact('m', '志望動機')], answers: ['わかりません'], language: 'ja' });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('必須');
  });

  it('an optional field answered "I don\'t know" fails but says it may be skipped', () => {
    const outcome = review({ field: field('Hobbies', { required: false }), answers: ["I don't know"] });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('optional');
  });

  it('"none" completes a question about whether something exists, even when required', () => {
    const outcome = review({
      field: field('Allergies'),
      facts: [fact('allergies', 'Any allergies the respondent has')],
      answers: ['None'],
    });
    expect(outcome).toMatchObject({ passed: true, field_value: 'None' });
  });

  it('"なし" does not answer a question that needs a description', () => {
    const outcome = review({ field: field('志望動機'), facts: [fact('reason', '当社を志望する理由')], answers: ['なし'], language: 'ja' });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('「なし」では');
  });
});

describe('reviewAnswer — free text', () => {
  it('passes an informative answer and stores it as the value', () => {
    const outcome = review({
      field: field('Motivation'),
      facts: [fact('reason', 'Why the respondent wants to join')],
      answers: ['I love building tools for designers'],
    });
    expect(outcome).toMatchObject({ passed: true, field_value: 'I love building tools for designers' });
  });

  it('fails a descriptive fact answered with one word, and says it is too brief', () => {
    const outcome = review({ field: field('Motivation'), facts: [fact('reason', 'Why the respondent wants to join')], answers: ['Money'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.feedback).toContain('too brief');
  });

  it('accepts a short answer for a short fact (a job title)', () => {
    expect(review({ field: field('Job title'), facts: [fact('title', 'Current job title')], answers: ['Engineer'] }).passed).toBe(true);
    expect(review({ field: field('職種'), facts: [fact('title', '現在の職種')], answers: ['営業'], language: 'ja' }).passed).toBe(true);
  });

  it('counts six Japanese characters as enough for a descriptive fact', () => {
    const facts = [fact('reason', '応募の理由')];
    expect(review({ field: field('理由'), facts, answers: ['給料が良いから'], language: 'ja' }).passed).toBe(true);
    expect(review({ field: field('理由'), facts, answers: ['お金'], language: 'ja' }).passed).toBe(false);
  });

  it('does not let fillers count as content ("はい", "ok")', () => {
    const facts = [fact('reason', 'Why the respondent wants to join')];
    expect(review({ field: field('Motivation'), facts, answers: ['ok', 'yes sure'] }).passed).toBe(false);
  });

  it('judges a field without facts as one fact built from its label', () => {
    const outcome = review({ field: field('What do you enjoy about your work?'), answers: ['Solving hard problems with my team'] });
    expect(outcome).toMatchObject({ passed: true });
    expect(outcome.factResults).toHaveLength(1);
    expect(outcome.factResults[0]).toMatchObject({ factKey: 'field_1', type: 'text' });
  });

  it('checks a field without facts by type when its label names one ("Email")', () => {
    const outcome = review({ field: field('Email'), answers: ['foo@'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.factResults[0]?.type).toBe('email');
  });

  const motivation = [
    fact('reason', 'Why the respondent wants to join the company'),
    fact('goal', 'What the respondent hopes to achieve in the first year'),
  ];

  it('a multi-fact free-text field gives the first answer to the first fact and asks for the rest', () => {
    const outcome = review({ field: field('Motivation'), facts: motivation, answers: ['I love your products and the team culture'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.missing_facts).toEqual(['What the respondent hopes to achieve in the first year']);
    expect(outcome.extracted_facts).toEqual(['reason: I love your products and the team culture']);
    expect(outcome.feedback).toContain('What the respondent hopes to achieve');
  });

  it('a follow-up answer completes the multi-fact field, and the value keeps both answers', () => {
    const outcome = review({
      field: field('Motivation'),
      facts: motivation,
      answers: ['I love your products and the team culture', 'I would like to ship a feature that customers use every day'],
    });
    expect(outcome.passed).toBe(true);
    expect(outcome.field_value).toBe(
      'I love your products and the team culture\nI would like to ship a feature that customers use every day',
    );
    expect(outcome.factResults.map((f) => f.satisfied)).toEqual([true, true]);
  });

  it('assigns an answer to the fact whose keyword it mentions, whatever the order', () => {
    const outcome = review({
      field: field('Motivation'),
      facts: motivation,
      answers: ['In my first year I hope to achieve a successful product launch'],
    });
    expect(outcome.factResults.map((f) => f.satisfied)).toEqual([false, true]);
    expect(outcome.factResults[1]?.reason).toContain("mentions 'hope");
    expect(outcome.missing_facts).toEqual(['Why the respondent wants to join the company']);
  });

  it('matches Japanese facts by shared kanji/katakana pieces', () => {
    const facts = [fact('reason', '当社を志望する理由'), fact('project', '入社後に挑戦したいプロジェクト')];
    const first = review({ field: field('志望動機'), facts, answers: ['決済基盤の刷新プロジェクトに挑戦したいです'], language: 'ja' });
    expect(first.factResults.map((f) => f.satisfied)).toEqual([false, true]);
    expect(first.feedback).toContain('当社を志望する理由');
    const done = review({
      field: field('志望動機'),
      facts,
      answers: ['決済基盤の刷新プロジェクトに挑戦したいです', '御社の製品が好きで、長く使っているからです'],
      language: 'ja',
    });
    expect(done.passed).toBe(true);
  });

  it('puts typed values first when a field mixes typed and free-text facts', () => {
    const facts = [fact('email', 'Email address'), fact('contactWay', 'How the respondent would like to be contacted')];
    const outcome = review({ field: field('Contact'), facts, answers: ['taro@example.com, by email only please'] });
    expect(outcome.passed).toBe(true);
    expect(outcome.field_value).toBe('taro@example.com\nby email only please');
  });

  it('does not let an email alone satisfy the free-text fact of a mixed field', () => {
    const facts = [fact('email', 'Email address'), fact('note', 'Preferred way to be contacted and why')];
    const outcome = review({ field: field('Contact'), facts, answers: ['taro@example.com'] });
    expect(outcome.passed).toBe(false);
    expect(outcome.missing_facts).toEqual(['Preferred way to be contacted and why']);
  });
});

describe('reviewAnswer — language of the explanation', () => {
  it('explains in Japanese in a Japanese session', () => {
    const outcome = review({ field: field('メール'), facts: [fact('email', 'メールアドレス')], answers: ['foo@'], language: 'ja' });
    expect(outcome.feedback).toBe('メールアドレス「foo@」の形式が正しくありません。');
    expect(outcome.factResults[0]?.reason).toBe(outcome.feedback);
  });
});

describe('reviewAnswer — answers the form itself allows', () => {
  it("takes an answer the form quotes ('never') as the answer, not a refusal", () => {
    const formField = field('Last tune-up', { required: false, intent: 'When was the bike last serviced?' });
    const facts = [fact('last_service', 'When the bike last had a service', "Approximate time (season/year) or 'never'.")];
    expect(review({ field: formField, facts, answers: ['never'] })).toMatchObject({ passed: true, field_value: 'never' });
    expect(review({ field: formField, facts, answers: ["It's never been serviced honestly"] })).toMatchObject({
      passed: true,
      field_value: "It's never been serviced honestly",
    });
    // "Time (season/year)" asks for a stretch of time, not a clock time.
    expect(review({ field: formField, facts, answers: ['Last spring, so spring 2024'] }).field_value).toContain('spring 2024');
  });

  it("takes a concrete answer that is none of the options as the form's 'Other' once the options were shown", () => {
    const facts = [fact('source', 'Main source of income: Salary, Business, Pension or Other', 'One of Salary, Business, Pension, Other')];
    const said = 'My only income is crypto trading gains';
    expect(review({ field: field('Income'), facts, answers: [said] }).passed).toBe(false);
    expect(review({ field: field('Income'), facts, answers: [said, said] })).toMatchObject({ passed: true, field_value: 'Other' });
    expect(review({ field: field('Income'), facts, answers: [said, "I don't know"] }).passed).toBe(false);
  });

  it('reads a day said without its year in the month the form states', () => {
    const formField = field('Preferred date', { intent: 'We are currently only booking appointments in June 2025.' });
    const outcome = review({
      field: formField,
      facts: [fact('date', 'Day in June 2025 for the appointment', 'A calendar date in June 2025')],
      answers: ['June 10th please'],
      now: new Date('2026-11-24T10:00:00Z'),
    });
    expect(outcome.field_value).toBe('2025-06-10');
  });

  it('does not take a verb "skip" for a request to skip', () => {
    const facts = [fact('problem', "What's wrong with the bike", 'Enough detail for the mechanic')];
    const outcome = review({
      field: field('What needs fixing?'),
      facts,
      answers: ['The rear brake is squealing and the gears skip when I shift.'],
    });
    expect(outcome.passed).toBe(true);
    expect(isSkipRequest('the gears skip when I shift')).toBe(false);
    expect(isSkipRequest('Can we skip this one?')).toBe(true);
    expect(isSkipRequest('skip')).toBe(true);
  });
});

describe("reviewAnswer — a thing's age", () => {
  it('reads "N years old" as the length asked for when the fact asks an age', () => {
    const formField = field('Roof age', { required: false, intent: 'How long ago was the roof put on or last replaced?' });
    const outcome = review({
      field: formField,
      facts: [fact('roof_age', 'Age of the roof covering.', 'Roughly how many years old the roof is.')],
      answers: ['It was replaced in 2017, so about 9 years old.'],
    });
    expect(outcome.field_value).toContain('9 years');
  });
});

describe('reviewAnswer — an answer that also gives another field its value', () => {
  beforeAll(async () => {
    await preloadContentAnalyzer();
  });

  it('keeps the sentences about this field and leaves out the one about the other', () => {
    const otherFields = [{ label: '新居の物件ページURL', kinds: ['url'] as const }];
    const outcome = review({
      field: field('お引越しの理由', { required: false }),
      facts: [fact('riyu', 'なぜ引越すのか', '理由がひとこと分かればよい')],
      answers: ['住み替えです。新居のページはこれです https://suumo.jp/chukoikkodate/nc_76543210/'],
      language: 'ja',
      otherFields,
    });
    expect(outcome.passed).toBe(true);
    expect(outcome.field_value).toContain('住み替え');
  });
});

describe('reviewAnswer — doubt about relevance is no "I don\'t know"', () => {
  it('takes an answer that only doubts whether it matters', () => {
    const formField = field('Is there anything else we should know? (noises, warning lights, etc.)', { required: false });
    const facts = [fact('notes', 'What the customer has noticed about the car, and when it happens')];
    expect(
      review({ field: formField, facts, answers: ["It pulls a little to the right on the highway, not sure if that's related."] }).passed,
    ).toBe(true);
    expect(review({ field: field('Why are you applying?'), answers: ["Hmm, I'm not sure, honestly."] }).passed).toBe(false);
    expect(
      review({
        field: field('Where will the shoot take place?'),
        answers: ["Sorry, still no idea - we're touring places over the next few weeks"],
      }).passed,
    ).toBe(false);
  });
});

describe('reviewAnswer — a day settled on in the reply', () => {
  it('takes the day the respondent changes to, not the one they take back or give as a reason', () => {
    const formField = field('Preferred day', { intent: 'The conference runs 14–16 October 2026; which day would suit you best?' });
    const facts = [fact('day', 'Which conference day (14, 15 or 16 October 2026) the speaker prefers.', 'A date within the conference.')];
    const outcome = review({
      field: formField,
      facts,
      answers: ["The 14th. Actually no, make that the 15th — I'm travelling on the 14th."],
    });
    expect(outcome.field_value).toBe('2026-10-15');
  });
});

describe('reviewAnswer — kinds named by the options, and days counted from another', () => {
  it('a kind named only inside the options does not type the fact ("Phone call" is an option)', () => {
    const facts = [fact('format', 'Meeting format — In person, Video call, or Phone call', 'Parent has chosen one format')];
    expect(review({ field: field('How would you like to meet?'), facts, answers: ['video'] })).toMatchObject({
      passed: true,
      field_value: 'Video call',
    });
  });

  it('reads 「当日返却」「翌日返却」 and "the next day" as times', () => {
    const facts = [fact('return', 'いつ返却するか(当日返却か翌日返却か、など)', '返却のタイミングがわかる')];
    const outcome = review({ field: field('レンタル期間・ご返却のタイミング'), facts, answers: ['当日返却で大丈夫です'], language: 'ja' });
    expect(outcome).toMatchObject({ passed: true, field_value: '当日返却' });
    expect(
      review({
        field: field('When will you return it?'),
        facts: [fact('r', 'Return period', 'When it comes back')],
        answers: ['The next day, in the morning'],
      }).passed,
    ).toBe(true);
  });
});

describe('reviewAnswer — hours the form states as afternoon hours', () => {
  it('reads "4:15" as 16:15 when the slots run "from 3:00 to 6:00 in the afternoon"', () => {
    const formField = field('Preferred time slot', { intent: 'Conference slots run every 15 minutes from 3:00 to 6:00 in the afternoon' });
    const outcome = review({
      field: formField,
      facts: [fact('time', 'Preferred start time for the conference', 'A time between 3:00 PM and 6:00 PM')],
      answers: ['Any time after 4 is good, so maybe 4:15?'],
    });
    expect(outcome.field_value).toBe('16:15');
  });
});

describe('reviewAnswer — a day changed to, with its weekday', () => {
  it('takes "Friday the 21st" for the 21st, scratches Monday, and reads no hesitation in a settled request', () => {
    const formField = field('Which day works best for you?', {
      intent: 'Must be a day of conference week, Monday Nov 17 through Friday Nov 21, 2025',
    });
    const facts = [fact('day', 'Preferred conference day during the week of Nov 17–21, 2025', 'A single date within conference week')];
    const said = 'Actually scratch Monday — can we do Friday the 21st instead? I just remembered I have a work trip on the 17th.';
    expect(review({ field: formField, facts, answers: [said], replacing: '2025-11-17' }).field_value).toBe('2025-11-21');
  });
});

describe('reviewAnswer — topics listed under an open question', () => {
  it('keeps the description, not the topic word it mentions', () => {
    const formField = field('Medical info for race-day staff', {
      required: false,
      intent: 'Anything the medical tent should know: conditions, medication, allergies',
    });
    const facts = [
      fact(
        'notes',
        'Medical conditions, medications or allergies the runner wants race medics to know about',
        'Runner has described any relevant condition',
      ),
    ];
    const outcome = review({ field: formField, facts, answers: ['I take blood pressure medication every morning.'] });
    expect(outcome.field_value).toContain('blood pressure');
  });
});

describe('reviewAnswer — Japanese dates said in pieces, and a stated range of months', () => {
  beforeAll(async () => {
    await preloadContentAnalyzer();
  });

  it('reads 「10月の…7日の火曜日」 as 10月7日', () => {
    const formField = field('初回訪問の希望日はいつですか?', { intent: '2025年10月1日〜12月27日の間で受付' });
    const outcome = review({
      field: formField,
      facts: [fact('d', '初回訪問日(2025年)', '年月日が特定できる')],
      answers: ['できれば早めがいいので、10月の…7日の火曜日って空いてますか?'],
      language: 'ja',
    });
    expect(outcome.field_value).toBe('2025-10-07');
  });

  it('gives 「1月」 the year that puts it inside 「2026年4月〜2027年3月」', () => {
    const formField = field('利用開始月', { intent: '2026年4月〜2027年3月のうち、パスを使い始める月' });
    const facts = [fact('m', '何月から使い始めるか', '2026年4月〜2027年3月の範囲で年月が決まる')];
    expect(review({ field: formField, facts, answers: ['1月'], language: 'ja' }).field_value).toBe('2027-01');
    expect(review({ field: formField, facts, answers: ['7月から使えると嬉しいです'], language: 'ja' }).field_value).toBe('2026-07');
  });
});

describe('reviewAnswer — the value settled on after a preface', () => {
  beforeAll(async () => {
    await preloadContentAnalyzer();
  });

  it('takes the day said after 「…なんですけど、」 over the dates of the preface', () => {
    const formField = field('ご来店日', { intent: '2026年3月1日〜5月31日の間' });
    const said = '旅行は3月の19日から21日までなんですけど、着物を着るのは真ん中の20日にしたいです!';
    expect(
      review({ field: formField, facts: [fact('d', '来店する日(2026年)', '2026年3月〜5月の特定の日付')], answers: [said], language: 'ja' })
        .field_value,
    ).toBe('2026-03-20');
  });

  it('reads "for me" as closing what it decides', () => {
    const facts = [fact('format', 'Meeting format — In person, Video call, or Phone call', 'Parent has chosen one format')];
    const said = 'I work at the hospital so honestly a video call would be easiest for me, unless the teacher really prefers in person.';
    expect(review({ field: field('How would you like to meet?'), facts, answers: [said] }).field_value).toBe('Video call');
  });
});

describe('reviewAnswer — codes, dates by their parts, and not knowing', () => {
  beforeAll(async () => {
    await preloadContentAnalyzer();
  });

  it('keeps a serial or policy number as written, and "(S/N)" offers no options', () => {
    const serial = review({
      field: field('Serial number'),
      facts: [fact('sn', "The laptop's serial number (S/N)", 'The full serial number as printed on the sticker')],
      answers: ["It's 5CG3214XKQ"],
    });
    expect(serial.field_value).toContain('5CG3214XKQ');
    const policy = review({
      field: field('証券番号'),
      facts: [fact('p', '保険証券に記載の証券番号（英字＋数字）', '証券番号が聞き取れていること')],
      answers: ['証券番号はJA-5830214です'],
      language: 'ja',
    });
    expect(policy.field_value).toContain('JA-5830214');
  });

  it('reads "Day, month and year of purchase" as a date and 「年と月」 as a month', () => {
    const bought = review({
      field: field('When did you buy it?'),
      facts: [fact('d', 'Date of purchase', 'Day, month and year of purchase (as on the receipt)')],
      answers: ['I bought it on August 19, 2023.'],
    });
    expect(bought.field_value).toBe('2023-08-19');
    const kit = [fact('k', '持ち出し袋を最後に点検・入れ替えした年月', '年と月がわかる')];
    expect(
      review({ field: field('非常持ち出し袋を最後に点検した時期', { required: false }), facts: kit, answers: ['2023.3'], language: 'ja' })
        .field_value,
    ).toBe('2023-03');
  });

  it("picks the form's own 'not sure' option for a reply of not knowing", () => {
    const facts = [fact('a', '防災訓練への参加の可否', '回答がはっきりしている')];
    facts[0]!.questioningHints = '「参加」「不参加」「未定」のいずれかで答えてもらう。迷っている人は「未定」でよい';
    const said = '参加したい気持ちはあるのですが、その週は娘のところへ行くかもしれなくて、まだはっきりしないんです。';
    expect(review({ field: field('出欠'), facts, answers: [said], language: 'ja' }).field_value).toBe('未定');
  });

  it('takes no value told in passing after "no clue", and an earlier guess is withdrawn by "I don\'t know"', () => {
    const formField = field('Year built');
    const facts = [fact('y', 'Year the house was built', 'A four-digit year')];
    expect(
      review({
        field: formField,
        facts,
        answers: ['No clue, honestly. I inherited it from my aunt last year and never saw any paperwork.'],
      }).passed,
    ).toBe(false);
    expect(review({ field: formField, facts, answers: ['1990 I think', "Honestly I don't know, sorry."] }).passed).toBe(false);
    expect(review({ field: formField, facts, answers: ['Not sure, but maybe 1962?'] }).field_value).toBe('1962');
  });
});

describe('reviewAnswer — "none" where the criteria accept it, and あり／なし criteria', () => {
  beforeAll(async () => {
    await preloadContentAnalyzer();
  });

  it('records 「なし」 as the answer when the criteria say not taking any is complete', () => {
    const facts = [fact('m', '服用中の薬', '薬の名前か種類がわかる、または飲んでいないことがわかる')];
    expect(review({ field: field('現在服用中のお薬', { required: false }), facts, answers: ['なし'], language: 'ja' })).toMatchObject({
      passed: true,
      field_value: 'なし',
    });
    expect(
      review({ field: field('現在服用中のお薬', { required: false }), facts: [fact('m', '服用中の薬')], answers: ['なし'], language: 'ja' })
        .skipped,
    ).toBe(true);
  });

  it('reads 「あり／なしがはっきりしている」 as a yes/no pair, and 「特にありません」 as no', () => {
    const facts = [fact('a', '麻酔による体調不良の経験', 'あり／なしがはっきりしている')];
    expect(
      review({ field: field('麻酔で具合が悪くなったことはありますか？'), facts, answers: ['いいえ、特にありません。'], language: 'ja' })
        .field_value,
    ).toBe('no');
  });

  it("a medicine's name is no person's name", () => {
    const facts = [fact('m', '服用中の薬', '薬の名前か種類がわかる')];
    const formField = field('現在服用中のお薬', { required: false, intent: '今使っているお薬の名前' });
    expect(
      review({ field: formField, facts, answers: ['花粉症の薬（アレグラ）を毎日飲んでいます。'], language: 'ja' }).field_value,
    ).toContain('アレグラ');
  });
});

describe('reviewAnswer — the one year a form states', () => {
  it('gives a date said without its year the year the form names', () => {
    const facts = [
      fact(
        'd',
        '事故が発生した年月日。本フォームで受け付けるのは2025年に発生した事故のため、年の記載がなければ2025年とする。',
        '月日がわかること',
      ),
    ];
    expect(
      review({ field: field('事故はいつ起きましたか'), facts, answers: ['7/3'], language: 'ja', now: new Date('2026-11-24T10:00:00Z') })
        .field_value,
    ).toBe('2025-07-03');
  });
});

describe('reviewAnswer — not knowing, then answering anyway', () => {
  beforeAll(async () => {
    await preloadContentAnalyzer();
  });

  it('"no clue … Let\'s say 90 minutes" gives 90 minutes; "No, sorry, I forgot…" is a no', () => {
    const formField = field('How long should the photographer stay?');
    const outcome = review({
      field: formField,
      facts: [fact('c', 'How long the coverage lasts', 'A length of time')],
      answers: ["Honestly I have no clue how long these usually take... is 90 minutes enough? Let's say 90 minutes."],
    });
    expect(outcome.field_value).toContain('90 minutes');
    const fasted = review({
      field: field('Had you been fasting before the draw?'),
      facts: [fact('f', 'Whether the patient fasted for 8 hours', 'Yes or no')],
      answers: ['No, sorry, I forgot and had a coffee with milk on the way.'],
    });
    expect(fasted.field_value).toBe('no');
  });

  it('keeps a corrected full date when a count of days is also said (「1日ずれて…10日で」)', () => {
    const facts = [fact('d', '引越し日', '年月日がわかる')];
    const said = 'すみません、さっきの引越し日ですが、業者の都合で1日ずれて2027年1月10日になりました。10日でおねがいします。';
    expect(
      review({ field: field('引越し日（旧居の使用停止日）'), facts, answers: [said], language: 'ja', replacing: '2027-01-09' }).field_value,
    ).toBe('2027-01-10');
  });
});

describe('reviewAnswer — a reason after a question mark is no alternative', () => {
  it('"maybe 1:15? Church lets out at noon and …" is 13:15 within afternoon slots', () => {
    const formField = field('Preferred slot', { intent: 'Slots start every 15 minutes from 10:00 am to 4:00 pm' });
    const outcome = review({
      field: formField,
      facts: [fact('t', 'Preferred audition start time', 'A start time between 10:00 am and 4:00 pm')],
      answers: ["Anything after lunch — maybe 1:15? Church lets out at noon and I'd like a bite to eat first."],
    });
    expect(outcome.field_value).toBe('13:15');
    expect(review({ field: field('What year did you graduate?'), answers: ['I want to say 2012? Or 2013?'] }).passed).toBe(false);
  });
});

describe('reviewAnswer — the answer the form itself offers', () => {
  it('passes 「個人」 when the label says to write 「個人」, and "none" when the hint says to write "none"', () => {
    const group = field('団体名（個人でのご利用の場合は「個人」とご記入ください）');
    const groupFacts = [fact('group', '利用する団体の名称。個人利用なら「個人」')];
    expect(review({ field: group, facts: groupFacts, answers: ['個人'], language: 'ja' })).toMatchObject({
      passed: true,
      field_value: '個人',
    });
    const club = field('Club or society');
    const clubFacts = [{ ...fact('club', 'The club the student belongs to'), questioningHints: 'If none, write "none"' }];
    expect(review({ field: club, facts: clubFacts, answers: ['none'] })).toMatchObject({ passed: true });
    // A short answer the form does not offer is still too short to stand for a name.
    expect(review({ field: group, facts: groupFacts, answers: ['会'], language: 'ja' }).passed).toBe(false);
  });
});

describe('reviewAnswer — decoration', () => {
  it('stores a short answer without the emoji around it, and a long one as written', () => {
    const pet = field('ペットのお名前');
    const facts = [fact('pet', 'ペットの名前')];
    expect(review({ field: pet, facts, answers: ['ちゃちゃまる🐱'], language: 'ja' }).field_value).toBe('ちゃちゃまる');
    const notes = field('Anything else we should know?', { required: false });
    const long = 'He gets anxious at night so please leave a light on for him 🐶';
    expect(review({ field: notes, facts: [fact('notes', 'Other notes')], answers: [long] }).field_value).toBe(long);
  });
});

describe('reviewAnswer — what the form allows instead of a value', () => {
  it('stores "never played" where the criteria say "A length of time, or never played"', () => {
    const f = field('How long has the player been playing tennis?');
    const facts = [
      {
        ...fact('experience', 'How long the player has played tennis', 'A length of time, or never played'),
        answerType: 'duration' as const,
      },
    ];
    expect(review({ field: f, facts, answers: ['never played'] })).toMatchObject({ passed: true, field_value: 'never played' });
    expect(review({ field: f, facts, answers: ['2 years'] })).toMatchObject({ passed: true });
    expect(review({ field: f, facts, answers: ['tennis'] }).passed).toBe(false);
  });
});

describe('reviewAnswer — a list the form offers as what is available', () => {
  it('keeps a reply naming several items, or more than one, as written', () => {
    const f = field('How should the room be set up, and what equipment do you need?');
    const facts = [
      {
        ...fact('setup', 'Room layout and equipment requests', 'What furniture/equipment and layout they want'),
        questioningHints: 'Available: round tables, folding tables, chairs, projector, microphone',
      },
    ];
    const several = 'round tables + chairs for 100, stage area';
    expect(review({ field: f, facts, answers: [several] })).toMatchObject({ passed: true, field_value: several });
    expect(review({ field: f, facts, answers: ['chairs'] })).toMatchObject({ passed: true, field_value: 'chairs' });
  });
});
