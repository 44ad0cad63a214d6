import type { Problem } from '@convo/contract';
import { withinTextBudget } from '@convo/text';
import { choiceKind } from './check.js';
import { numberStyleOf, unitOf } from './numbers.js';
import { solvePrompt } from './solve.js';
import { MATH_TOPIC_NAMES } from './subjects.js';
import { MATH_TOPICS, type MathTopic, mathTopicOf } from './generate/math.js';

/** A hint per kind of generated math problem: the step to take, never the answer. */
const MATH_HINTS: Record<MathTopic, [string, string]> = {
  fractions: ['分母をそろえてから分子を計算します', 'make the denominators the same first'],
  percentages: ['%は100分のいくつかを表します', 'a percent is a number out of 100'],
  equations: ['x の項だけを左辺に残してから、両辺を係数で割ります', 'keep the x term on one side, then divide by its coefficient'],
  areas: ['公式を思い出してから数を当てはめます', 'recall the formula, then put in the numbers'],
  speed: ['道のり = 速さ × 時間 の関係を使います', 'use distance = speed × time'],
  ratio: ['比の一方が何倍になったかを考えます', 'find how many times one term of the ratio was multiplied'],
  decimals: ['小数点の位置に気をつけて計算します', 'watch where the decimal point goes'],
  volume: ['体積は 縦 × 横 × 高さ（底面積 × 高さ）です', 'volume is length × width × height (base area × height)'],
  unit_conversion: ['まず1つの単位がもう1つの単位のいくつ分かを考えます', 'first find how many of one unit make the other'],
};

/**
 * What a request to the problem-management agent asks for, by rules
 * (docs/seeds/003 analyzeIntent): 「もっと簡単に」 simplify, 「問題文をもっと
 * 具体的にして」 specify, 「この問題を改善して」 improve, 「整合性チェック」
 * check, "make it harder" harden, and the section it names, if any.
 */
export type Intent =
  | 'simplify'
  | 'harden'
  | 'specify'
  | 'improve'
  | 'check'
  | 'fix'
  | 'suggest'
  | 'score'
  | 'translate'
  | 'hint'
  | 'shorten'
  | 'distractors'
  | 'topic';
export type EditSection = 'prompt' | 'choices' | 'explanation';

// First match wins: the narrower requests before the words they share with broader ones
// (「選択肢をもっと紛らわしく」 is about distractors before it is about "more"; "translate … to make it better" is a translation).
const INTENTS: Array<[Intent, RegExp]> = [
  ['check', /整合|矛盾|チェック|consisten|check/i],
  ['fix', /修正|直し|直す|直せ|fix|repair|correct (?:it|this|the)/i],
  ['suggest', /提案|サジェスト|アイデア|suggest|ideas?/i],
  ['score', /評価|採点|スコア|品質を(?:見|測|教)|score|rate|evaluate|quality of/i],
  ['translate', /翻訳|訳して|英訳|和訳|英語に|日本語に|translat|in english|in japanese|into (?:english|japanese)/i],
  ['hint', /ヒント|手がかり|hint|clue/i],
  [
    'distractors',
    /紛らわし|まぎらわし|誤答|ひっかけ|選択肢を(?:変え|増や|減ら|入れ替え)|distractor|plausible|wrong answers|(?:fewer|more|different) (?:choices|options)/i,
  ],
  ['shorten', /短く|みじかく|簡潔|短い|shorter|shorten|concise|briefer/i],
  ['topic', /テーマ|話題|題材|トピック|topic|about something else|another subject/i],
  // "Too easy" asks for harder and "too hard" for easier, before the words they share with the opposite request.
  ['harden', /簡単すぎ|かんたんすぎ|易しすぎ|やさしすぎ|too easy|too simple/i],
  ['simplify', /難しすぎ|むずかしすぎ|too hard|too difficult/i],
  ['simplify', /簡単|かんたん|易し|やさし|平易|easier|simpler|simplify|less difficult/i],
  ['harden', /難しく|むずかし|難易度を上げ|高度|harder|more difficult|challenging|tougher/i],
  ['specify', /具体|明確|詳しく|はっきり|specific|concrete|real[- ]life|clearer|more precise|clarify|detail/i],
  ['improve', /改善|良く|よく|ブラッシュアップ|improve|better|polish|enhance/i],
];

/** A request to put another topic in place ("体積の問題に変えて", "swap this for a percentages question"): with a topic named, it is a topic change. */
const TOPIC_CHANGE =
  /問題に(?:変え|して|変更|差し替え)|に変えて|に差し替え|に変更|swap|instead|replace|switch|change (?:it|this)(?: \w+)? (?:to|into)|turn (?:it|this)(?: \w+)? into/i;

