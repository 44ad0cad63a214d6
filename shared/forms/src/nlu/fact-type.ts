import type { AnswerType, FactDefinition, FormField } from '@convo/contract';
import { LRUCache } from 'lru-cache';
import { japaneseReady } from './japanese.js';
import { findOptions, withoutExamples, yesNoOptions } from './options.js';

/** The parts of a fact that describe it (a full FactDefinition, or a view of one). */
export type FactWords = Pick<FactDefinition, 'factKey' | 'fact' | 'doneCriteria'> &
  Partial<Pick<FactDefinition, 'questioningHints' | 'answerType' | 'options'>>;

/** The parts of a field that describe it. */
export type FieldWords = Pick<FormField, 'label' | 'intent'>;

/** The kinds of value the offline reviewer understands; `text` is anything else (judged for content). */
export type FactType = AnswerType;

/** A fact's kind plus, for a choice, the values it allows (as the form writes them). */
export type AnswerSpec = {
  type: FactType;
  options: readonly string[];
  /** A choice inferred from options named in prose: a reply naming none of them is judged as free text. */
  soft?: boolean;
};

export type ClassifyOptions = {
  /**
   * Also read the field's label and intent when the fact's own words say
   * nothing typed (default true). Turn off when the field has several facts:
   * a field "Start date and reason" must not make its "reason" fact a date.
   */
  fieldContext?: boolean;
};

/** One case-insensitive pattern from alternatives, so each keyword list reads as a list. */
function anyOf(...alternatives: string[]): RegExp {
  return new RegExp(alternatives.join('|'), 'i');
}

const NOT_A_SOURCE = String.raw`(?<!\b(?:from|on|in|at|via|through|see|visit)\s+(?:the\s+|our\s+|your\s+|a\s+)?)`;

