import { en, ja, NOT_TECH, YOUR } from './topic-patterns.js';
import type { ProhibitedTopic } from './topic-types.js';

/**
 * The US Equal Employment Opportunity Commission's prohibited pre-employment
 * inquiries: age, race and colour, national origin and citizenship beyond
 * work authorization, disability and medical questions, sex / sexual
 * orientation / gender identity, marital status, children and pregnancy,
 * genetic information (religion is with the MHLW topics, listed by both).
 * Guards against lawful look-alikes are commented.
 */

const age: ProhibitedTopic = {
  id: 'age',
  label: { en: 'age / date of birth', ja: '年齢・生年月日' },
  source: 'eeoc',
  aliases: ['age', 'date of birth', 'birth date', 'birthdate', 'birthday', 'dob', '年齢', '生年月日', '誕生日'],
  patterns: {
    en: [
      // Whether an applicant meets a legal minimum age may be asked ("at least 18 years old").
      en(
        String.raw`how old`,
        String.raw`${YOUR} age`,
        String.raw`(?:what|which) age`,
        String.raw`age (?:group|range|bracket)`,
        String.raw`(?<!(?:at least|over|above|older than|under|younger than) )\d{1,3} ?(?:years?|yrs?)[ -]old`,
        String.raw`(?<!(?:at least|over|above|older than|under|younger than) \d{1,3} )years (?:old|of age)`,
        String.raw`dates? of birth`,
        String.raw`birth ?dates?`,
        String.raw`birthdays?`,
        String.raw`dob`,
        String.raw`year of birth`,
        String.raw`(?:when|what year) (?:were you|you were) born`,
        String.raw`born (?:in|on)(?=\s+(?:\d|the \d|january|february|march|april|may|june|july|august|september|october|november|december))`,
        String.raw`(?:high school|hs) graduation (?:year|date)`,
        String.raw`(?:when|what year|which year) (?:did|were) you graduat\w*(?: from)? high school`,
        String.raw`how young`,
        String.raw`(?:are you|i am|i'm) (?:over|under|above|older than|younger than) (?!1[5-9]\b|2[01]\b)(?:\d{2}|forty|fifty|sixty)`,
        String.raw`(?:too )?(?:old|young) for (?:this|the) (?:job|role|position)`,
        String.raw`plan(?:ning)? to retire`,
        String.raw`retirement plans?`,
      ),
    ],
    ja: [
      ja(
        '年齢',
        '年令',
        '何歳',
        'おいくつ',
        '生年月日',
        '誕生日',
        '生まれ年',
        '何年生まれ',
        '\\d{2,4}年生まれ',
        '(?:昭和|平成|令和)[\\d一二三四五六七八九十元]+年生まれ',
        '干支',
        '\\d{1,3}歳(?:です|でした|になり|だ|。|、)',
        '(?:現在|今年|今)\\s?\\d{1,3}歳',
      ),
    ],
  },
};

const race: ProhibitedTopic = {
  id: 'race',
  label: { en: 'race / colour', ja: '人種・肌の色' },
  source: 'eeoc',
  aliases: ['race', 'colour', 'color', 'skin color', 'skin colour', '人種', '肌の色'],
  patterns: {
    en: [
      // "race condition" and "data race" are concurrency bugs.
      en(
        String.raw`${YOUR} race`,
        String.raw`(?:what|which) race`,
        String.raw`race(?: or |\/| and )(?:ethnicity|colou?r|national origin)`,
        String.raw`racial(?:ly)?`,
        String.raw`skin (?:colou?r|tone)`,
        String.raw`(?:colou?r|tone) (?:of|is) ${YOUR} skin`,
        String.raw`complexion`,
        String.raw`caucasian`,
        String.raw`african[- ]americans?`,
        String.raw`(?:are you|i am|i'm) (?:an? )?(?:black|white|asian|hispanic|latino|latina|caucasian|mixed[- ]race|biracial)`,
      ),
    ],
    ja: [ja('人種', '肌の色', '白人', '黒人', '混血')],
  },
};