/** The edits a request can ask for together ("easier, and add a hint"): each is done in turn after the first. */
export const COMBINABLE_INTENTS = ['simplify', 'harden', 'hint', 'distractors', 'translate', 'topic'] as const;
export type CombinableIntent = (typeof COMBINABLE_INTENTS)[number];
const COMBINABLE: readonly Intent[] = COMBINABLE_INTENTS;
const OPPOSITE: Partial<Record<Intent, Intent>> = { simplify: 'harden', harden: 'simplify' };

/**
 * The other edits a request asks for besides its first (analyzeIntent): each
 * combinable intent whose words it also uses, not the first's opposite ("too
 * easy … make it harder" is one request to harden).
 */
export function otherEditIntents(request: string, first: Intent): CombinableIntent[] {
  return withinTextBudget(() => {
    if (!COMBINABLE.includes(first)) return [];
    const found: CombinableIntent[] = [];
    for (const [intent, pattern] of INTENTS) {
      if (intent === first || OPPOSITE[first] === intent || found.includes(intent as CombinableIntent) || !COMBINABLE.includes(intent))
        continue;
      if (intent === 'topic' ? topicChange(request) : pattern.test(request)) found.push(intent as CombinableIntent);
    }
    return found;
  });
}

function topicChange(request: string): boolean {
  return TOPIC_CHANGE.test(request) && topicNamed(request) !== null;
}

/** The math topic a request names ("速さの問題に変えて", "make it about percentages"), or null. */
export function topicNamed(request: string): MathTopic | null {
  return withinTextBudget(() => MATH_TOPICS.find((topic) => MATH_TOPIC_NAMES[topic].words.test(request)) ?? null);
}

/** The language a translation request asks for ("英語に", "into Japanese"), or the other one than `current`. */
export function targetLanguage(request: string, current: 'ja' | 'en'): 'ja' | 'en' {
  const named = (['en', 'ja'] as const).filter((language) =>
    (language === 'en' ? /英語|英訳|english/i : /日本語|和訳|japanese/i).test(request),
  );
  // A request may name both ("in Japanese, but leave the options in English"): the one it is not in yet is the target.
  return named.find((language) => language !== current) ?? named[0] ?? (current === 'ja' ? 'en' : 'ja');
}

/** A question asked to be set in everyday life ("a real-life context", 「身近な場面に」), not merely stated more exactly. */
export function wantsScene(request: string): boolean {
  return /場面|身近|生活|日常|実生活|文章題|real[- ]life|real world|everyday|context|scenario|situation|story|word problem|concrete/i.test(
    request,
  );
}

/** Wrong choices asked to be harder to tell from the answer ("more plausible", 「紛らわしく」), not merely other ones. */
export function wantsCloserChoices(request: string): boolean {
  return /紛らわし|まぎらわし|ひっかけ|惑わ|迷う|plausibl|convincing|tricky|trickier|closer|harder to|believable|realistic/i.test(request);
}

export function analyzeIntent(request: string): { intent: Intent; section: EditSection | null } {
  return withinTextBudget(() => intentOf(request));
}

function intentOf(request: string): { intent: Intent; section: EditSection | null } {
  const section: EditSection | null = /選択肢|choices?|options?|distractors?/i.test(request)
    ? 'choices'
    : /解説|説明|explanation/i.test(request)
      ? 'explanation'
      : /問題文|設問|prompt|question text|wording/i.test(request)
        ? 'prompt'
        : null;
  const first = INTENTS.find(([, pattern]) => pattern.test(request))?.[0] ?? 'improve';
  // A topic named with a change ("swap this for a percentages question") is a topic change, whatever else it says, except a check or fix.
  const intent = topicChange(request) && !['check', 'fix', 'translate'].includes(first) ? 'topic' : first;
  return { intent, section };
}

/**
 * What the rule-based editor did: an edit it could derive from the problem
 * itself, or a refusal that says why, in the sheet's language. It never
 * appends a stock sentence as an "improvement": a change it cannot derive
 * (new numbers, new distractors, a translation, a shorter wording) is
 * refused and reported as not done.
 */
export type EditOutcome =
  { kind: 'edited'; field: EditSection; value: string | string[]; changes: string[] } | { kind: 'refused'; reason: string };

/**
 * The Editor's rules offline, each derived from the problem: a fuller
 * explanation gets the working the solver can do; a more specific written
 * problem states the form its model answer is written in (a fraction in
 * lowest terms, the unit, x, the reading in hiragana, one word); an easier
 * one, or one asked for a hint, gets a hint of its kind. Anything else is
 * refused with the reason (see EditOutcome).
 */