// Checked in this order: "phone number" is a phone, not a number; "start date" a date; "how long" a duration, not a number.
// Each pattern names the value itself ("email", "postal code", "what time"), never a topic word like "size".
const EMAIL_RULE = anyOf(String.raw`\be-?mails?\b`, 'メール');
const RULES: ReadonlyArray<readonly [Exclude<FactType, 'text' | 'name' | 'choice' | 'yes_no'>, RegExp]> = [
  ['email', EMAIL_RULE],
  // Compound values first (issue 33): a fact that names a day and a time together, or both ends of a span, asks for
  // the whole of it, which a single date or time would cut in half.
  [
    'datetime',
    anyOf(
      String.raw`\b(?:date|day),?\s+(?:and|&)\s+(?:the\s+)?(?:approx(?:imate)?\.?\s+|rough\s+|exact\s+)?time\b`,
      String.raw`\btime\s+(?:and|&)\s+(?:the\s+)?(?:date|day)\b`,
      String.raw`\bdate\s*\/\s*time\b`,
      '日時',
      '(?:日付|日)と(?:時刻|時間(?![帯数]))',
      '(?:何日|日付)の何時',
    ),
  ],
  [
    'time_range',
    anyOf(
      String.raw`\btime\s+(?:window|slot|range|band)s?\b`,
      String.raw`\b(?:start(?:ing)?|opening|from)\s+(?:and|&|to|-)\s+(?:end(?:ing)?|finish(?:ing)?|closing|until)\s+times?\b`,
      String.raw`\btimes?\b[^.?!]{0,40}\bstarts?\s+and\s+(?:ends?|finish(?:es)?)\b`,
      String.raw`\bfrom what time\b[^.?!]{0,40}\b(?:until|till|to) what time\b`,
      '時間帯',
      '何時から何時',
      '(?:開始|始まり)[^。、]{0,6}(?:と|・|及び|および|〜|～)[^。、]{0,4}(?:終了|終わり)[^。、]{0,4}(?:時刻|時間(?![数]))',
      '(?:開始|始まり)と(?:終了|終わり)の(?:時刻|時間)',
    ),
  ],
  [
    'date_range',
    anyOf(
      String.raw`\b(?:start(?:ing)?|first|beginning|from)\s+(?:and|&|to)\s+(?:the\s+)?(?:end(?:ing)?|last|final|finish(?:ing)?)\s+(?:dates?|days?)\b`,
      String.raw`\bfrom what (?:date|day)\b[^.?!]{0,40}\bto what (?:date|day)\b`,
      String.raw`\b[a-z-]+\s+date\s+and\s+(?:(?:the|an?)\s+)?[a-z-]+\s+date\b`,
      '何日から何日',
      '(?:開始日|初日|最初の日)(?:と|・|〜|～|から)(?:終了日|最終日|最後の日)',
      'いつからいつまで',
      '日から[^。、]{0,12}日まで',
    ),
  ],
  [
    'url',
    anyOf(
      // "ID from the website listing", 「サイトに載っている」: a site named as where something is found is not asked for.
      String.raw`\burls?\b`,
      String.raw`${NOT_A_SOURCE}\bweb ?sites?\b`,
      String.raw`${NOT_A_SOURCE}\bweb ?pages?\b`,
      String.raw`\bportfolio`,
      String.raw`\blinks?\b`,
      String.raw`${NOT_A_SOURCE}\bhomepage`,
      String.raw`\bgithub\b`,
      String.raw`\blinkedin\b`,
      'ポートフォリオ',
      '(?:ウェブサイト|ホームページ|サイト)(?![にでからの上])',
      'リンク',
    ),
  ],
  [
    'phone',
    anyOf(String.raw`\b(?:tele)?phone`, String.raw`\btel\b`, String.raw`\b(?:mobile|cell)\s*(?:phone|number|no)\b`, '電話', '携帯'),
  ],
  [
    'postal_code',
    anyOf(String.raw`\bpost(?:al)?\s*codes?\b`, String.raw`\bzip(?:\s*codes?)?\b`, String.raw`\bpostcodes?\b`, '郵便番号', '〒'),
  ],
  [
    'duration',
    anyOf(
      String.raw`\bhow long\b`,
      String.raw`\bduration\b`,
      String.raw`\blength of\b`,
      String.raw`\bfor how many (?:years|months|weeks|days)\b`,
      // ("How many days per week" counts days: a frequency, not a length.)
      String.raw`\bhow many (?:years|months|weeks|days|hours)\b(?!\s+(?:per|a|an|each|every)\s)`,
      String.raw`\byears of\b`,
      '何年間',
      '何か月',
      '何ヶ月',
      '何カ月',
      'どのくらいの間',
      'どれくらいの間',
      '年数',
      '在籍年数',
      '経験年数',
      '何時間',
      '何分間',
      '何日間',
      '何週間',
      '(?:時間|期間)の長さ',
      '(?:どの|どれ)くらいの時間',
      // A measured time: a race result, a personal best, how long something takes.
      String.raw`\b(?:finish(?:ing)?|race|lap|record|completion) times?\b`,
      String.raw`\btime taken\b`,
      String.raw`\bpersonal best\b`,
      '(?<![ァ-ヺー])タイム(?![ァ-ヺー])',
      '所要時間',
      'かかる時間',
      '自己ベスト',
    ),
  ],
  [
    'period',
    anyOf(
      String.raw`\bperiod\b`,
      String.raw`\bsince when\b`,
      String.raw`\bfrom when\b`,
      String.raw`\byear or\b`,
      String.raw`\bor (?:a )?year\b`,
      // Two points make a span ("When the car is collected and when it is returned", "(from – to)").
      String.raw`\bwhen\b[^?.]*\band when\b`,
      String.raw`\bfrom\s*[-–—~]+\s*to\b`,
      String.raw`\b(?:time ?frame|timeframe)\b`,
      // A span with a start and an end: "start and end years", "the dates of that experience", "years or dates", 「何年から何年まで」.
      // ("Month and year" states a precision, not a span.)
      // A season is a stretch of a year ("season/year", "spring 2024").
      String.raw`\bseasons?\b(?!\s*(?:ticket|pass))`,
      String.raw`\bstart and end\b`,
      String.raw`\bdates of\b`,
      String.raw`\b(?:years|dates) or (?:years|dates)\b`,
      String.raw`\bfrom (?:when|what date) (?:to|until) (?:when|what date)\b`,
      '何年から',
      'から何年',
      '開始(?:と|・|から)終了',
      'いつからいつまで',
      '期間',
      'いつから(?![^。？?]*(?:でき|可能|始め|開始|働け|入居|勤務|参加))',
      'いつ頃',
      'いつごろ',
      '時期',
    ),
  ],
  [
    'time',
    anyOf(
      String.raw`\b(?:what|which) time\b`,
      String.raw`\btime of (?:arrival|departure)\b`,
      String.raw`\b(?:arrival|departure|start|end|pick-?up|drop-?off|check-?in|check-?out|appointment|preferred|meeting|delivery) time\b`,
      String.raw`^\s*time\s*$`,
      String.raw`\bclock time\b`,
      String.raw`\btime of (?:the )?day\b`,
      String.raw`\bat what time\b`,
      String.raw`\b(?:earliest|latest|starting|finishing|serving|service|collection|best|usual|convenient|visit) time\b`,
      String.raw`^\s*(?:approx(?:imate)?\.?\s+)?time\b(?!\s+(?:zone|frame|period|off|slots?|window|band|range)|\s*\((?:season|month|year|date))`,
      String.raw`\btime of (?:the )?(?:journey|trip|visit|incident|loss|accident|call|delivery|pick-?up)\b`,
      String.raw`\bnearest (?:15|30|five|ten|fifteen|thirty) min`,
      '時刻',
      '何時(?!間)',
      '到着時間',
      '出発時間',
      '開始時間',
      '終了時間',
      '来店時間',
      '希望時間(?!帯)',
    ),
  ],
  [
    'year',
    anyOf(
      // ("Day, month and year of purchase" asks for a date.)
      // (A year of school is not a calendar year: "What year level is your child in?", "year group", "year of study".)
      String.raw`\b(?:which|what) year\b(?!\s+(?:level|group|of (?:study|school)|are you in|is (?:he|she|your child|the child) in))`,
      String.raw`(?<!\bmonth,? and )\byear (?:of|when)\b`,
      String.raw`^\s*year\s*$`,
      String.raw`\b(?:graduation|founding|birth|start|end|release|model|manufacture|construction|purchase|completion) year\b`,
      String.raw`\byear (?:built|made|founded|graduated|purchased)\b`,
      String.raw`\b(?:yyyy|4-digit year)\b`,
      // A noun phrase headed by "year" ("Vehicle year"), but not a rate, a relative year or a school grade.
      String.raw`^(?!.*\b(?:a|per|each|every|this|last|next|school|academic|fiscal|tax)\s+year)(?!.*\bmonth,?\s+and\s+year\s*[:?]?\s*$)[^?.]{0,40}\byear\s*[:?]?\s*$`,
      '何年(?!間|生|前|目)',
      '年度',
      '(?:卒業|入学|設立|購入|製造|建築|竣工)年(?!月)',
      '^[^。？?]{0,20}[一-龯]{2}年[:：]?$',
    ),
  ],
  [
    'date',
    anyOf(
      String.raw`\bdates?\b`,
      String.raw`\bbirthday\b`,
      String.raw`\bdob\b`,
      String.raw`\b(?:which|what) day\b`,
      // One point in time ("When did you first notice it?", "When was your last donation?") is a date.
      String.raw`\bwhen (?:can|could|will|would|do|does|is|are|should|shall|did|was|were|had|have)\b`,
      String.raw`^\s*when\b`,
      String.raw`\bmonth,?\s+and\s+year\b`,
      String.raw`\byear\s+and\s+month\b`,
      String.raw`\bmonth\s*\/\s*year\b`,
      '日付',
      '生年月日',
      '誕生日',
      '年月日',
      '年月(?!日)',
      '年と月',
      '(?:開始|入社|退職|退社|入居|希望|予定|可能|提出|着任|納品|発生|事故|来院|来店|宿泊|到着|出発|引越し?|転居)日',
      '期日',
      '締め?切り?',
      '日程',
      '何日',
      '何月',
      'いつ(?!も|か(?!ら)|頃|ごろ)',
    ),
  ],
  [
    'number',
    anyOf(
      String.raw`\bhow (?:many|much|old)\b`,
      String.raw`\bnumber of\b`,
      String.raw`\b(?:what|which) grade\b`,
      String.raw`\bgrade level\b`,
      // A currency or a unit in brackets: "Estimated value (£)", "Weight (lbs)", 「年収（万円）」.
      String.raw`[(（]\s*(?:[$£€¥]|usd|gbp|eur|jpy|cad|aud|lbs?|kg|cm|km|miles?|円|万円|ドル|歳|人|名)\s*[)）]`,
      String.raw`\b(?:usd|gbp|eur|jpy|cad|aud)\b`,
      '何年生',
      String.raw`\bamount\b`,
      String.raw`\bcount\b`,
      String.raw`\bquantity\b`,
      String.raw`\bage\b`,
      String.raw`\bheadcount\b`,
      String.raw`\bsalary\b`,
      String.raw`\bbudget\b`,
      String.raw`\bprice\b`,
      String.raw`\bcost\b`,
      String.raw`\bnumeric\b`,
      String.raw`\bin (?:cm|kg|km|m|g|mm|yen|dollars|usd|jpy|eur|euros|pounds|lbs?|square (?:meters|metres|feet))\b`,
      String.raw`\ba (?:whole )?number\b`,
      String.raw`\bnumber (?:from|between)\b`,
      '人数',
      '件数',
      '回数',
      '個数',
      '台数',
      '数値',
      '何人',
      '何件',
      '何回',
      '何歳',
      '何個',
      '何台',
      '何名',
      '年齢',
      '金額',
      '予算',
      '年収',
      '給与',
      '月収',
      '家賃',
      '費用',
      '身長',
      '体重',
      '面積',
      'いくつ',
      'いくら',
      '点数',
      '(?<![複])数(?![学])',
    ),
  ],
];

