import { describe, expect, it } from 'vitest';
import { DEFAULT_HIRING_TOPICS, describeTopic, findTopicMentions, maskTopics, resolveTopics } from '@convo/forms';

const topics = resolveTopics(undefined);
const topicIds = (text: string) => [...new Set(findTopicMentions(text, topics).map((m) => m.topicId))];

describe('the built-in hiring topics', () => {
  it('cover the MHLW fair-recruitment list and the EEOC pre-employment inquiries, each labelled in both languages', () => {
    const bySource = (s: string) => DEFAULT_HIRING_TOPICS.filter((t) => t.source === s).map((t) => t.id);
    expect(bySource('mhlw')).toEqual([
      'birthplace',
      'family',
      'housing',
      'home_environment',
      'religion',
      'political_party',
      'life_philosophy',
      'respected_person',
      'beliefs',
      'social_movement',
      'reading',
    ]);
    expect(bySource('eeoc')).toEqual([
      'age',
      'race',
      'national_origin',
      'disability_health',
      'sex_gender',
      'marital_status',
      'children_family_planning',
      'genetic_information',
    ]);
    for (const topic of DEFAULT_HIRING_TOPICS) {
      expect(topic.label.en.length).toBeGreaterThan(0);
      expect(topic.label.ja).toMatch(/\p{Script=Han}|\p{Script=Katakana}/u);
    }
  });

  it('name religion as listed by both MHLW and the EEOC', () => {
    expect(describeTopic(DEFAULT_HIRING_TOPICS.find((t) => t.id === 'religion')!)).toBe('"religion" (MHLW, EEOC)');
  });
});

describe('findTopicMentions', () => {
  it.each([
    ['Are you married?', 'marital_status'],
    ['Do you have children?', 'children_family_planning'],
    ['What is your religion?', 'religion'],
    ['How old are you?', 'age'],
    ['Where were you born?', 'birthplace'],
    ['What is your date of birth?', 'age'],
    ['What do your parents do for a living?', 'family'],
    ['Do you own or rent your home?', 'housing'],
    ['Who do you live with?', 'home_environment'],
    ['Which political party do you support?', 'political_party'],
    ['What is your philosophy of life?', 'life_philosophy'],
    ['Who is the person you most respect?', 'respected_person'],
    ['What are your political views?', 'beliefs'],
    ['Have you ever been a member of a labor union?', 'social_movement'],
    ['Which newspapers do you read?', 'reading'],
    ['What is your favourite book?', 'reading'],
    ['What is your race?', 'race'],
    ['What is your nationality?', 'national_origin'],
    ['Are you a U.S. citizen?', 'national_origin'],
    ['Where are you originally from?', 'national_origin'],
    ['Do you have any disabilities?', 'disability_health'],
    ['Do you have any medical conditions we should know about?', 'disability_health'],
    ['What is your gender?', 'sex_gender'],
    ['What is your sexual orientation?', 'sex_gender'],
    ['Are you pregnant?', 'children_family_planning'],
    ['Do you plan to start a family soon?', 'children_family_planning'],
    ['Does your family have a history of genetic disorders?', 'genetic_information'],
    ['I am a devout Christian.', 'religion'],
    ['I was born in 1990.', 'age'],
    ['I was born in Osaka.', 'birthplace'],
    ['What holidays do you observe?', 'religion'],
    ['Is English your first language?', 'national_origin'],
    ['Are you over 40?', 'age'],
    ['Do you vote?', 'political_party'],
    ['Are you a parent?', 'children_family_planning'],
  ])('finds %j as %s', (text, id) => {
    expect(topicIds(text)).toContain(id);
  });

  it.each([
    ['ご結婚されていますか？', 'marital_status'],
    ['お子さんはいらっしゃいますか？', 'children_family_planning'],
    ['宗教は何ですか？', 'religion'],
    ['信仰をお持ちですか。', 'religion'],
    ['支持政党を教えてください。', 'political_party'],
    ['ご両親の職業は何ですか？', 'family'],
    ['持ち家ですか、賃貸ですか？', 'housing'],
    ['愛読書は何ですか？', 'reading'],
    ['購読している新聞を教えてください。', 'reading'],
    ['尊敬する人物は誰ですか？', 'respected_person'],
    ['本籍地はどちらですか？', 'birthplace'],
    ['出身地はどこですか？', 'birthplace'],
    ['年齢を教えてください。', 'age'],
    ['生年月日をご記入ください。', 'age'],
    ['妊娠のご予定はありますか？', 'children_family_planning'],
    ['持病はありますか？', 'disability_health'],
    ['障害はありますか？', 'disability_health'],
    ['人生観を聞かせてください。', 'life_philosophy'],
    ['家庭環境について教えてください。', 'home_environment'],
    ['労働組合に加入していましたか？', 'social_movement'],
    ['国籍はどちらですか？', 'national_origin'],
    ['性別を教えてください。', 'sex_gender'],
    ['あなたの思想を教えてください。', 'beliefs'],
    ['ご家族の病歴を教えてください。', 'genetic_information'],
  ])('finds %j as %s', (text, id) => {
    expect(topicIds(text)).toContain(id);
  });

  it.each([
    'How many years of experience do you have?',
    'Are you authorized to work in Japan?',
    'When can you start?',
    'Which city do you want to work in?',
    'What is your family name?',
    'Tell me about a race condition you fixed.',
    'How do you manage child processes in Node.js?',
    'Are you at least 18 years old?',
    'Can you perform the essential functions of this job with or without reasonable accommodation?',
    'Do you need visa sponsorship?',
    'My name is Christian Müller.',
    'Are you over 18?',
    'We have a family-friendly culture and a parent company in Osaka.',
    'What are you expecting from this role?',
    'Have you ever implemented a genetic algorithm?',
    "Thank you! I've set your country to Japan and your time zone to Asia/Tokyo.",
  ])('does not flag the lawful question %j', (text) => {
    expect(topicIds(text)).toEqual([]);
  });

  it.each([
    '障害対応の経験はありますか？',
    'システム障害が発生したときの対応を教えてください。',
    'このシステムの設計思想を教えてください。',
    '工夫した点を教えてください。',
    '大丈夫です。',
    'ご出身大学はどちらですか？',
    '在留資格をお持ちですか？',
    'ありがとうございます。お住まいの国を日本、タイムゾーンをAsia/Tokyoに設定しました。',
    '子ども向けの教育アプリを開発しました。',
    '手術支援ロボットの開発経験はありますか？',
    '家庭用ゲーム機の開発経験はありますか？',
    'デモを作成した経験はありますか？',
  ])('does not flag the lawful Japanese text %j', (text) => {
    expect(topicIds(text)).toEqual([]);
  });

  it('reports where each mention is in the original text, full-width letters included', () => {
    const text = 'Hi. ＲＥＬＩＧＩＯＮ?';
    const [mention] = findTopicMentions(text, topics);
    expect(mention).toMatchObject({
      topicId: 'religion',
      label: { en: 'religion', ja: '宗教' },
      match: 'ＲＥＬＩＧＩＯＮ',
      start: 4,
      end: 12,
    });
    expect(text.slice(mention!.start, mention!.end)).toBe(mention!.match);
  });

  it('reports each topic once per place, and every topic a phrase touches', () => {
    expect(
      findTopicMentions('ご家族の病歴を教えてください。', topics)
        .map((m) => m.topicId)
        .sort(),
    ).toEqual(['disability_health', 'family', 'genetic_information']);
    expect(findTopicMentions('Are you married? Are you married?', topics).map((m) => m.start)).toEqual([8, 25]);
  });
});

