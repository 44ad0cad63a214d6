import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreateSessionInput } from '@convo/client';
import type { SessionKind } from './options.js';

/** What one kind of session sends: its POST /v1/sessions body and its user messages. */
export interface Scenario {
  kind: SessionKind;
  createBody: CreateSessionInput;
  /** Interview sessions start with a greeting run that ends before the first user turn. */
  hasGreeting: boolean;
  /** The user message of turn `index` (0-based); any index gives a message. */
  message(index: number): string;
}

const FORMS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'forms');

/**
 * Answers that move the offline agents along: the greeter's language and
 * country questions first, then one answer per field in the form's plan
 * order (plus the follow-up the offline reviewer asks for when an answer
 * covers only one of a field's facts). After the last the field answers
 * repeat: the interview is done by then, but every turn still runs through
 * the agents, which is all that is measured.
 */
const BOOTSTRAP = ['English', 'I live in Tokyo, Japan'];

/** examples/forms/event-registration-en.json: full_name, email, attendees, motivation (goal, then background), dietary_notes. */
const FORM_ANSWERS = [
  'Jane Doe',
  'jane@example.com',
  '2',
  'I want to learn about queues, I am a backend engineer',
  'I work as a backend engineer at a logistics company',
  'No dietary requirements',
];

/** examples/forms/engineer-application-en.json: full_name, email, experience_years, motivation, start_date, portfolio. */
const APPLICATION_ANSWERS = [
  'Jane Doe',
  'jane@example.com',
  '7 years',
  'I want to build reliable distributed systems with a team that cares about them',
  'April 1, 2027',
  'https://github.com/janedoe',
];

/** Questions the sample e-commerce FAQ corpus answers, Japanese and English, with a follow-up. */
const FAQ_QUESTIONS = [
  '北海道への送料を教えてください',
  'What is your return policy?',
  'じゃあ返品ポリシーも知りたい',
  'How much does shipping to Canada cost?',
  'ギフトラッピングはできますか？',
  'Can I get a receipt for my order?',
  '支払い方法は何がありますか？',
  'What are the membership benefits?',
];

/** The scenario of `kind`; reads the example form once. */
export function scenarioFor(kind: SessionKind): Scenario {
  switch (kind) {
    case 'form':
      return interview(kind, 'event-registration-en.json', FORM_ANSWERS);
    case 'application':
      return interview(kind, 'engineer-application-en.json', APPLICATION_ANSWERS);
    case 'faq':
      return { kind, createBody: { kind: 'faq' }, hasGreeting: false, message: (i) => cycle(FAQ_QUESTIONS, i) };
  }
}

function interview(kind: SessionKind, formFile: string, answers: string[]): Scenario {
  // Read as the form it is; the gateway validates the body (a broken example shows as a 400 in the run's errors).
  const form = JSON.parse(readFileSync(resolve(FORMS_DIR, formFile), 'utf8')) as CreateSessionInput['form'];
  const scripted = [...BOOTSTRAP, ...answers];
  return {
    kind,
    createBody: { kind, form },
    hasGreeting: true,
    message: (i) => (i < scripted.length ? (scripted[i] as string) : cycle(answers, i - scripted.length)),
  };
}

function cycle(list: readonly string[], index: number): string {
  return list[index % list.length] as string;
}
