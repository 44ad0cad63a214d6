import type { PlanLanguage } from './types.js';

/** The clarifying questions, one generic template per case and language; the choices come from the corpus. */

export function askWhatAbout(language: PlanLanguage): string {
  return language === 'ja' ? 'どのようなことについてお知りになりたいですか？' : 'What would you like to know about?';
}

export function askWhichFacetValue(language: PlanLanguage, key: string, values: string[]): string {
  return language === 'ja'
    ? `${key}によってご案内が異なります。どの${key}についてですか？（${values.join('、')}）`
    : `The answer depends on the ${key}. Which ${key}: ${values.join(', ')}?`;
}

export function askWhichTopic(language: PlanLanguage, term: string, topics: string[]): string {
  return language === 'ja'
    ? `「${term}」について、どの内容をお知りになりたいですか？（${topics.join('、')}）`
    : `What would you like to know about "${term}": ${topics.join(', ')}?`;
}

export function askWhichEntry(language: PlanLanguage, questions: string[]): string {
  return language === 'ja'
    ? `次のどちらについてお知りになりたいですか？（${questions.join('／')}）`
    : `Which of these do you mean: ${questions.join(' / ')}?`;
}