const PERSONAL_NAME = anyOf(
  String.raw`\b(?:full|legal|given|family|first|last|middle|your|preferred|contact|guest|patient|applicant|child's|student's|emergency contact) ?name\b`,
  String.raw`\bsurname\b`,
  String.raw`\bforename\b`,
  '氏名',
  'フルネーム',
  '姓名',
  '苗字',
  '名字',
  'お名前',
);
const ANY_NAME_EN = /\bnames?\b/i;
// "Company name", "names of the tools": names, but not of a person.
const NAMED_THINGS =
  'company project product organi[sz]ation team school university college business brand file user pet app event course program ' +
  'department store shop street domain account group club band book game employer job role position hotel venue bank station building';
// "Company name", 「ペットのお名前」: the name of a named thing, in either language.
const THING_NAME_EN = String.raw`\b(?:${NAMED_THINGS.trim().split(/\s+/).join('|')})(?:'s)?\s+names?\b`;
const THING_NAME_JA =
  '(?:会社|学校|大学|企業|団体|製品|商品|プロジェクト|チーム|部署|店舗?|サービス|組織|勤務先|職場|病院|銀行|ホテル|施設|駅|建物|ペット|薬|料理|作品|曲|番組|車種?|品)の?[おご]?名';
const ORG_NAME_EN = anyOf(
  THING_NAME_EN,
  String.raw`\bnames? of\b(?! (?:the |your )?(?:person|respondent|applicant|candidate|contact|guest|patient|child|student))`,
  // "the name we gave it", "its name": a thing's name; "name or shelter ID": an identifier either way.
  String.raw`\bits name\b`,
  String.raw`\bnames?\b[^.;]{0,20}\bgave it\b`,
  String.raw`\bnames?\s+(?:or|and\/or)\s+(?:\w+\s+){0,3}(?:id|number|code|reference)\b`,
);
// A thing's name, said as such ("pet name", 「ペットのお名前」): not a person's, whatever the label says.
const THING_NAME = anyOf(THING_NAME_EN, THING_NAME_JA);

