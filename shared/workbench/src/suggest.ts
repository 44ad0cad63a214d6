import type { Difficulty, Problem, Suggestions } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import type { CheckFacts } from './check.js';
import { unitOf } from './numbers.js';
import { solvePrompt } from './solve.js';
import type { OfflineSubject } from './subjects.js';

/**
 * The SuggestionGenerator (docs/seeds/003): four improvement ideas per
 * section, each at most 15 characters, in the worksheet's language. The
 * problem's own weaknesses come first (what the checker found, a prompt
 * without its unit, an explanation without working or without a word on the
 * wrong answers), then ideas for its subject, then for its difficulty, then
 * general ones; `choices` only for multiple choice.
 */
type Idea = { ja: string; en: string };
type Section = 'prompt' | 'choices' | 'explanation';

export const MAX_SUGGESTION_LENGTH = 15;

/** The subject's own kinds of improvement. */
const BY_SUBJECT: Record<OfflineSubject, Record<Section, Idea[]>> = {
  math: {
    prompt: [
      { ja: '場面を具体的にする', en: 'Use a real case' },
      { ja: '答え方を指定する', en: 'Say answer form' },
    ],
    choices: [
      { ja: '典型的な誤りを入れる', en: 'Typical errors' },
      { ja: '数の形式を揃える', en: 'One number form' },
    ],
    explanation: [
      { ja: '公式を明記する', en: 'Name formula' },
      { ja: '検算を添える', en: 'Add a check' },
    ],
  },
  kanji: {
    prompt: [
      { ja: '例文の中で問う', en: 'Use a sentence' },
      { ja: 'ひらがなで答えさせる', en: 'Ask in hiragana' },
    ],
    choices: [
      { ja: '音訓の誤りを入れる', en: 'On/kun mix-ups' },
      { ja: '濁音の有無で迷わす', en: 'Vary voicing' },
    ],
    explanation: [
      { ja: '音読み訓読みを示す', en: 'Give on/kun' },
      { ja: '同じ字の語を示す', en: 'Related words' },
    ],
  },
  english: {
    prompt: [
      { ja: '品詞を示す', en: 'Give the POS' },
      { ja: '例文を添える', en: 'Add an example' },
    ],
    choices: [
      { ja: '同じ品詞で揃える', en: 'Same POS' },
      { ja: '似た意味の語を入れる', en: 'Near synonyms' },
    ],
    explanation: [
      { ja: '例文で使い方を示す', en: 'Show it in use' },
      { ja: '語源に触れる', en: 'Note the root' },
    ],
  },
};

/** The worksheet's difficulty, in the terms of its subject (a kanji sheet has no numbers to make simpler): for a computation, */
const BY_DIFFICULTY_COMPUTED: Record<Difficulty, Idea[]> = {
  easy: [
    { ja: '数を易しくする', en: 'Simpler numbers' },
    { ja: 'ヒントを添える', en: 'Add a hint' },
  ],
  normal: [{ ja: '条件を一つ加える', en: 'Add a condition' }],
  hard: [
    { ja: '二段階の問いにする', en: 'Two steps' },
    { ja: '文章題にする', en: 'Word problem' },
  ],
};
/** …and for a reading or a word. */
const BY_DIFFICULTY_WORDS: Record<Difficulty, Idea[]> = {
  easy: [
    { ja: 'よく使う語にする', en: 'Common words' },
    { ja: 'ヒントを添える', en: 'Add a hint' },
  ],
  normal: [{ ja: '文脈を一つ加える', en: 'Add context' }],
  hard: [{ ja: '文脈から推測させる', en: 'Infer from context' }],
};

export function suggest(problem: Problem, facts: CheckFacts, context: SuggestContext): Suggestions {
  return withinTextBudget(() => suggestWithin(problem, facts, context));
}

type SuggestContext = { subject: OfflineSubject | null; difficulty: Difficulty; language: 'ja' | 'en' };

