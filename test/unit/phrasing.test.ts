import { beforeAll, describe, expect, it } from 'vitest';
import { preloadContentAnalyzer } from '@convo/forms';
import {
  askCountryText,
  askTimezoneText,
  countryNotUnderstoodText,
  greetingText,
  languageNotUnderstoodText,
  languageUnsupportedText,
} from '../../services/greeter/src/phrasing.js';
import {
  alreadyCompleteText,
  bootstrapDoneText,
  completionText,
  followUpText,
  questionText,
  toRespondent,
} from '../../services/interviewer/src/phrasing.js';
import type { MissingFact, MissingReason } from '@convo/forms';
import type { FactDefinition, FormField } from '@convo/contract';

function field(label: string, opts: { required?: boolean; intent?: string | null } = {}): FormField {
  return { id: 'f1', fieldId: 'field_1', label, intent: opts.intent ?? null, required: opts.required ?? true, sortOrder: 0 };
}

function fact(factKey: string, description: string, hints: string | null = null): FactDefinition {
  return { id: `k_${factKey}`, formFieldId: 'f1', factKey, fact: description, doneCriteria: '', questioningHints: hints };
}

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;

// Japanese hints are read with the dictionary, as the services load it at start.
beforeAll(async () => {
  await preloadContentAnalyzer();
});

