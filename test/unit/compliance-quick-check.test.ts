import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type MissingFact, quickCheck, type QuickCheckInput, resolveTopics } from '@convo/forms';
import { followUpText, questionText } from '../../services/interviewer/src/phrasing.js';
import { SessionForm } from '@convo/contract';

const topics = resolveTopics(['criminal record']);

const EN = {
  full_name: { fieldId: 'full_name', label: 'Full name', intent: 'Identify the applicant', required: true },
  email: { fieldId: 'email', label: 'Contact email', intent: 'Contact the applicant about the application', required: true },
  experience: {
    fieldId: 'experience_years',
    label: 'Years of backend experience',
    intent: 'Check the experience the role needs',
    required: true,
  },
  motivation: { fieldId: 'motivation', label: 'Why you want to join us', intent: "Understand the applicant's motivation", required: true },
};
const EN_FACTS: Record<string, string[]> = {
  full_name: ["The applicant's full name"],
  email: ['A valid email address'],
  experience_years: ['The number of years of backend experience'],
  motivation: ['Why the applicant wants this role', 'What the applicant would contribute to the team'],
};
const JA = {
  full_name: { fieldId: 'full_name', label: '氏名', intent: '応募者を確認する', required: true },
  experience: { fieldId: 'experience_years', label: 'バックエンド開発の経験年数', intent: '職務に必要な経験を確認する', required: true },
  motivation: { fieldId: 'motivation', label: '志望動機', intent: '応募の動機を理解する', required: true },
  start: { fieldId: 'start_date', label: '入社可能日', intent: '入社準備を計画する', required: true },
};
const JA_FACTS: Record<string, string[]> = {
  full_name: ['応募者の氏名'],
  experience_years: ['バックエンド開発の経験年数'],
  motivation: ['この職種を志望する理由', 'チームに貢献できること'],
  start_date: ['入社可能な日付'],
};

type Field = QuickCheckInput['field'];

function check(question: string, field: Field, opts: { language?: 'ja' | 'en'; answered?: Field[] } = {}) {
  const language = opts.language ?? 'en';
  const factsOf = language === 'ja' ? JA_FACTS : EN_FACTS;
  return quickCheck({
    question,
    language,
    field,
    facts: (factsOf[field.fieldId] ?? []).map((fact, i) => ({ factKey: `k${i}`, fact, doneCriteria: '', questioningHints: null })),
    answered: (opts.answered ?? []).map((f) => ({ fieldId: f.fieldId, label: f.label, facts: factsOf[f.fieldId] ?? [] })),
    topics,
  });
}

const types = (r: ReturnType<typeof quickCheck>) => r.violations.map((v) => v.type);
const absent = (fact: string): MissingFact => ({ fact, reason: 'absent', kind: 'text', heard: null, options: [], note: null });
const CLOSING: Field = { fieldId: '', label: '', intent: null, required: false };

describe('quickCheck on the offline interviewer’s own questions', () => {
  it.each(['en', 'ja'] as const)('passes every question, rephrasing and follow-up of the %s example application', (language) => {
    const form = SessionForm.parse(
      JSON.parse(readFileSync(new URL(`../../examples/forms/engineer-application-${language}.json`, import.meta.url), 'utf8')),
    );
    const answered: QuickCheckInput['answered'] = [];
    form.fields.forEach((field, i) => {
      const facts = form.facts.filter((k) => k.formFieldId === field.id);
      const questions = [
        questionText({ field: { ...field, facts }, facts, language, isFirst: i === 0 }),
        questionText({ field: { ...field, intent: null, facts: [] }, facts: [], language, isFirst: false }),
        followUpText({ field: { ...field, facts }, missing: facts.map((k) => absent(k.fact)), notice: null, language }),
        ...facts.slice(1).map((k) => followUpText({ field: { ...field, facts }, missing: [absent(k.fact)], notice: null, language })),
      ];
      for (const question of questions) {
        const result = quickCheck({ question, language, field, facts, answered, topics: resolveTopics(form.compliance?.prohibitedTopics) });
        expect(result, question).toEqual({ passed: true, violations: [] });
      }
      answered.push({ fieldId: field.fieldId, label: field.label, facts: facts.map((k) => k.fact) });
    });
  });
});