/** The fact asks for a code to copy as written: a serial, order or member number, a number of a fixed count of digits. */
export function asksForCode(texts: readonly string[]): boolean {
  return texts.some((text) => IDENTIFIER.test(text) || DIGIT_CODE.test(text));
}

const ORG_NAME_JA = new RegExp(THING_NAME_JA);

// A fact that asks whether something is so: "Whether the guest needs parking", 「駐車場の有無」, "yes or no".
const YES_NO = anyOf(
  String.raw`^\s*whether\b`,
  String.raw`\byes(?:\s*/\s*|\s+or\s+)no\b`,
  String.raw`\b(?:yes|no) (?:answer|question)\b`,
  '有無',
  '要否',
  '是非',
  'はい(?:・|/|か|、)いいえ',
  'かどうか',
);

// A question answered by yes or no: an English question opening with an auxiliary or an imperative verb ("Do you…?",
// "Will you need parking?", "Add a second driver?"), or a Japanese 「…ますか／ですか」 without a question word.
const YES_NO_QUESTION_EN =
  /^\s*(?:do|does|did|are|is|was|were|have|has|had|will|would|can|could|should|shall|may|might|add|need|want|include)\b[^?]*\?\s*$/i;
const YES_NO_QUESTION_JA = /(?:ますか|ですか|でしょうか|ませんか|ありますか|いますか)[?？]?\s*$/;
const QUESTION_WORD_JA = /何|なに|なん|いつ|どこ|どちら|どれ|どの|どう|どんな|誰|だれ|いくつ|いくら|どのくらい|どれくらい/;

const WHAT =
  /\b(?:what|which|who|whom|where|how|list|name|names|details?|describe|specify|kinds?|types?)\b|何|なに|どんな|どの|どれ|内容|詳細|名前|種類|具体/i;

/** Whether a field's label is itself a yes/no question. */
function asksYesNoQuestion(label: string): boolean {
  const trimmed = label.trim();
  if (YES_NO_QUESTION_EN.test(trimmed)) return !/\b(?:or|which|what|when|where|who|how)\b/i.test(trimmed.replace(/^\s*\w+/, ''));
  return YES_NO_QUESTION_JA.test(trimmed) && !QUESTION_WORD_JA.test(trimmed);
}