const nationalOrigin: ProhibitedTopic = {
  id: 'national_origin',
  label: { en: 'national origin / ethnicity / citizenship (beyond work authorization)', ja: '国籍・民族・出身国（就労資格の確認を除く）' },
  source: 'eeoc',
  aliases: ['national origin', 'nationality', 'ethnicity', 'citizenship', 'ancestry', '国籍', '民族', '出身国'],
  patterns: {
    en: [
      // Work authorization may be asked ("Are you authorized to work in Japan?", visa, work permit).
      en(
        String.raw`nationalit(?:y|ies)`,
        String.raw`national origins?`,
        String.raw`ethnic(?:ity|ities|ally)?`,
        String.raw`ancestr(?:y|al)`,
        String.raw`ancestors?`,
        String.raw`citizenship`,
        String.raw`citizens? of`,
        String.raw`(?:are you|i am|i'm|is he|is she) an? (?:[a-z.]+ )?citizen`,
        String.raw`(?:native|mother) (?:language|tongue|country)`,
        String.raw`${YOUR} first language`,
        String.raw`(?:home|native) country`,
        String.raw`country of (?:origin|citizenship)`,
        String.raw`where are you (?:originally |really )?from`,
        String.raw`(?:which|what) country (?:are you|do you come) from`,
        String.raw`immigra(?:nt|nts|ted|tion status)`,
        String.raw`${YOUR} accent`,
      ),
    ],
    ja: [
      ja(
        '国籍',
        '出身国',
        '母国',
        '母語',
        '民族',
        'ルーツ',
        '祖国',
        '帰化',
        '在日',
        '何系',
        '(?:何|どこの)国の(?:方|人|出身)',
        '外国人(?:ですか|の方)',
        '日本人(?:ですか|でしょうか)',
      ),
    ],
  },
};

const disabilityHealth: ProhibitedTopic = {
  id: 'disability_health',
  label: { en: 'disability / health / medical conditions', ja: '障害・健康状態・病歴' },
  source: 'eeoc',
  aliases: [
    'disability',
    'disabilities',
    'health',
    'medical conditions',
    'medical history',
    'illness',
    '障害',
    '障がい',
    '健康',
    '健康状態',
    '病歴',
    '持病',
  ],
  patterns: {
    en: [
      // Whether the applicant can do the job "with or without reasonable accommodation" may be asked.
      en(
        String.raw`disabilit(?:y|ies)`,
        String.raw`disabled`,
        String.raw`handicap(?:ped|s)?`,
        String.raw`impairments?`,
        String.raw`impaired`,
        String.raw`(?:medical|health|mental health|psychiatric) (?:conditions?|history|records?|problems?|issues?|status|treatments?|leave)`,
        String.raw`mental (?:health|illness|disorders?)`,
        String.raw`chronic (?:illness|disease|conditions?|pain)`,
        String.raw`illness(?:es)?`,
        String.raw`diseases?`,
        String.raw`are you healthy`,
        String.raw`in good health`,
        String.raw`${YOUR} health`,
        String.raw`sick (?:days|leave)`,
        String.raw`(?:were you|been|are you) sick`,
        String.raw`medications?`,
        String.raw`prescription (?:drugs?|medications?)`,
        String.raw`(?:take|taking) (?:any )?(?:medicine|drugs)`,
        String.raw`surger(?:y|ies)`,
        String.raw`hospitali[sz](?:ed|ation)`,
        String.raw`workers'? comp(?:ensation)?`,
        String.raw`hiv`,
        String.raw`cancer`,
        String.raw`diabet(?:es|ic)`,
        String.raw`depression`,
        String.raw`anxiety disorder`,
        String.raw`adhd`,
        String.raw`autis(?:m|tic)`,
        String.raw`wheelchair`,
        String.raw`(?:are you|i am|i'm) (?:blind|deaf)`,
        String.raw`(?:previous|past|work|workplace|any) injur(?:y|ies)`,
        String.raw`(?:in|seeing a|undergoing) (?:therapy|therapist)`,
        String.raw`physical (?:limitations?|condition|health)`,
      ),
    ],
    ja: [
      ja(
        '障がい',
        '障碍',
        '持病',
        '病歴',
        '既往',
        '病気',
        '疾患',
        '疾病',
        '通院',
        '服薬',
        '投薬',
        '服用',
        '入院',
        '手術(?!支援|用|ロボ|器具|室|機器|ナビ)',
        '健康(?:状態|上|面|診断|ですか|でしょうか|に(?:問題|不安))',
        'うつ病',
        '心療内科',
        '精神科',
        '診断(?:書|名|を受け)',
        '労災',
        '車椅子',
        '車いす',
        // "障害" is also an IT incident ("障害対応", "システム障害", "大きな障害"): those are about systems.
        '(?<!システム|サーバー?|ネットワーク|本番|通信|回線|機器|設備|電源|大規模|重大|ハードウェア|ソフトウェア|アプリ|サービス|データベース|DB|大きな|重大な|深刻な|致命的な|大規模な)障害(?!対応|発生|復旧|時|対策|切り分け|調査|報告|検知|監視|管理|試験|耐性|訓練|件数|分析|解析|票|ログ|点|箇所|原因|影響|情報|通知|予防|回避|が(?:発生|起き|起こ)|を(?:起こ|解決|復旧)|の(?:原因|影響|対応|発生|復旧))',
      ),
    ],
  },
};