function suggestWithin(problem: Problem, facts: CheckFacts, context: SuggestContext): Suggestions {
  const kinds = new Set(facts.issues.map((issue) => issue.kind));
  const ideas: Record<Section, Idea[]> = { prompt: [], choices: [], explanation: [] };
  const add = (section: Section, idea: Idea) => ideas[section].push(idea);

  // Weaknesses of this problem.
  const unit = unitOf(problem.choices ?? []);
  if (unit && !problem.prompt.includes(unit.replace('²', ''))) add('prompt', { ja: '答えの単位を明記', en: 'State the unit' });
  if (kinds.has('number_mismatch')) add('prompt', { ja: '数値を解説と揃える', en: 'Match numbers' });
  if (!/[?？]|なさい|ですか|choose|which|what|find|calculate|solve|write/i.test(problem.prompt))
    add('prompt', { ja: '問いを文末で明示', en: 'End with a "?"' });
  if (kinds.has('duplicate_choice') || kinds.has('empty_choice')) add('choices', { ja: '重複と空欄をなくす', en: 'Drop duplicates' });
  if (kinds.has('multiple_correct')) add('choices', { ja: '正解を一つに絞る', en: 'Keep one answer' });
  if (kinds.has('off_topic_choice')) add('choices', { ja: '答えの種類を揃える', en: 'Same kind only' });
  if (kinds.has('wrong_answer') || kinds.has('no_correct_choice')) add('choices', { ja: '正解の印を確認する', en: 'Check the key' });
  if (kinds.has('explanation_names_other') || kinds.has('explanation_contradicts'))
    add('explanation', { ja: '結論を正解に合わせる', en: 'Match answer' });
  // Working is a computation's: a reading or a word's meaning has none to show.
  const computed = context.subject === 'math' || (context.subject === null && solvePrompt(problem.prompt) !== null);
  if (computed && !/=|→|×|÷|because|so |ので|から|ため/.test(problem.explanation))
    add('explanation', { ja: '途中の式を示す', en: 'Show working' });
  if (!/mistake|wrong|instead|誤り|間違|ではなく/i.test(problem.explanation))
    add('explanation', { ja: '誤答の理由を書く', en: 'Why others fail' });
  const lengths = (problem.choices ?? []).map((choice) => [...choice].length);
  if (lengths.length > 1 && Math.max(...lengths) > 2 * Math.max(1, Math.min(...lengths)))
    add('choices', { ja: '長さを揃える', en: 'Even lengths' });

  // The subject's own kinds of improvement, then its difficulty's.
  if (context.subject)
    for (const section of ['prompt', 'choices', 'explanation'] as const)
      for (const idea of BY_SUBJECT[context.subject][section]) add(section, idea);

  for (const idea of (computed ? BY_DIFFICULTY_COMPUTED : BY_DIFFICULTY_WORDS)[context.difficulty]) add('prompt', idea);

  // General ideas, last.
  add('prompt', { ja: '一文で簡潔にする', en: 'One short line' });
  add('prompt', { ja: '主語を明確にする', en: 'Name who/what' });
  add('choices', { ja: '紛らわしさを調整', en: 'Tune decoys' });
  add('choices', { ja: '並び順を工夫する', en: 'Order choices' });
  add('explanation', { ja: '要点を一文で示す', en: 'Key point first' });
  add('explanation', { ja: '次の学習につなげる', en: 'Next steps' });
  add('explanation', { ja: '図や表で補う', en: 'Add a table' });

  const pick = (section: Section) => {
    const texts = ideas[section].map((idea) => idea[context.language]).filter((text) => [...text].length <= MAX_SUGGESTION_LENGTH);
    return [...new Set(texts)].slice(0, 4);
  };
  const result: Suggestions = { prompt: pick('prompt'), explanation: pick('explanation') };
  if (problem.type === 'multiple_choice') result.choices = pick('choices');
  return result;
}