/**
 * Decides what kind of value a fact asks for: its explicit `answerType`
 * (or `options`) when the form states it; else options listed in its words
 * ("S/M/L/XL", 「午前・午後・夜間」, "one of A, B or C") make it a choice;
 * else keywords of its key (camelCase and snake_case split), description,
 * criteria and hints — and, unless told otherwise, the field's label and
 * intent — in English and Japanese. Anything unrecognised is `text`.
 */
export function classifyFact(fact: FactWords, field: FieldWords, options: ClassifyOptions = {}): FactType {
  return answerSpec(fact, field, options).type;
}

const COMPOUND_KINDS: ReadonlySet<FactType> = new Set(['time_range', 'date_range', 'datetime']);

/** A field's facts; a field defined without facts is one fact: its label, with the intent as the criterion. */
export function factsOrField(field: FormField, facts: readonly FactDefinition[]): readonly FactDefinition[] {
  if (facts.length > 0) return facts;
  return [
    {
      id: field.id,
      formFieldId: field.id,
      factKey: field.fieldId,
      fact: field.label,
      doneCriteria: field.intent ?? '',
      questioningHints: null,
    },
  ];
}

/** How many fact readings a process keeps (answerSpec); a form's facts are read again at nearly every step. */
const SPEC_CACHE_SIZE = 4_096;
const specCache = new LRUCache<string, AnswerSpec>({ max: SPEC_CACHE_SIZE });

/**
 * {@link classifyFact} with the options of a choice. A pure function of the fact's and the field's
 * words, asked for every field of the form at every step that describes the form (the reviewer's
 * context lists all the others): the reading is kept, by those words, for the process's life (the
 * {@link SPEC_CACHE_SIZE} last used). What it returns is frozen: it is shared. Nothing is kept
 * before the Japanese dictionary is loaded: Japanese words are read less well without it.
 */
export function answerSpec(fact: FactWords, field: FieldWords, options: ClassifyOptions = {}): AnswerSpec {
  const key = JSON.stringify([
    fact.factKey,
    fact.fact,
    fact.doneCriteria,
    fact.questioningHints ?? null,
    fact.answerType ?? null,
    fact.options ?? null,
    field.label,
    field.intent ?? null,
    options.fieldContext !== false,
  ]);
  const kept = specCache.get(key);
  if (kept) return kept;
  const spec = readAnswerSpec(fact, field, options);
  Object.freeze(spec.options);
  Object.freeze(spec);
  if (japaneseReady()) specCache.set(key, spec);
  return spec;
}

function readAnswerSpec(fact: FactWords, field: FieldWords, options: ClassifyOptions): AnswerSpec {
  const explicit = explicitSpec(fact);
  if (explicit) return explicit;
  const own = factTexts(fact);
  const useField = options.fieldContext !== false;
  const withField = useField ? [...own, field.label, field.intent ?? ''] : own;
  const found = findOptions(withField);
  const listed = found.options;
  const typed = ownType(fact);
  // The field's label and intent type a fact whose own words say nothing, not one that asks for a description.
  const kind = typed !== null ? typed : useField ? fieldType(field) : 'text';
  if (listed.length >= 2) {
    if (yesNoOptions(listed)) return { type: 'yes_no', options: listed };
    // A typed fact keeps its kind unless the form says outright to pick one ("one of …", 「のいずれか」):
    // "Year (western or Japanese calendar)" is a year, 「タイム（時間・分）」 a duration; listed values are still accepted.
    // Only options that look like values of the kind are kept ("Rooms (1/2/3+)"); "secondary / high school" in a
    // year fact, 「携帯・固定どちらでも可」 in a phone fact are words about it.
    // (A kind named only inside the options - "In person, Video call, or Phone call" - is no kind of the fact.)
    const kindBesides = kind === 'text' ? kind : kindWithout(listed, fact, field, useField);
    // (A window, a span or a day-and-time named by options - 「希望時間帯（午前・午後・夜間）」 - is picked from them; figures in
    // brackets - 「（開館時間 9:00～21:00、1時間単位）」 - state its bounds.)
    const namedSlots = COMPOUND_KINDS.has(kind) && listed.every((option) => !/\d/.test(option));
    if (!found.cued && kindBesides !== 'text' && !namedSlots)
      return {
        type: kind,
        options:
          kind === 'name' || kind === 'yes_no' || COMPOUND_KINDS.has(kind) || !listed.every((option) => /\d/.test(option)) ? [] : listed,
      };
    if (found.strict) return { type: 'choice', options: listed };
    // "Anything the medical tent should know: conditions, medication, allergies": words in prose under an open question
    // name topics to tell about, not values to pick.
    if (asksWhetherAny(withField) || asksForDescription(own)) return { type: kind, options: [] };
    return { type: 'choice', options: listed, soft: true };
  }
  // A yes/no question as the label types a fact whose own words ask for nothing more specific.
  if (kind === 'text' && useField && asksYesNoQuestion(field.label) && !asksForDescription(own) && !own.some((text) => WHAT.test(text))) {
    return { type: 'yes_no', options: [] };
  }
  return { type: kind, options: [] };
}