export function ruleEdit(problem: Problem, section: EditSection, intent: Intent, language: 'ja' | 'en'): EditOutcome {
  return withinTextBudget(() => editByRules(problem, section, intent, language));
}

function editByRules(problem: Problem, section: EditSection, intent: Intent, language: 'ja' | 'en'): EditOutcome {
  const refuse = (ja: string, en: string): EditOutcome => refused(language, ja, en);
  switch (intent) {
    case 'translate':
      return refuse(
        '問題を別の言語に訳すことは、モデルなしの編集ではできません。訳した文を指定してください。',
        'Translating a problem needs a model; the rule-based editor cannot. Give the translated text instead.',
      );
    case 'harden':
      return refuse(
        '難しくするには数や手順を変え、答え・解説・選択肢をすべて作り直す必要があり、モデルなしの編集ではできません。難易度を上げたワークシートを作り直してください。',
        'Making it harder means new numbers or steps with the answer, explanation and choices rewritten together, which the rule-based editor cannot do. Create a worksheet at a harder level instead.',
      );
    case 'shorten':
      return refuse(
        '文を短くするには書き直しが必要で、モデルなしの編集ではできません。短くした文を指定してください。',
        'Shortening the wording means rewriting it, which the rule-based editor cannot do. Give the shorter text instead.',
      );
    case 'topic':
      return refuse(
        '問題の題材を変えるには問題を作り直す必要があり、モデルなしの編集ではできません。',
        'Changing the topic of a problem means writing a new one, which the rule-based editor cannot do.',
      );
    case 'distractors':
      return refuse(
        '新しい選択肢を考えることは、モデルなしの編集ではできません。選択肢を4つ指定するか、整合性に問題があれば自動修正を使ってください。',
        'Writing new choices needs a model; the rule-based editor cannot. Give all four choices, or use the auto-fix if the check finds a problem.',
      );
    default:
      break;
  }
  // A hint goes to the prompt whatever part the request also names ("add a hint, and make the last choice…").
  if (intent === 'simplify' || intent === 'hint') return addHint(problem, language);
  if (section === 'choices')
    return refuse(
      '選択肢の書き換えは、モデルなしの編集ではできません。選択肢を4つ指定してください。',
      'Rewriting the choices needs a model; the rule-based editor cannot. Give all four choices instead.',
    );
  if (section === 'explanation') return addWorking(problem, language);
  // specify, improve (and the other intents the editor is called for) on the prompt.
  return stateAnswerForm(problem, language);
}

/** The solver's working at the head of the explanation, when it can solve the prompt and the explanation has none yet. */
function addWorking(problem: Problem, language: 'ja' | 'en'): EditOutcome {
  const say = sayIn(language);
  const solution = solvePrompt(problem.prompt);
  const answer = problem.type === 'multiple_choice' ? problem.choices?.[problem.correctChoiceIndex ?? 0] : problem.modelAnswer;
  if (!solution || !answer)
    return refused(
      language,
      'この問題の途中の考え方を規則から導けないため、解説はモデルなしでは書き足せません。',
      'The rule-based editor cannot work out this problem, so it cannot add to the explanation.',
    );
  if (/=/.test(problem.explanation))
    return refused(
      language,
      '解説にはすでに途中の式があります。これ以上の書き直しはモデルなしの編集ではできません。',
      'The explanation already shows the working; rewriting it further needs a model.',
    );
  const text = say(
    `${solution.working}。答えは ${answer} です。${problem.explanation}`,
    `${solution.working}, so the answer is ${answer}. ${problem.explanation}`,
  );
  return { kind: 'edited', field: 'explanation', value: text.trim(), changes: [say('途中の式を追記', 'added the working')] };
}

/** A hint of the problem's kind in brackets after the prompt, unless it has one. */
function addHint(problem: Problem, language: 'ja' | 'en'): EditOutcome {
  const say = sayIn(language);
  const hint = hintFor(problem, language);
  const prompt = problem.prompt.trim();
  if (!hint)
    return refused(
      language,
      'この問題に合うヒントを規則から作れません。ヒントの文を指定してください。',
      'No hint of this kind of problem can be made by rule. Give the hint text instead.',
    );
  if (prompt.includes(hint)) return refused(language, '問題文にはすでにこのヒントがあります。', 'The prompt already has this hint.');
  return {
    kind: 'edited',
    field: 'prompt',
    value: `${prompt}${say('（', ' (')}${hint}${say('）', ')')}`,
    changes: [say(`ヒントを追加: ${hint}`, `added a hint: ${hint}`)],
  };
}

