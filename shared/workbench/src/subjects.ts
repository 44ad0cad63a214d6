/**
 * The subjects the offline generators cover, and the words that name them in
 * a request ("算数", "Math", "漢字の読み", "English vocabulary"…). With a
 * model, any subject goes; offline, another one is refused with this list.
 */
export const OFFLINE_SUBJECTS = {
  math: { ja: '算数・数学', en: 'Math', words: /math|arithmetic|algebra|geometry|算数|数学|計算|分数|方程式|割合|面積/i },
  kanji: { ja: '漢字の読み', en: 'Kanji readings', words: /kanji|漢字|読み|国語/i },
  english: { ja: '英単語', en: 'English vocabulary', words: /english|vocabulary|vocab|英語|英単語|単語/i },
} as const;

export type OfflineSubject = keyof typeof OFFLINE_SUBJECTS;

export function offlineSubject(subject: string): OfflineSubject | null {
  for (const [key, entry] of Object.entries(OFFLINE_SUBJECTS)) if (entry.words.test(subject)) return key as OfflineSubject;
  return null;
}

/** The subjects offered, named for a teacher in `language`. */
export function supportedSubjects(language: 'ja' | 'en'): string[] {
  return Object.values(OFFLINE_SUBJECTS).map((entry) => entry[language]);
}