/** The kind the fact's and field's words ask for once the listed options are taken out of them. */
function kindWithout(options: readonly string[], fact: FactWords, field: FieldWords, useField: boolean): FactType {
  const strip = (text: string) => options.reduce((acc, option) => acc.split(option).join(' '), text);
  const stripped = {
    ...fact,
    fact: strip(fact.fact),
    doneCriteria: strip(fact.doneCriteria),
    questioningHints: fact.questioningHints === null ? null : strip(fact.questioningHints ?? ''),
  };
  const typed = ownType(stripped);
  if (typed !== null) return typed;
  return useField
    ? fieldType({
        ...field,
        label: strip(field.label),
        intent: field.intent === null || field.intent === undefined ? field.intent : strip(field.intent),
      })
    : 'text';
}

/**
 * The kind a field's own words ask for: its label, else its intent. A label that asks what or which
 * (「何を出しますか？」) wants a description, whatever the intent explains ("fees depend on the item: 金額…").
 */
function fieldType(field: FieldWords): FactType {
  const label = withoutExamples(field.label);
  const byLabel = typeOf([label]);
  if (byLabel !== 'text' || WHAT.test(label)) return byLabel;
  return typeOf([withoutExamples(field.intent ?? '')]);
}

function explicitSpec(fact: FactWords): AnswerSpec | null {
  const opts = fact.options ?? [];
  // Options stay with a typed kind too ("Rooms (1/2/3+)"): a reply naming one is taken as it is.
  if (fact.answerType) return { type: fact.answerType, options: fact.answerType === 'name' ? [] : opts };
  if (opts.length >= 2) return { type: yesNoOptions(opts) ? 'yes_no' : 'choice', options: opts };
  return null;
}

/** The fact's own words: its key split into words, its description, its criteria and its hints. */
export function factTexts(fact: FactWords): string[] {
  return [splitKey(fact.factKey), fact.fact, fact.doneCriteria, fact.questioningHints ?? ''].filter((text) => text.trim() !== '');
}

/**
 * The kind a fact's own words ask for. Its description and criteria speak first; its hints only when those say
 * nothing typed, since hints often suggest what to ask about ("具体的な点数や志望校があれば聞いて"). A fact that
 * asks for a description ("Description of any problem: what, where, and since when") is free text whatever
 * aspects it lists, and examples ("e.g. …", 「…など」) never type a fact.
 */
function ownType(fact: FactWords): FactType | null {
  const main = [splitKey(fact.factKey), fact.fact, fact.doneCriteria]
    .filter((text) => text.trim() !== '')
    .map(withoutExamples)
    .map(withoutDateQualifier);
  // "Which country, and how long they stayed": two questions in one fact are answered in prose.
  if (main.some((text) => (text.match(WH_QUESTION) ?? []).length >= 2)) return 'text';
  const hints = fact.questioningHints ? [withoutExamples(fact.questioningHints)] : [];
  if (DESCRIBE.test(main.join('\n'))) return 'text';
  const kind = typeOf(main);
  // A code to copy ("The order number of the purchase") or the name of a thing (「ペットの名前」) is text: said by the
  // fact itself, so the field's label ("Order #", 「どうぶつのお名前」) does not make it an email or a person's name. (A fact
  // that names a contact kind keeps it: 「受付番号を知らせるメールの送付先」 is an email.)
  if (
    kind === 'text' &&
    (asksForCode(main) || (!main.some((text) => PERSONAL_NAME.test(text)) && main.some((text) => THING_NAME.test(text))))
  )
    return 'text';
  if (kind !== 'text' || asksForDescription(main)) return kind;
  const hinted = typeOf(hints);
  return hinted !== 'text' ? hinted : null;
}

const WH_QUESTION = /\b(?:which|what|where|who|how long|how many|how much|when)\b|どこ|いつ|どのくらい|何を|どんな/gi;