/**
 * A written problem's prompt states the form its model answer is written in.
 * A multiple-choice problem's choices already show it, so saying it again in
 * the prompt would change nothing for the student.
 */
function stateAnswerForm(problem: Problem, language: 'ja' | 'en'): EditOutcome {
  const say = sayIn(language);
  if (problem.type === 'multiple_choice' || !problem.modelAnswer)
    return refused(
      language,
      '選択式の問題では答え方は選択肢で決まっているため、問題文に足せる具体的な情報を規則から導けません。変えたい点を指定してください。',
      'In a multiple-choice problem the choices already fix the form of the answer, so the rule-based editor has nothing specific to add. Say what should change.',
    );
  const prompt = problem.prompt.trim();
  const form = answerForm(problem.modelAnswer, language);
  if (!form || prompt.includes(form))
    return refused(language, '問題文はすでに答え方を示しています。', 'The prompt already states how to answer.');
  return {
    kind: 'edited',
    field: 'prompt',
    value: joinSentences(prompt, form, language),
    changes: [say(`答え方を明記: ${form}`, `states the answer form: ${form}`)],
  };
}

/** Text for the teacher in the sheet's language. */
function sayIn(language: 'ja' | 'en'): (ja: string, en: string) => string {
  return (ja, en) => (language === 'ja' ? ja : en);
}

/** An edit not made, and why, in the sheet's language. */
function refused(language: 'ja' | 'en', ja: string, en: string): EditOutcome {
  return { kind: 'refused', reason: sayIn(language)(ja, en) };
}

/** Two sentences as one text: Japanese ends the first with 「。」 unless it already ends a sentence; English puts a space between. */
function joinSentences(first: string, second: string, language: 'ja' | 'en'): string {
  if (language === 'en') return `${first} ${second}`.trim();
  return /[。．？！?!」』）)]$/.test(first) ? `${first}${second}` : `${first}。${second}`;
}

/** The form of a model answer: a fraction, x, a unit, a reading in kana, one word, a number; null when none is clear. */
function answerForm(modelAnswer: string, language: 'ja' | 'en'): string | null {
  const say = sayIn(language);
  if (numberStyleOf([modelAnswer]) === 'fraction')
    return say('答えは既約分数で答えなさい。', 'Give the answer as a fraction in lowest terms.');
  if (/^\s*x\s*=/.test(modelAnswer)) return say('x の値を求めなさい。', 'Give the value of x.');
  const unit = unitOf([modelAnswer]);
  if (unit) return say(`単位（${unit}）をつけて答えなさい。`, `Give the answer in ${unit}.`);
  const kind = choiceKind(modelAnswer);
  if (kind === 'kana') return say('読みをひらがなで答えなさい。', 'Answer with the reading in hiragana.');
  if (kind === 'word') return say('英単語1語で答えなさい。', 'Answer with one English word.');
  if (kind === 'number') return say('数で答えなさい。', 'Answer with a number.');
  return null;
}

/** A hint that makes the problem easier without giving the answer away. */
function hintFor(problem: Problem, language: 'ja' | 'en'): string | null {
  const say = sayIn(language);
  const topic = mathTopicOf(problem.source?.generator);
  if (topic) return say(MATH_HINTS[topic][0], MATH_HINTS[topic][1]);
  const solution = solvePrompt(problem.prompt);
  if (solution && solution.kind !== 'record') {
    const hints: Record<string, [string, string]> = {
      equation: ['x の項だけを左辺に残してから、両辺を係数で割ります', 'keep the x term on one side, then divide by its coefficient'],
      percent_of: ['%は100分のいくつかを表します', 'a percent is a number out of 100'],
      percent_ratio: ['部分 ÷ 全体 × 100 で求めます', 'part ÷ whole × 100'],
      area: ['公式を思い出してから数を当てはめます', 'recall the formula, then put in the numbers'],
      expression: ['分数は分母をそろえてから計算します', 'make the denominators the same first'],
    };
    const [ja, en] = hints[solution.kind]!;
    return say(ja, en);
  }
  const answer = problem.type === 'multiple_choice' ? problem.choices?.[problem.correctChoiceIndex ?? 0] : problem.modelAnswer;
  // A word's first letter is a hint; a number's first digit gives half the answer away.
  if (!answer || choiceKind(answer) === 'number') return null;
  return say(`ヒント: 「${[...answer.trim()][0]}」で始まります`, `hint: it starts with "${[...answer.trim()][0]}"`);
}