const sexGender: ProhibitedTopic = {
  id: 'sex_gender',
  label: { en: 'sex / sexual orientation / gender identity', ja: '性別・性的指向・性自認' },
  source: 'eeoc',
  aliases: ['sex', 'gender', 'sexual orientation', 'gender identity', '性別', '性的指向', '性自認'],
  patterns: {
    en: [
      en(
        String.raw`sex`,
        String.raw`sexual(?:ity|ly)?(?!\s+harassment)`,
        String.raw`gender(?:s)?(?!\s+(?:neutral|inclusive|equality|equity|balance|diversity|gap|pay gap|parity))`,
        String.raw`male or female`,
        String.raw`female or male`,
        String.raw`(?:a )?man or (?:a )?woman`,
        String.raw`(?:are you|i am|i'm) (?:a )?(?:man|woman|male|female)`,
        String.raw`gay`,
        String.raw`lesbians?`,
        String.raw`bisexual`,
        String.raw`transgender`,
        String.raw`trans (?:man|woman|person)`,
        String.raw`queer`,
        String.raw`LGBT\w*`,
        String.raw`non-?binary`,
        String.raw`(?:hetero|homo)sexual`,
      ),
    ],
    // Katakana words must stand alone: "ゲイ" is not "ゲイン" (gain).
    ja: [
      ja(
        '性別',
        '性的(?:指向|嗜好|少数者)',
        '性自認',
        '性同一性',
        '同性愛',
        '異性愛',
        '(?<![ァ-ヶー])ゲイ(?![ァ-ヶー])',
        'レズビアン',
        'バイセクシュアル',
        'トランスジェンダー',
        '男性(?:ですか|でしょうか|か女性)',
        '女性(?:ですか|でしょうか|か男性)',
        '男か女',
        '恋愛対象',
      ),
    ],
  },
};

const maritalStatus: ProhibitedTopic = {
  id: 'marital_status',
  label: { en: 'marital status', ja: '婚姻状況' },
  source: 'eeoc',
  aliases: ['marital status', 'marriage', 'married', 'spouse', '婚姻状況', '結婚', '既婚', '配偶者', '未既婚'],
  patterns: {
    en: [
      // "single page app" and "engaged in a project" are not about marriage.
      en(
        String.raw`married`,
        String.raw`marriages?`,
        String.raw`marital`,
        String.raw`spouses?`,
        String.raw`husbands?`,
        String.raw`wi(?:fe|ves)`,
        String.raw`divorce[ds]?`,
        String.raw`widow(?:ed|er)?`,
        String.raw`fianc[ée]e?`,
        String.raw`(?:are you|i am|i'm|still) single`,
        String.raw`(?:are you|i am|i'm|got|getting|recently) engaged`,
        String.raw`(?:girl|boy)friends?`,
        String.raw`(?:life|domestic) partners?`,
        String.raw`maiden name`,
        String.raw`(?:relationship|civil) status`,
        String.raw`in a relationship`,
        String.raw`weddings?`,
      ),
    ],
    // "工夫" (ingenuity) and "大丈夫" (fine) contain 夫.
    ja: [
      ja(
        '結婚',
        '既婚',
        '未婚',
        '独身',
        '婚姻',
        '配偶者',
        '入籍',
        '離婚',
        '婚約',
        '再婚',
        '恋人',
        '彼氏',
        '交際(?:相手|している|中)',
        '奥(?:様|さん|さま)',
        '旦那',
        'ご主人',
        '(?<![工丈凡])夫(?:婦|妻|の|は|が|と|も|を|に|様|さん|です)',
        '(?<!稲)妻(?:の|は|が|と|も|を|に|です)',
        'お嫁',
        'シングル(?:マザー|ファーザー)',
      ),
    ],
  },
};