/** 「児童の現在（2026年度）の学年」, "(as of 2025)": a year in brackets dates the question, it does not ask for one. */
function withoutDateQualifier(text: string): string {
  // (The year is looked for once, by the lookahead: `[^()]*\d{4}[^()]*` tried every split of an unclosed bracket's text.)
  return text.replace(/[(（](?=[^()（）]*\d{4})[^()（）]*[)）]/g, ' ');
}

// "Description of…", "describe", 「詳しく」「具体的に」: a request for prose.
const DESCRIBE =
  /\b(?:describe|description|explain|explanation|tell us about|in (?:your|their|the patient's|the respondent's) own words)\b|詳しく|具体的に(?:書|記入|説明)|自由記述/i;

function typeOf(texts: string[]): FactType {
  if (texts.some((text) => YES_NO.test(text))) return 'yes_no';
  // 「会員期間を開始する年月」: a Japanese noun phrase is what its last noun is; the 期間 before it is only its topic.
  if (texts.some((text) => /年月[。．.]?\s*$/.test(text.trim()))) return 'date';
  // A birth date is a date whatever question word asks for it ("When were you born?"), a birth year a year.
  if (asksForBirthDate(texts) && !texts.some((text) => YEAR_RULE.test(text))) return 'date';
  // A serial, policy or order number is a code to copy as written ("JA-5830214", "ORD-77120"), whatever else its
  // fact mentions: "from the packing slip or confirmation email" names where to find it, not an email to give.
  if (texts.some((text) => IDENTIFIER.test(text)) && !texts.some((text) => EMAIL_RULE.test(text) && !EMAIL_AS_SOURCE.test(text)))
    return 'text';
  for (const [type, pattern] of RULES) {
    // A number written as a fixed count of digits (「15桁の番号」, "the 10-digit member code") is a code, not a quantity.
    if (type === 'number' && texts.some((text) => DIGIT_CODE.test(text))) return 'text';
    if (texts.some((text) => pattern.test(text))) return type;
  }
  return asksForPersonName(texts) ? 'name' : 'text';
}

const DIGIT_CODE = /(?<!\d)\d+\s*桁|\b\d+-digit\b/;

// An email named as where something is found ("from the confirmation email", 「確認メールに記載の」).
const EMAIL_AS_SOURCE = /\b(?:from|in|on|see)\b[^.;!?]{0,40}\be-?mails?\b|メール(?:に記載|の本文|に書)/i;

const IDENTIFIER = anyOf(
  String.raw`\b(?:serial|policy|reference|ref|order|account|member(?:ship)?|tracking|case|claim|ticket|invoice|confirmation|booking|reservation|registration|licen[cs]e|plate|model|part|product|customer|student|employee|passport|vin|insurance|version)\s*(?:number|no\b\.?|#|id\b|code)`,
  String.raw`\bs\/n\b`,
  String.raw`\bvin\b`,
  '(?:証券|会員|受付|注文|管理|登録|予約|契約|顧客|社員|学籍|保険証|免許証?|車両|製造|シリアル|型式|証書|お客様)番号',
  '型番',
  '品番',
  'ナンバー',
  'バージョン番号',
  '英字[＋+と]数字',
  '英数字',
);

/** The fact asks for a serial, policy, booking or plate number: a code to copy, which no description replaces. */
export function asksForIdentifier(texts: readonly string[]): boolean {
  return texts.some((text) => IDENTIFIER.test(text));
}

const YEAR_RULE = RULES.find(([type]) => type === 'year')![1];

/**
 * A person's name: said outright ("full name", 「氏名」), or a name no text of the fact gives to a thing ("Pet's name"
 * with "the name the pet responds to" is the pet's).
 */
function asksForPersonName(texts: readonly string[]): boolean {
  if (texts.some((text) => PERSONAL_NAME.test(text))) return true;
  if (texts.some((text) => ORG_NAME_EN.test(text) || ORG_NAME_JA.test(text))) return false;
  return texts.some((text) => ANY_NAME_EN.test(text) || /名前/.test(text));
}

/** "fullName" / "full_name" / "full-name" → "full name". */
function splitKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .toLowerCase();
}

/** A name fact asking for one part only ("first name", "苗字"), so one word is enough. */
export function asksForOneNamePart(texts: string[]): boolean {
  const joined = texts.join(' ');
  if (/\bfull\b|フルネーム|氏名|姓名/i.test(joined)) return false;
  return /\b(?:first|given|last|family|middle)\s+name\b|\bsurname\b|\bforename\b|苗字|名字|下の名前/i.test(joined);
}