describe('resolveTopics', () => {
  it('returns the built-in topics when the form names none', () => {
    expect(resolveTopics(undefined).map((t) => t.id)).toEqual(DEFAULT_HIRING_TOPICS.map((t) => t.id));
    expect(resolveTopics([])).toHaveLength(DEFAULT_HIRING_TOPICS.length);
  });

  it('maps entries naming a built-in topic, in either language or by id, to that topic without adding any', () => {
    const resolved = resolveTopics([
      'religion',
      'family',
      'birthplace',
      '宗教',
      '家族',
      '本籍',
      'Marital_Status',
      'marital status',
      '年齢',
    ]);
    expect(resolved).toHaveLength(DEFAULT_HIRING_TOPICS.length);
  });

  it('turns any other entry into a literal keyword topic from the form, once', () => {
    const resolved = resolveTopics(['criminal record', 'Criminal Record', '前科']);
    const added = resolved.slice(DEFAULT_HIRING_TOPICS.length);
    expect(added.map((t) => ({ id: t.id, source: t.source }))).toEqual([
      { id: 'form:criminal record', source: 'form' },
      { id: 'form:前科', source: 'form' },
    ]);
    expect(findTopicMentions('Do you have any criminal records?', resolved).map((m) => m.match)).toEqual(['criminal records']);
    expect(findTopicMentions('前科はありますか？', resolved).map((m) => m.topicId)).toEqual(['form:前科']);
    expect(describeTopic(added[0]!)).toBe('"criminal record" (form)');
  });

  it('matches an English form keyword as whole words only', () => {
    const resolved = resolveTopics(['salary history']);
    expect(findTopicMentions('What is your salary history?', resolved).map((m) => m.topicId)).toContain('form:salary history');
    expect(findTopicMentions('What salary historyless range?', resolved).map((m) => m.topicId)).not.toContain('form:salary history');
  });
});

describe('maskTopics', () => {
  it('masks the clause about the topic and keeps the rest of the answer', () => {
    expect(maskTopics('I go to church every Sunday, and I have 5 years of Go experience', topics)).toBe(
      '[redacted], and I have 5 years of Go experience',
    );
    expect(maskTopics("I'm married and I have 5 years of Go.", topics)).toBe('[redacted] and I have 5 years of Go.');
  });

  it('masks whole sentences and merges neighbouring masked clauses into one mask', () => {
    const text = 'I am a devout Christian and go to church every Sunday. I want to build reliable payment systems.';
    expect(maskTopics(text, topics, 'en')).toBe('[redacted]. I want to build reliable payment systems.');
    expect(maskTopics('I am married, I have two kids, and I like Go.', topics)).toBe('[redacted], and I like Go.');
  });

  it('masks Japanese clauses with the Japanese mask', () => {
    expect(maskTopics('毎週教会に通っていて、Goの経験が5年あります。', topics)).toBe('［非開示］、Goの経験が5年あります。');
    expect(maskTopics('妻と子どもが二人います。バックエンド開発は7年です。', topics)).toBe('［非開示］。バックエンド開発は7年です。');
  });

  it('does not cut inside numbers, email addresses or domains', () => {
    expect(maskTopics('My email is jane.doe@example.com. I pray daily.', topics)).toBe('My email is jane.doe@example.com. [redacted].');
    expect(maskTopics('I earned 1,000 dollars at church', topics)).toBe('[redacted]');
  });

  it('uses the session language or a given mask instead of the text’s script', () => {
    expect(maskTopics('I am married.', topics, 'ja')).toBe('［非開示］.');
    expect(maskTopics('I am married.', topics, 'en', '***')).toBe('***.');
  });

  it('returns text without mentions unchanged', () => {
    const text = 'I have 5 years of Go experience, mostly on payment systems.';
    expect(maskTopics(text, topics)).toBe(text);
  });
});