describe('prohibited_topic', () => {
  it('names the topic, its source and the words found', () => {
    const result = check('Are you married?', EN.full_name);
    expect(result.passed).toBe(false);
    expect(result.violations).toContainEqual({ type: 'prohibited_topic', message: 'prohibited topic "marital status" (EEOC): "married"' });
  });

  it('catches Japanese questions on MHLW topics', () => {
    const result = check('ご両親の職業を教えていただけますか？', JA.full_name, { language: 'ja' });
    expect(result.violations).toContainEqual({
      type: 'prohibited_topic',
      message: 'prohibited topic "family (occupation, relationship, health, status, education, income, assets)" (MHLW): "両親"',
    });
  });

  it('reports a topic on both lists with both sources, and a form’s own keyword as from the form', () => {
    expect(check('What is your religion?', EN.full_name).violations).toContainEqual({
      type: 'prohibited_topic',
      message: 'prohibited topic "religion" (MHLW, EEOC): "religion"',
    });
    expect(check('Do you have a criminal record?', EN.full_name).violations).toContainEqual({
      type: 'prohibited_topic',
      message: 'prohibited topic "criminal record" (form): "criminal record"',
    });
  });

  it('applies to the closing message too', () => {
    expect(types(check('Thanks! By the way, do you have kids?', CLOSING))).toEqual(['prohibited_topic']);
  });

  it('passes lawful questions that share words with a topic', () => {
    expect(types(check('How many years of backend experience do you have?', EN.experience))).toEqual([]);
    expect(types(check('障害対応の経験を教えていただけますか？', JA.experience, { language: 'ja' }))).toEqual([]);
  });
});

describe('duplicate_question', () => {
  it('flags a question asking again for an answered field', () => {
    const result = check('Could you tell me your full name again?', EN.email, { answered: [EN.full_name] });
    expect(types(result)).toContain('duplicate_question');
    expect(result.violations.find((v) => v.type === 'duplicate_question')!.message).toBe(
      'asks again for "Full name" of the answered field "Full name" (full_name): shares "full", "name"',
    );
  });

  it('flags a question for an answered field’s fact while another field is current', () => {
    const result = check('How many years of backend experience do you have?', EN.motivation, { answered: [EN.full_name, EN.experience] });
    expect(types(result)).toContain('duplicate_question');
    expect(result.violations.find((v) => v.type === 'duplicate_question')!.message).toContain(
      '"Years of backend experience" (experience_years)',
    );
  });

  it('does not flag a follow-up about the current field', () => {
    expect(
      types(
        check('Thanks! Could you also tell me what you would contribute to the team?', EN.motivation, {
          answered: [EN.full_name, EN.experience],
        }),
      ),
    ).toEqual([]);
  });

  it('does not flag a sentence that only acknowledges an earlier answer', () => {
    const question = 'Thanks for sharing your 7 years of backend experience! Could you tell me why you want to join us?';
    expect(types(check(question, EN.motivation, { answered: [EN.experience] }))).toEqual([]);
  });

  it('does not count words the current field also uses', () => {
    const frontend = { fieldId: 'frontend_years', label: 'Years of frontend experience', intent: null, required: true };
    expect(types(check('How many years of frontend experience do you have?', frontend, { answered: [EN.experience] }))).toEqual([]);
  });

  it('flags Japanese re-asks and passes the question for the current field', () => {
    expect(types(check('氏名をもう一度教えていただけますか？', JA.start, { language: 'ja', answered: [JA.full_name] }))).toContain(
      'duplicate_question',
    );
    expect(types(check('バックエンド開発のご経験は何年ですか？', JA.motivation, { language: 'ja', answered: [JA.experience] }))).toContain(
      'duplicate_question',
    );
    expect(
      types(
        check('入社可能日を教えていただけますか？', JA.start, { language: 'ja', answered: [JA.full_name, JA.experience, JA.motivation] }),
      ),
    ).toEqual([]);
  });

  it('does not apply to the closing message, which restates the answers', () => {
    expect(
      types(
        check('Thank you! Your full name and email are recorded. Please review and submit.', CLOSING, {
          answered: [EN.full_name, EN.email],
        }),
      ),
    ).toEqual([]);
  });
});