describe('greeter phrasing (services/greeter)', () => {
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
    const candidates = [
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Los_Angeles',
      'America/Phoenix',
      'America/Anchorage',
      'Pacific/Honolulu',
    ];
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
  const ask = (f: FormField, facts: FactDefinition[], language: 'en' | 'ja' = 'en', isFirst = false) =>
    questionText({ field: f, facts, language, isFirst });

  it('asks for a noun-phrase label in one polite sentence addressed to the respondent', () => {
    const en = ask(field('Email address'), [fact('email', 'Email address')]);
    expect(en).toContain('Could you tell me your email address?');
    expect(en).not.toContain('Email address?');
    expect(ask(field('メールアドレス'), [fact('email', 'メールアドレス')], 'ja')).toContain('メールアドレスを教えていただけますか？');
  });

  it("asks for someone else's value as theirs, not the respondent's own", () => {
    // A bare label whose fact says whose it is.
    expect(ask(field('Age'), [fact('age', "Child's age in years")])).toContain("Could you tell me the child's age?");
    expect(ask(field('Age'), [fact('age', 'Age in years')])).toContain('Could you tell me your age in years?');
    // A possessive that is not a name is lower case; a name keeps its capital.
    expect(ask(field("Child's name"), [fact('name', "The child's first name and surname")])).toContain("the child's name?");
    expect(ask(field("Child's name"), [fact('name', "The child's first name and surname")])).toContain(
      'Please give both the first and last name.',
    );
    // The respondent's own, named by their role, is theirs.
    expect(ask(field("Applicant's full name"), [fact('name', "Applicant's full name")])).toContain('Could you tell me your full name?');
    // A noun phrase label with a question-clause fact is asked by the clause.
    expect(ask(field('Days per week attending'), [fact('days', 'How many days a week the child attends')])).toContain(
      'Could you tell me how many days a week the child attends?',
    );
  });

  it('asks for "Number of …" as the number, not as "your number of …"', () => {
    const text = ask(field('Number of attendees'), [fact('attendee_count', 'The number of people attending')]);
    expect(text).toContain('Could you tell me the number of attendees?');
    expect(text).not.toMatch(/your number/i);
  });

  it('embeds a label that is a clause in the question', () => {
    const text = ask(field('What you hope to get out of the meetup'), []);
    expect(text).toContain('Could you tell me what you hope to get out of the meetup?');
    expect(text).not.toMatch(/^What you hope/m);
  });

  it('keeps a label that is already a question, adding a missing question mark', () => {
    const asked = ask(field('Why do you want to join?'), []);
    expect(asked).toContain('Why do you want to join?');
    expect(asked).not.toContain('Could you tell me');
    expect(ask(field('What is your name'), [])).toContain('What is your name?');
    expect(ask(field('志望動機は何ですか'), [], 'ja')).toContain('志望動機は何ですか？');
    expect(ask(field('志望動機は何ですか'), [], 'ja')).not.toContain('教えていただけますか');
  });

  it('says an instruction politely and asks "Any …" as a question', () => {
    expect(ask(field('Describe your experience'), [])).toContain('Please describe your experience.');
    expect(ask(field('Any dietary restrictions'), [])).toContain('Do you have any dietary restrictions?');
  });

  it('asks for the single fact instead of the label when it only adds to the label', () => {
    expect(ask(field('Dietary requirements'), [fact('dietary', 'Dietary requirements or allergies')])).toContain(
      'Could you tell me your dietary requirements or allergies?',
    );
    expect(ask(field('食事の制限'), [fact('dietary', '食事の制限やアレルギー')], 'ja')).toContain(
      '食事の制限やアレルギーを教えていただけますか？',
    );
  });

  it('never pastes a label in the other language: asks by the kind of value, or for the next item', () => {
    const en = ask(field('氏名'), []);
    expect(en).toContain('Could you tell me the name?');
    expect(en).not.toMatch(/\p{Script=Han}/u);
    expect(ask(field('Full name'), [], 'ja')).toContain('お名前を教えていただけますか？');
    expect(ask(field('Email address'), [], 'ja')).toContain('メールアドレスを教えていただけますか？');
    const choice = ask(field('T-shirt size (S/M/L/XL)'), [], 'ja');
    expect(choice).toContain('「S」、「M」、「L」、「XL」のいずれかでお答えください。');
    expect(choice).not.toMatch(/T-shirt/);
    const free = ask(field('Volunteering experience', { intent: 'Contact the volunteer' }), [], 'ja');
    expect(free).toContain('次の項目について');
    expect(free).not.toMatch(/Contact|Volunteering/);
  });

  it('lists the options of a choice and uses the session language', () => {
    expect(ask(field('T-shirt size (S/M/L/XL)'), [])).toContain('Please answer with one of: S, M, L, XL.');
    expect(ask(field('希望時間帯（午前・午後・夜間）'), [], 'ja')).toContain('「午前」、「午後」、「夜間」のいずれかでお答えください。');
  });

  it('opens the first question differently from the next ones, on the same line as the question', () => {
    const args = { field: field('Email'), facts: [], language: 'en' as const };
    expect(questionText({ ...args, isFirst: true })).toMatch(/^Let's start with the first question\. Could you tell me your email\?/);
    expect(questionText({ ...args, isFirst: false })).toMatch(/^Thank you! Next question: Could you tell me your email\?/);
    expect(questionText({ ...args, language: 'ja', isFirst: true })).toMatch(/^それでは、最初の質問です。メールアドレスを/);
    expect(ask(field('参加人数'), [], 'ja')).toMatch(/^ありがとうございます。次に、参加人数を教えていただけますか？/);
  });

  it('gives the intent as one short line of context, not as a "Purpose:" label', () => {
    const en = ask(field('Number of attendees', { intent: 'Reserve enough seats' }), [
      fact('attendee_count', 'The number of people attending', 'Include yourself'),
    ]);
    const lines = en.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe("We'll use it to reserve enough seats. Please include yourself.");
    expect(en).not.toMatch(/Purpose|Hint|Please include:/);
    const ja = ask(
      field('参加人数', { intent: '必要な席数を確保する' }),
      [fact('attendee_count', '参加する人数', 'ご本人を含めてください')],
      'ja',
    );
    expect(ja.split('\n')[1]).toBe('必要な席数を確保するためにお伺いしています。ご本人を含めてください。');
    expect(ja).not.toMatch(/目的|ヒント|次の点/);
  });

  it('turns the intent to the respondent and reads a noun or -ing intent as "for"', () => {
    expect(ask(field('Motivation', { intent: 'Understand why the respondent applied' }), [])).toContain(
      "We'll use it to understand why you applied.",
    );
    expect(ask(field('Number of guests', { intent: 'Catering' }), [])).toContain("We'll use it for catering.");
    expect(ask(field('Team', { intent: 'Matching mentors' }), [])).toContain("We'll use it for matching mentors.");
    expect(ask(field('Date of birth', { intent: 'Used to check the age group' }), [])).toContain("We'll use it to check the age group.");
    expect(ask(field('Address', { intent: 'Needed for billing' }), [])).toContain("We'll use it for billing.");
    expect(ask(field('参加人数', { intent: '席数の確保' }), [], 'ja')).toContain('席数の確保のためにお伺いしています。');
  });

  it('leaves out a hint that only repeats the intent, and one meant for the interviewer', () => {
    const en = ask(field('Email address', { intent: 'Send the ticket and updates' }), [
      fact('email', 'A valid email address', 'We send the ticket there'),
    ]);
    expect(en).not.toContain('We send the ticket there');
    expect(en).toContain("We'll use it to send the ticket and updates.");
    const ja = ask(
      field('メールアドレス', { intent: '参加チケットと連絡を送る' }),
      [fact('email', '有効なメールアドレス', 'チケットを送ります')],
      'ja',
    );
    expect(ja).not.toContain('チケットを送ります');
    expect(ask(field('Start date'), [fact('start', 'Preferred start date', 'Ask whether they are flexible')])).not.toContain('Ask');
    // Written about the respondent in the third person, or telling the interviewer what to do, anywhere in the hint.
    const gpa = ask(field('Unweighted GPA (4.0 scale)'), [
      fact('gpa', 'Unweighted GPA', 'If they only know a weighted GPA, ask again for the unweighted one'),
    ]);
    expect(gpa).not.toContain('weighted GPA, ask');
    const income = ask(
      field('主な所得の種類'),
      [fact('income', '主な所得の種類', '複数ある場合は、金額がいちばん大きいものを選んでもらう')],
      'ja',
    );
    expect(income).not.toContain('選んでもらう');
    // A note to the staff in a plain verb form is theirs; a polite line is the respondent's.
    const species = ask(field('動物の種類'), [fact('species', '動物の種類', '犬種・猫種を言われたら大きな分類で記録する')], 'ja');
    expect(species).not.toContain('記録する');
    const amount = ask(field('損害額の見込み'), [fact('amount', '損害額の見込み', '幅でのご回答でも構いません')], 'ja');
    expect(amount).toContain('幅でのご回答でも構いません');
  });

  it('names several facts in one sentence, addressed to the respondent, and a single fact not at all', () => {
    const en = ask(field('What you hope to get out of the meetup'), [
      fact('goal', 'What the attendee wants to learn'),
      fact('background', "The attendee's current role or background"),
    ]);
    expect(en).toContain('Please mention what you want to learn and your current role or background.');
    expect(en).not.toMatch(/attendee|•/);
    const ja = ask(field('勉強会で得たいこと'), [fact('goal', '学びたいテーマ'), fact('background', '現在の職業や経歴')], 'ja');
    expect(ja).toContain('学びたいテーマと現在のご職業やご経歴にも触れていただけると助かります。');
    expect(ja).not.toContain('・');
    expect(ask(field('Full name'), [fact('full_name', "The attendee's full name")])).not.toMatch(/mention|attendee/);
  });

  it('includes a hint that adds something', () => {
    const text = ask(field('志望動機'), [fact('reason', '当社を志望する理由', '具体的なエピソードがあれば添えてください')], 'ja');
    expect(text).toContain('具体的なエピソードがあれば添えてください。');
  });

  it('says what format a typed value is expected in', () => {
    expect(ask(field('入社可能日'), [fact('start', '入社可能日')], 'ja')).toContain('2025年4月1日');
    expect(ask(field('Full name'), [fact('full_name', "The attendee's full name")])).toContain('first and last name');
  });

  it('says an optional question may be skipped, and a required one does not', () => {
    const optional = ask(field('Comments', { required: false }), []);
    expect(optional).toContain('optional');
    expect(optional).toContain('skip');
    expect(ask(field('備考', { required: false }), [], 'ja')).toContain('任意');
    expect(ask(field('備考', { required: false }), [], 'ja')).toContain('スキップ');
    expect(ask(field('Comments'), [])).not.toContain('optional');
  });

  it("speaks polite Japanese (です/ます) in a Japanese session, with honorifics on the respondent's things", () => {
    const text = ask(field('氏名'), [fact('name', '氏名')], 'ja', true);
    expect(text).toMatch(/です。|ます|ください/);
    expect(text).not.toMatch(/Could you|Please/);
    expect(ask(field('住所'), [], 'ja')).toContain('ご住所を教えていただけますか？');
  });
});

describe('followUpText', () => {
  const motivation = (facts: FactDefinition[]) => ({ ...field('What you hope to get out of the meetup'), facts });
  const enFacts = [fact('goal', 'What the attendee wants to learn'), fact('background', "The attendee's current role or background")];
  const jaFacts = [fact('goal', '学びたいテーマ'), fact('background', '現在の職業や経歴')];
  // The reviewer's findings, as data; `note` is its sentence for the respondent (any wording).
  const missing = (description: string, reason: MissingReason, more: Partial<MissingFact> = {}): MissingFact => ({
    fact: description,
    reason,
    kind: 'text',
    heard: null,
    options: [],
    note: null,
    ...more,
  });

  it('thanks and asks "also" for a missing part, naming it with "your" instead of repeating the reviewer', () => {
    const text = followUpText({
      field: motivation(enFacts),
      missing: [
        missing("The attendee's current role or background", 'absent', {
          note: "No answer yet about: The attendee's current role or background.",
        }),
      ],
      notice: null,
      language: 'en',
    });
    expect(text).toBe('Thanks! Could you also tell me about your current role or background?');
    const ja = followUpText({
      field: { ...field('勉強会で得たいこと'), facts: jaFacts },
      missing: [missing('現在の職業や経歴', 'absent', { note: '「現在の職業や経歴」についてまだ回答がありません。' })],
      notice: null,
      language: 'ja',
    });
    expect(ja).toBe('ありがとうございます。あわせて、現在のご職業やご経歴についても教えていただけますか？');
  });

  it('names every missing fact, each turned to the respondent', () => {
    const text = followUpText({
      field: field('Motivation'),
      missing: enFacts.map((f) => missing(f.fact, 'absent')),
      notice: null,
      language: 'en',
    });
    expect(text).toContain('what you want to learn');
    expect(text).toContain('your current role or background');
    expect(text).not.toMatch(/attendee|No answer yet/);
    const ja = followUpText({
      field: field('志望動機'),
      missing: [missing('志望理由', 'absent'), missing('入社後に挑戦したいこと', 'absent')],
      notice: null,
      language: 'ja',
    });
    expect(ja).toMatch(/^ありがとうございます。/);
    expect(ja).toContain('志望理由');
    expect(ja).toContain('入社後に挑戦したいこと');
    expect(ja).not.toContain('・');
  });

  it('passes on the note about an invalid value first, then asks again', () => {
    const emailField = { ...field('Email address'), facts: [fact('email', 'A valid email address')] };
    const text = followUpText({
      field: emailField,
      missing: [
        missing('A valid email address', 'invalid', { kind: 'email', heard: 'jane@', note: "The email address 'jane@' is not valid." }),
      ],
      notice: null,
      language: 'en',
    });
    expect(text).toMatch(/^The email address 'jane@' is not valid\. Could you please tell me a valid email address\?$/);
    const ja = followUpText({
      field: { ...field('メールアドレス'), facts: [fact('email', '有効なメールアドレス')] },
      missing: [
        missing('有効なメールアドレス', 'invalid', {
          kind: 'email',
          heard: 'taro@',
          note: 'メールアドレス「taro@」の形式が正しくありません。',
        }),
      ],
      notice: null,
      language: 'ja',
    });
    expect(ja).toMatch(/^メールアドレス「taro@」の形式が正しくありません。/);
    expect(ja).toContain('有効なメールアドレスを教えていただけますか？');
  });

  it('passes on the notice that a required question needs an answer, without the note that nothing was found', () => {
    const ja = followUpText({
      field: { ...field('参加人数'), facts: [fact('attendee_count', '参加する人数')] },
      missing: [missing('参加する人数', 'not_found', { kind: 'number', note: '回答に数値が見つかりませんでした。' })],
      notice: { code: 'required_approximate_ok', text: 'この質問は必須です。おおよそで構いませんので、お答えください。' },
      language: 'ja',
    });
    expect(ja).toMatch(/^この質問は必須です。/);
    expect(ja).not.toContain('見つかりませんでした');
    expect(ja).toContain('参加する人数を教えていただけますか？');
  });

  it('apologises instead of thanking when nothing usable was found, naming the kind of value', () => {
    const text = followUpText({
      field: { ...field('Email address'), facts: [fact('email', 'A valid email address')] },
      missing: [missing('A valid email address', 'not_found', { kind: 'email', note: 'No email address was found in the answer.' })],
      notice: null,
      language: 'en',
    });
    expect(text).toMatch(/^Sorry, I couldn't find an email address in your answer\./);
    expect(text).not.toContain('Thanks');
    expect(text).not.toContain(' also ');
  });

  it('asks for a little more about a fact the reviewer found too brief', () => {
    const text = followUpText({
      field: motivation(enFacts),
      missing: [
        missing('What the attendee wants to learn', 'too_brief', {
          heard: 'stuff',
          note: "The answer 'stuff' is too brief for: What the attendee wants to learn.",
        }),
      ],
      notice: null,
      language: 'en',
    });
    expect(text).toBe('Thanks! Could you tell me a little more about what you want to learn?');
  });

  it('asks for the missing fact when the reviewer wrote no sentence about it', () => {
    const text = followUpText({ field: field('Email'), missing: [missing('Email address', 'absent')], notice: null, language: 'en' });
    expect(text).toContain('Could you tell me your email address?');
  });

  it('reminds that an optional question may be skipped, once', () => {
    const text = followUpText({
      field: field('Hobbies', { required: false }),
      missing: [missing('Hobbies', 'absent')],
      notice: null,
      language: 'en',
    });
    expect(text).toContain('skip');
    const hinted = followUpText({
      field: field('Hobbies', { required: false }),
      missing: [missing('Hobbies', 'absent')],
      notice: { code: 'optional_may_skip', text: 'This question is optional, so it can also be skipped.' },
      language: 'en',
    });
    expect(hinted.match(/optional/g)).toHaveLength(1);
  });
});

describe('toRespondent', () => {
  it('turns reviewer wording into words for the respondent', () => {
    expect(toRespondent("The respondent's current role.", 'en')).toBe('your current role');
    expect(toRespondent("The attendee's current role or background", 'en')).toBe('your current role or background');
    expect(toRespondent('What the attendee wants to learn', 'en')).toBe('What you want to learn');
    expect(toRespondent('What the customer has noticed about the car', 'en')).toBe('What you have noticed about the car');
    expect(toRespondent('Name of the pet owner', 'en')).toBe('Name of the pet owner');
    expect(toRespondent('Whether the respondent has used Python', 'en')).toBe('Whether you have used Python');
    expect(toRespondent('回答者の経験年数', 'ja')).toBe('ご自身の経験年数');
    expect(toRespondent('参加者の氏名', 'ja')).toBe('ご自身の氏名');
  });

  it('leaves a role word used as a noun modifier alone', () => {
    expect(toRespondent('User name', 'en')).toBe('User name');
    expect(toRespondent('Attendee count', 'en')).toBe('Attendee count');
  });
});

describe('closing phrasing', () => {
  it('summarises every field and says the answers are ready to submit', () => {
    const summary = [
      { label: 'Name', value: 'Taro Yamada', status: 'done' },
      { label: 'Motivation', value: 'Great team\nInteresting product', status: 'done' },
      { label: 'Comments', value: null, status: 'skipped' },
    ];
    const en = completionText('en', summary);
    expect(en).toContain('• Name: Taro Yamada');
    expect(en).toContain('• Motivation: Great team / Interesting product');
    expect(en).toContain('• Comments: (skipped)');
    expect(en).toContain('ready to submit');
    expect(en).toContain('Submit');
    const ja = completionText('ja', summary);
    expect(ja).toContain('・項目3：（スキップ）');
    expect(ja).not.toContain('Comments');
    expect(ja).toContain('送信の準備が整いました');
    expect(ja).toContain('「送信」');
  });

  it('shows values as the acknowledgements did: compound shapes readable, yes and no in the session language', () => {
    const summary = [
      { label: '届出はお済みですか', value: 'no', status: 'done' },
      { label: '利用時間', value: '18:00/21:00', status: 'done' },
      { label: '損害額', value: '50000/80000', status: 'done' },
    ];
    const ja = completionText('ja', summary);
    expect(ja).toContain('・届出はお済みですか：いいえ');
    expect(ja).toContain('・利用時間：18:00〜21:00');
    expect(ja).toContain('・損害額：50000/80000');
    expect(completionText('en', [{ label: 'Window', value: '13:00/15:00', status: 'done' }])).toContain('• Window: 13:00–15:00');
  });

  it('does not offer corrections, which are not supported after completion', () => {
    const summary = [{ label: 'Name', value: 'Taro Yamada', status: 'done' }];
    expect(completionText('en', summary)).not.toMatch(/change anything|let me know/i);
    expect(completionText('ja', summary)).not.toMatch(/修正|お知らせください/);
  });

  it('replies politely after completion', () => {
    expect(alreadyCompleteText('ja')).toContain('完了');
    expect(alreadyCompleteText('en')).toContain('already');
  });
});

describe('the form speaking of the respondent, turned to them (issue 33)', () => {
  const ask = (label: string, intent: string | null, fact: string, language: 'en' | 'ja') =>
    questionText({
      field: { label, intent, required: true },
      facts: [{ factKey: 'x', fact, doneCriteria: '', questioningHints: null }],
      language,
      isFirst: false,
    });
  it('keeps a role word that modifies a noun, says an intent that restates the value as a description, drops a role before a noun', () => {
    expect(ask('Full name', 'Identify the attendee on the guest list', 'Full name', 'en')).toContain(
      "We'll use it to identify you on the guest list.",
    );
    expect(ask('Order #', 'Order number from the packing slip (ORD- and 5 digits)', 'The order number', 'en')).toContain(
      "It's the order number from the packing slip (ORD- and 5 digits).",
    );
    expect(ask('申込者氏名', null, '申込者の氏名', 'ja')).toContain('氏名を教えていただけますか？');
    expect(ask('申込者氏名', null, '申込者の氏名', 'ja')).not.toContain('申込者');
    expect(ask('動物の種類', '犬・猫・うさぎ・その他のどれか', 'ペットの種類', 'ja')).not.toContain('ためにお伺いしています');
  });
});
