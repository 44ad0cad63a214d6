import type { FactDefinition, FormField } from '../schemas/form.js';

/** The parts of a fact that describe it (a full FactDefinition, or a view of one). */
export type FactWords = Pick<FactDefinition, 'factKey' | 'fact' | 'doneCriteria'>;

/** The parts of a field that describe it. */
export type FieldWords = Pick<FormField, 'label' | 'intent'>;

/** The kinds of value the offline reviewer can check; `text` is anything else (judged for content). */
export type FactType = 'email' | 'phone' | 'date' | 'number' | 'url' | 'name' | 'text';

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

// Checked in this order: "phone number" is a phone, not a number; "start date" a date.
const RULES: ReadonlyArray<readonly [Exclude<FactType, 'text' | 'name'>, RegExp]> = [
  ['email', anyOf(String.raw`\be-?mails?\b`, 'メール')],
  [
    'url',
    anyOf(
      String.raw`\burls?\b`, String.raw`\bweb ?sites?\b`, String.raw`\bweb ?pages?\b`, String.raw`\bportfolio`, String.raw`\blinks?\b`,
      String.raw`\bhomepage`, String.raw`\bgithub\b`, String.raw`\blinkedin\b`,
      'ポートフォリオ', 'ウェブサイト', 'ホームページ', 'サイト', 'リンク',
    ),
  ],
  ['phone', anyOf(String.raw`\b(?:tele)?phone`, String.raw`\btel\b`, String.raw`\b(?:mobile|cell)\s*(?:phone|number|no)\b`, '電話', '携帯')],
  [
    'date',
    anyOf(
      String.raw`\bdates?\b`, String.raw`\bbirthday\b`, String.raw`\bdob\b`, String.raw`^\s*when\b`,
      String.raw`\bwhen (?:can|could|will|would|did|do|does|is|are|was|were)\b`,
      '日付', '生年月日', '誕生日', '年月日', '(?:開始|入社|退職|退社|入居|希望|予定|可能|提出|着任|納品)日', '期日', '締め?切り?',
      '日程', '何日', '何月', '時期',
      // "いつから" asks for a date; "いつも" (always) and "いつか" (someday) do not.
      'いつ(?!も|か(?!ら))',
    ),
  ],
  [
    'number',
    anyOf(
      String.raw`\bhow (?:many|much|old|long)\b`, String.raw`\bnumber of\b`, String.raw`\byears? of\b`, String.raw`\b(?:which|what) year\b`,
      String.raw`\byear (?:of|when)\b`, String.raw`\b(?:graduation|founding|birth|start|end|release|model) year\b`, String.raw`^\s*year\s*$`,
      String.raw`\b(?:age|count|quantity|amount|salary|budget|headcount|size|score|price|cost|numeric)\b`,
      '年数', '人数', '件数', '回数', '個数', '台数', '数値', '何年', '何人', '何件', '何回', '何歳', '何個', '年齢', '金額', '予算',
      '年収', '給与', 'いくつ', '点数',
      // 数 on its own ("数を教えて") but not 複数 (several) or 数学 (mathematics).
      '(?<!複)数(?!学)',
    ),
  ],
];

const PERSONAL_NAME = anyOf(
  String.raw`\b(?:full|legal|given|family|first|last|middle|your|preferred)\s+name\b`, String.raw`\bsurname\b`, String.raw`\bforename\b`,
  '氏名', 'フルネーム', '姓名', '苗字', '名字', 'お名前',
);
const ANY_NAME_EN = /\bnames?\b/i;
// "Company name", "names of the tools": names, but not of a person.
const NAMED_THINGS =
  'company project product organi[sz]ation team school university college business brand file user pet app event course program ' +
  'department store shop street domain account group club band book game employer job role position';
const ORG_NAME_EN = anyOf(
  String.raw`\b(?:${NAMED_THINGS.trim().split(/\s+/).join('|')})(?:'s)?\s+names?\b`,
  String.raw`\bnames? of\b(?! (?:the |your )?(?:person|respondent|applicant|candidate|contact))`,
);
const ORG_NAME_JA = /(?:会社|学校|大学|企業|団体|製品|商品|プロジェクト|チーム|部署|店舗?|サービス|組織|勤務先|職場)の?名/;

/**
 * Decides what kind of value a fact asks for, from keywords in its key
 * (camelCase and snake_case split), description and done criteria — and,
 * unless told otherwise, the field's label and intent — in English and
 * Japanese. Anything unrecognised is `text`.
 */
export function classifyFact(fact: FactWords, field: FieldWords, options: ClassifyOptions = {}): FactType {
  const own = typeOf(factTexts(fact));
  if (own !== 'text' || options.fieldContext === false) return own;
  return typeOf([field.label, field.intent ?? '']);
}

/** The fact's own words: its key split into words, its description and its criteria. */
export function factTexts(fact: FactWords): string[] {
  return [splitKey(fact.factKey), fact.fact, fact.doneCriteria];
}

function typeOf(texts: string[]): FactType {
  for (const [type, pattern] of RULES) if (texts.some((t) => pattern.test(t))) return type;
  return texts.some(isPersonalName) ? 'name' : 'text';
}

function isPersonalName(text: string): boolean {
  if (PERSONAL_NAME.test(text)) return true;
  if (ANY_NAME_EN.test(text) && !ORG_NAME_EN.test(text)) return true;
  return /名前/.test(text) && !ORG_NAME_JA.test(text);
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
  return texts.some((t) => /date of birth|birth ?date|birthday|\bdob\b|\bborn\b|生年月日|誕生日|生まれ/i.test(t));
}

// "Why", "describe", "理由", "経験": the fact wants a description, not a word or two.
const DESCRIPTIVE = anyOf(
  String.raw`\b(?:why|reasons?|describe|description|explain|explanation|motivation|motivated|experiences?|background|elaborate)\b`,
  String.raw`\b(?:goals?|expectations?|story|situation|achievements?|challenges?|examples?|how (?:do|did|would|will|could))\b`,
  '理由', '動機', 'なぜ', 'どうして', '説明', '詳しく', '具体的', '経験', '背景', 'エピソード', '目標', 'きっかけ', 'どのように', '意気込み', '抱負',
);

// "Any allergies?", "その他あれば": "none" is a full answer.
const EXISTENCE = anyOf(
  String.raw`\b(?:any|anything|whether|if any|do you have|have you|are there|is there|other|additional|else|restrictions?|allerg\w*)\b`,
  '有無', 'あれば', 'ありますか', 'ある場合', 'あるか', 'その他', '他に', 'ほかに', '特記', '備考', 'アレルギー', '制限',
);

/**
 * A free-text fact that needs a description rather than a word or two
 * ("why", "describe", "理由", "経験"): judged with the higher content threshold.
 */
export function asksForDescription(texts: string[]): boolean {
  return texts.some((t) => DESCRIPTIVE.test(t));
}

/**
 * A fact asking whether something exists ("any allergies?", "その他あれば"), so
 * "none" / "なし" is a complete answer rather than a refusal.
 */
export function asksWhetherAny(texts: string[]): boolean {
  return texts.some((t) => EXISTENCE.test(t));
}