describe('tone_violation', () => {
  it.each([
    ['That is a stupid email address. Tell me your email.', 'rude or demeaning wording: "stupid"'],
    ['Are you serious? Tell me your email.', 'rude or demeaning wording: "Are you serious"'],
    ['Obviously you have an email. What is it?', 'rude or demeaning wording: "Obviously"'],
    ['Hurry up and tell me your email.', 'pressuring wording: "Hurry up"'],
    ['You must answer: what is your email?', 'pressuring wording: "You must answer"'],
    ['Email. Answer now.', 'pressuring wording: "Answer now"'],
    ['Gonna need your email, dude.', 'overly casual wording: "Gonna"'],
    ['WHAT IS YOUR EMAIL ADDRESS?', 'shouting: "WHAT IS YOUR EMAIL ADDRESS"'],
    ['Your email address!!', 'shouting: "!!"'],
    ['Seriously? What is your email?', 'rude or demeaning wording: "Seriously"'],
    ['Come on, what is your email?', 'rude or demeaning wording: "Come on"'],
  ])('flags %j', (question, message) => {
    expect(check(question, EN.email).violations).toContainEqual({ type: 'tone_violation', message });
  });

  it.each([
    ['お前の氏名は？', 'rude or demeaning wording: "お前"'],
    ['さっさと氏名を教えていただけますか？', 'pressuring wording: "さっさと"'],
    ['早く答えろ。氏名は？', 'pressuring wording: "早く答え"'],
    ['早く答えろ。氏名は？', 'rude or demeaning wording: "答えろ"'],
    ['バカでも書ける氏名を教えていただけますか？', 'rude or demeaning wording: "バカ"'],
    ['氏名を書け。', 'rude or demeaning wording: "書け"'],
    ['氏名教えて？', 'overly casual wording: "教えて"'],
    ['氏名を教えていただけますか？？', 'shouting: "？？"'],
    ['なんでわからないんですか？氏名を教えてください。', 'rude or demeaning wording: "なんでわからない"'],
    ['ちゃんと氏名を答えてください。', 'rude or demeaning wording: "ちゃんと氏名を答え"'],
  ])('flags the Japanese %j', (question, message) => {
    expect(check(question, JA.full_name, { language: 'ja' }).violations).toContainEqual({ type: 'tone_violation', message });
  });

  it.each([
    'Could you tell me your contact email? Thank you!',
    'Which email do you use with AWS, GCP or EKS?',
    'Could you start immediately, and what email should we use?',
    "The answer 'dunno lol' is too brief for your contact email. Could you tell me your email?",
    'Could you tell me about "Contact email"?',
    'How many times have you changed your contact email?',
    'We use lazy loading; could you tell me your contact email?',
  ])('passes the polite %j', (question) => {
    expect(types(check(question, EN.email)).filter((t) => t === 'tone_violation')).toEqual([]);
  });

  it.each([
    '氏名を教えていただけますか？',
    '氏名を書けますか？',
    'おもしろいと思った点と氏名を教えてください。',
    'ありがとうございます！次に、氏名を教えていただけますか？',
    '急ぎではありませんので、ご都合のよいときに氏名をお答えください。',
    'カスタマーサクセスでのご経験と氏名を教えてください。',
  ])('passes the polite Japanese %j', (question) => {
    expect(types(check(question, JA.full_name, { language: 'ja' })).filter((t) => t === 'tone_violation')).toEqual([]);
  });
});

describe('no_intent_binding', () => {
  it('flags a question sharing no keyword with the field, naming the field and the expected keywords', () => {
    const result = check('What is your favourite programming language?', EN.email);
    expect(types(result)).toEqual(['no_intent_binding']);
    expect(result.violations[0]!.message).toMatch(
      /^shares no keyword with the field "Contact email" \(email\); expected one of "contact", "email"/,
    );
  });

  it('accepts a synonym of the field’s words', () => {
    expect(types(check('Could you tell me your e-mail?', EN.email))).toEqual([]);
    expect(types(check('お名前を教えていただけますか？', JA.full_name, { language: 'ja' }))).toEqual([]);
  });

  it('flags a Japanese question about something else', () => {
    expect(types(check('ご趣味は何ですか？', JA.full_name, { language: 'ja' }))).toEqual(['no_intent_binding']);
  });

  it('is not checked for the closing message', () => {
    expect(check('Thank you for your answers. Please review them and submit your application.', CLOSING)).toEqual({
      passed: true,
      violations: [],
    });
  });
});

it('fails with every rule that applies and passes with none', () => {
  const result = check('HURRY UP AND TELL ME, ARE YOU MARRIED???', EN.email);
  expect(result.passed).toBe(false);
  expect(new Set(types(result))).toEqual(new Set(['prohibited_topic', 'tone_violation', 'no_intent_binding']));
  expect(check('Could you tell me your contact email?', EN.email, { answered: [EN.full_name] })).toEqual({ passed: true, violations: [] });
});