const children: ProhibitedTopic = {
  id: 'children_family_planning',
  label: { en: 'children / family planning / pregnancy', ja: '子ども・出産予定・妊娠' },
  source: 'eeoc',
  aliases: [
    'children',
    'kids',
    'family planning',
    'pregnancy',
    'pregnant',
    'childcare',
    '子ども',
    '子供',
    '妊娠',
    '出産',
    '出産予定',
    '育児',
  ],
  patterns: {
    en: [
      en(
        String.raw`${YOUR} (?:kids?|child|children|sons?|daughters?|bab(?:y|ies)|toddlers?)${NOT_TECH}`,
        String.raw`(?:have|has|having|had) (?:any |a |no |one |two |three |four |\d+ )?(?:kids|children|child|bab(?:y|ies))${NOT_TECH}`,
        String.raw`how many (?:kids|children)`,
        String.raw`pregnan(?:t|cy|cies)`,
        String.raw`expecting (?:a baby|a child)`,
        String.raw`(?:maternity|paternity|parental) leave`,
        String.raw`family planning`,
        String.raw`plan(?:s|ning)? (?:to|on) (?:have|having|start|starting) (?:a |any )?(?:family|kids|children|baby|babies)`,
        String.raw`start(?:ing)? a family`,
        String.raw`child ?care`,
        String.raw`day ?care`,
        String.raw`babysit\w*`,
        String.raw`nann(?:y|ies)`,
        String.raw`(?:single|working) (?:mom|mother|dad|father|parent)`,
        String.raw`(?:are you|i'm|i am) a (?:mom|mother|dad|father|parent)`,
        String.raw`(?:have|has|having) (?:a |any )?family(?![- ]friendly)`,
        String.raw`plans? (?:for|of having) (?:kids|children|a family|a baby)`,
        String.raw`are you expecting(?!\s+\w)`,
        String.raw`grandchildren`,
      ),
    ],
    // "子ども向け" (for children) describes a product, not the applicant.
    ja: [
      ja(
        'お子(?:さん|様|さま)',
        '子(?:ども|供)(?!向け|用|服)',
        'こども(?!向け|用)',
        '子育て',
        '育児',
        '妊娠',
        '妊活',
        '出産',
        '産休',
        '育休',
        '産前産後',
        '保育(?:園|所)',
        '託児',
        '子持ち',
        '息子',
        '娘',
        '赤ちゃん',
        '家族計画',
        'つわり',
        '授乳',
        'ワーママ',
        '第[一二三1-9]子',
      ),
    ],
  },
};

const genetic: ProhibitedTopic = {
  id: 'genetic_information',
  label: { en: 'genetic information / family medical history', ja: '遺伝情報・家族の病歴' },
  source: 'eeoc',
  aliases: ['genetic information', 'genetics', 'family medical history', 'dna', '遺伝情報', '遺伝', '家族の病歴'],
  patterns: {
    en: [
      en(
        String.raw`genetic(?:s|ally)?(?!\s+(?:algorithms?|programming))`,
        String.raw`dna`,
        String.raw`hereditary`,
        String.raw`inherited (?:diseases?|conditions?|disorders?)`,
        String.raw`family (?:medical|health) histor(?:y|ies)`,
        String.raw`genomes?`,
      ),
    ],
    ja: [ja('遺伝(?!的アルゴリズム)', '家族歴', '家族の(?:病歴|既往|病気|健康)', 'ゲノム')],
  },
};

/**
 * The built-in topics: MHLW's fair-recruitment list, then the EEOC's
 * pre-employment inquiries that it does not already cover. Religion is on
 * both lists.
 */

/** The EEOC topics not already on the MHLW list. */
export const EEOC_TOPICS: readonly ProhibitedTopic[] = [
  age,
  race,
  nationalOrigin,
  disabilityHealth,
  sexGender,
  maritalStatus,
  children,
  genetic,
];
