/**
 * The subjects the offline generators cover, and the words that name them in
 * a request ("算数", "Math", "漢字の読み", "English vocabulary"…). With a
 * model, any subject goes; offline, another one is refused with this list.
 */
export const OFFLINE_SUBJECTS = {
  math: {
    ja: '算数・数学',
    en: 'Math',
    words: /math|arithmetic|algebra|geometry|算数|数学|計算|分数|小数|方程式|割合|面積|体積|速さ|比例/i,
  },
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

/**
 * The topics a subject's generator honours, with the words that name them in
 * a request and their names for a teacher. Math has its nine kinds of
 * exercise; the kanji and vocabulary generators take no topic.
 */
export const MATH_TOPIC_NAMES = {
  fractions: { ja: '分数', en: 'fractions', words: /fraction|分数|約分|通分/i },
  percentages: { ja: '割合・百分率', en: 'percentages', words: /percent|%|割合|百分率|パーセント|割引/i },
  equations: { ja: '方程式', en: 'equations', words: /equation|algebra|方程式|一次|代数|linear/i },
  areas: { ja: '面積', en: 'areas', words: /area|面積|図形|geometry|shape/i },
  speed: { ja: '速さ', en: 'speed', words: /speed|distance|velocity|km\/h|速さ|速度|時速|分速|秒速|道のり|距離/i },
  ratio: { ja: '比と比例', en: 'ratio and proportion', words: /ratio|proportion|比例|比の|の比|比を|^比$/i },
  decimals: { ja: '小数', en: 'decimals', words: /decimal|小数/i },
  volume: { ja: '体積', en: 'volume', words: /volume|cuboid|cube|cylinder|体積|容積|直方体|立方体|円柱/i },
  unit_conversion: { ja: '単位の換算', en: 'unit conversion', words: /unit|conver|measure|metric|単位|換算/i },
} as const;

/**
 * The grade a kanji sheet's topic names (「2年生の漢字」, "grade 3", 「小4」, 「常用漢字」 → 8,
 * the 常用漢字 after elementary school), or null: a kanji sheet takes a school grade as its topic.
 */
export function kanjiGradeNamed(topic: string): number | null {
  const year = /([1-6])\s*年|小学?\s*([1-6])|grade\s*([1-6])|([1-6])(?:st|nd|rd|th)[- ]grade|year\s*([1-6])/i.exec(topic.normalize('NFKC'));
  if (year) return Number(year.slice(1).find((group) => group !== undefined));
  return /常用|中学|secondary|jōyō|joyo/i.test(topic) ? 8 : null;
}

/** The topics of `subject` offered, named for a teacher in `language` (none for a subject that takes no topic). */
export function offeredTopics(subject: OfflineSubject, language: 'ja' | 'en'): string[] {
  if (subject === 'kanji') return language === 'ja' ? ['1年生〜6年生の漢字', '常用漢字'] : ['grade 1 to 6 kanji', 'other jōyō kanji'];
  return subject === 'math' ? Object.values(MATH_TOPIC_NAMES).map((topic) => topic[language]) : [];
}

/**
 * Whether a worksheet's free-text topic may name something the subject's
 * generator honours; no topic always does. Math names its topics; a
 * vocabulary topic is a kind of thing, judged with WordNet by the generator
 * (so it passes here); a kanji topic is a school grade.
 */
export function topicOffered(subject: OfflineSubject, topic: string | null | undefined): boolean {
  if (!topic || topic.trim() === '') return true;
  if (subject === 'english') return true;
  if (subject === 'kanji') return kanjiGradeNamed(topic) !== null;
  return subject === 'math' && Object.values(MATH_TOPIC_NAMES).some((entry) => entry.words.test(topic));
}