/** A date fact about a birth date, where a date without the year is not enough. */
export function asksForBirthDate(texts: string[]): boolean {
  return texts.some((text) => /date of birth|birth ?date|birthday|\bdob\b|\bborn\b|生年月日|誕生日|生まれ/i.test(text));
}

// "Why", "describe", "理由", "経験": the fact wants a description, not a word or two.
const DESCRIPTIVE = anyOf(
  String.raw`\b(?:why|reasons?|describe|description|explain|explanation|motivation|motivated|experiences?|background|elaborate)\b`,
  String.raw`\b(?:goals?|expectations?|story|situation|achievements?|challenges?|examples?|how (?:do|did|would|will|could))\b`,
  '理由',
  '動機',
  'なぜ',
  'どうして',
  '説明',
  '詳しく',
  '具体的',
  '経験',
  '背景',
  'エピソード',
  '目標',
  'きっかけ',
  'どのように',
  '意気込み',
  '抱負',
);

// "Any allergies?", "その他あれば": "none" is a full answer.
const EXISTENCE = anyOf(
  String.raw`\b(?:any|anything|whether|if any|do you have|have you|are there|is there|other|additional|else|restrictions?|allerg\w*|none)\b`,
  '有無',
  'あれば',
  'ありますか',
  'ある場合',
  'あるか',
  'その他',
  '他に',
  'ほかに',
  '特記',
  '備考',
  'アレルギー',
  '制限',
  'なし',
);

/**
 * A free-text fact that needs a description rather than a word or two
 * ("why", "describe", "理由", "経験"): judged with the higher content threshold.
 */
export function asksForDescription(texts: string[]): boolean {
  return texts.some((text) => DESCRIPTIVE.test(text));
}

/**
 * Criteria that name "none" as a complete answer (「薬の名前か種類がわかる、または飲んでいないことがわかる」,
 * 「食材名がわかる、または特になしと確認できた」, "…, or says there is nothing"): a nil reply answers the fact.
 */
export function acceptsNone(doneCriteria: string): boolean {
  return NONE_ACCEPTED.test(doneCriteria);
}

const NONE_ACCEPTED = anyOf(
  String.raw`(?:または|もしくは|か、)[^。]*(?:ない|なし|無し|いない)(?:こと)?(?:が|と)?(?:わかる|分かる|確認|明らか|はっきり)`,
  String.raw`\bor\b[^.]*\b(?:nothing|none|no (?:\w+ )?(?:to add|needed|at all))\b`,
);

// A field for whatever else the respondent wants to add, not for one thing the form needs.
const REMARKS = anyOf(
  String.raw`\banything else\b`,
  String.raw`\b(?:other|additional|further|special|extra)\s+(?:notes?|comments?|remarks?|information|info|requests?|instructions)\b`,
  String.raw`^\s*(?:notes?|comments?|remarks?)\b`,
  '備考',
  '特記事項',
  'その他(?:ご|の)?(?:要望|連絡|質問|伝えたい)',
  '(?:ほか|他)に(?:何か|なにか)',
  '自由(?:記入|記述)?欄',
);

/** The field collects remarks ("Anything else we should know?", 「備考」): "nothing" there leaves it blank. */
export function asksForRemarks(field: { label: string; intent?: string | null }): boolean {
  return REMARKS.test(field.label);
}

/**
 * A fact asking whether something exists ("any allergies?", "その他あれば"), so
 * "none" / "なし" is a complete answer rather than a refusal.
 */
export function asksWhetherAny(texts: string[]): boolean {
  return texts.some((text) => EXISTENCE.test(text));
}

// "if reported", "only ask if…", "skip if…", 「ある場合」「あれば」「任意」: the fact applies only sometimes.
const CONDITIONAL = anyOf(
  String.raw`\bif (?:any|applicable|so|reported|relevant|known|available|yes|needed|appropriate|they|you|it|there|not)\b`,
  String.raw`\bonly (?:ask|needed|required|if|when)\b`,
  String.raw`\bskip (?:if|when|this)\b`,
  String.raw`\b(?:where|when) applicable\b`,
  String.raw`\boptional\b`,
  '場合のみ',
  'の場合は',
  'ある場合',
  'いる場合',
  'した場合',
  'あれば',
  '任意',
  '該当する',
);

/** A fact that applies only under a condition: within a field of several facts, it never holds the field back. */
export function asksConditionally(texts: readonly string[]): boolean {
  return texts.some((text) => CONDITIONAL.test(text));
}
