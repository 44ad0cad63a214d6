import { en, ja, NOT_ORG, YOUR } from './topic-patterns.js';
import type { ProhibitedTopic } from './topic-types.js';

/**
 * Japan's Ministry of Health, Labour and Welfare, 「公正な採用選考の基本」:
 * matters not related to aptitude and ability (本籍・出生地, 家族, 住宅状況,
 * 生活環境・家庭環境) and matters of free thought and belief (宗教, 支持政党,
 * 人生観・生活信条, 尊敬する人物, 思想, 労働組合・学生運動など社会運動,
 * 購読新聞・雑誌・愛読書). Guards against lawful look-alikes are commented.
 */

const birthplace: ProhibitedTopic = {
  id: 'birthplace',
  label: { en: 'birthplace / family register', ja: '本籍・出生地' },
  source: 'mhlw',
  aliases: [
    'birthplace',
    'place of birth',
    'birth place',
    'hometown',
    'family register',
    'honseki',
    'domicile',
    '本籍',
    '出生地',
    '出身地',
    '本籍地',
    '戸籍',
  ],
  patterns: {
    en: [
      en(
        String.raw`where (?:were|was) you born`,
        String.raw`where you were born`,
        String.raw`(?:place|city|country|town|prefecture) of (?:your )?birth`,
        String.raw`birth ?place`,
        String.raw`birth ?town`,
        String.raw`home ?towns?`,
        String.raw`where (?:did|do) you (?:grow up|come from)`,
        String.raw`(?:which|what) (?:city|town|country|prefecture|state|region) (?:were|was) you born`,
        // "born in Osaka" is a birthplace; "born in 1990" is an age (below).
        String.raw`born (?:and raised )?in(?=\s+[^\s\d])`,
        String.raw`grew up in`,
        String.raw`family register`,
        String.raw`koseki`,
        String.raw`honseki`,
        String.raw`registered domicile`,
      ),
    ],
    ja: [
      ja(
        '本籍',
        '出生地',
        '出身(?:地|県|都道府県|市|町|村)',
        '戸籍',
        '同和',
        '部落',
        '故郷',
        'ふるさと',
        '地元(?:は|はどこ|はどちら)',
        // "ご出身大学" asks about education, which may be asked.
        'ご出身(?![^。？?、]{0,8}(?:大学|高校|学校|学部|校))',
        '出身(?:は|はどこ|はどちら)(?![^。？?、]{0,8}(?:大学|高校|学校|学部|校))',
        'お生まれ(?!年|日)',
        'どこで生まれ',
        '生まれ育',
        '(?<![年月日歳])生まれ(?:は|です|で[、。]|の方|た(?:場所|所|ところ|土地|町|街|県|国|地))',
      ),
    ],
  },
};

const family: ProhibitedTopic = {
  id: 'family',
  label: {
    en: 'family (occupation, relationship, health, status, education, income, assets)',
    ja: '家族に関すること（職業・続柄・健康・地位・学歴・収入・資産など）',
  },
  source: 'mhlw',
  aliases: [
    'family',
    'families',
    'family members',
    'family background',
    'parents',
    'relatives',
    '家族',
    '家族構成',
    '両親',
    '親族',
    '家族に関すること',
  ],
  patterns: {
    en: [
      // "family name" is a name, asked on any form.
      en(
        String.raw`${YOUR} (?:(?:parents?|siblings?|brothers?|sisters?)${NOT_ORG}|father|mother|dad|mom|mum|relatives|grandparents?|grandfather|grandmother|in-laws|family(?!\s+names?\b))`,
        String.raw`family (?:members?|background|business|income|occupation|situation|status|circumstances|structure|wealth|assets|life|environment)`,
        String.raw`(?:parents'?|father'?s|mother'?s) (?:occupations?|jobs?|work|income|education|employers?|background)`,
        String.raw`what do ${YOUR} parents do`,
        String.raw`(?:how many|any) (?:siblings|brothers|sisters)`,
        String.raw`household income`,
        String.raw`next of kin`,
        String.raw`anyone in ${YOUR} family`,
      ),
    ],
    ja: [
      ja(
        '家族',
        '両親',
        '父親',
        '母親',
        'お父(?:様|さま|さん)',
        'お母(?:様|さま|さん)',
        '父上',
        '母上',
        '兄弟',
        '姉妹',
        'きょうだい',
        '祖父',
        '祖母',
        '親族',
        '親戚',
        '続柄',
        '家業',
        '親御さん',
        '親の(?:職業|仕事|勤務先|学歴|収入|年収|資産|地位|会社)',
        '世帯(?:年収|収入)',
        '実家',
      ),
    ],
  },
};

const housing: ProhibitedTopic = {
  id: 'housing',
  label: { en: 'housing (type, rooms, neighbourhood)', ja: '住宅状況（間取り・部屋数・住宅の種類・近隣の施設など）' },
  source: 'mhlw',
  aliases: ['housing', 'housing situation', 'home ownership', 'residence type', '住宅状況', '住宅', '住居', '持ち家', '間取り'],
  patterns: {
    en: [
      en(
        String.raw`(?:own|rent) (?:or (?:rent|own) )?(?:your|a|the) (?:home|house|apartment|flat|place|condo)`,
        String.raw`(?:rent|own) or (?:rent|own)`,
        String.raw`home ?own(?:er|ers|ership)`,
        String.raw`mortgages?`,
        String.raw`how many (?:rooms|bedrooms)`,
        String.raw`(?:number|size) of (?:rooms|bedrooms)`,
        String.raw`(?:type|kind) of (?:housing|home|house|residence|dwelling|accommodation)`,
        String.raw`floor ?plan`,
        String.raw`housing (?:situation|type|status)`,
        String.raw`do you live in an? (?:apartment|house|flat|condo|dorm|detached house)`,
        String.raw`${YOUR} (?:neighbou?rhood|landlord|rent)`,
        String.raw`nearby facilities`,
        String.raw`public housing`,
      ),
    ],
    ja: [
      ja(
        '持ち家',
        '持家',
        '賃貸',
        '借家',
        '公営住宅',
        '団地',
        '間取り',
        '部屋数',
        '(?:住宅|住居|住まい)の(?:種類|形態|状況)',
        '住宅状況',
        '一戸建て',
        '戸建て',
        '分譲',
        '(?:マンション|アパート)(?:に住|住まい|暮らし)',
        '住宅ローン',
        '家賃',
        '近(?:隣|所)の施設',
        '自宅(?:の)?(?:周辺|付近|近く)',
        '住環境',
      ),
    ],
  },
};

const homeEnvironment: ProhibitedTopic = {
  id: 'home_environment',
  label: { en: 'living and home environment', ja: '生活環境・家庭環境' },
  source: 'mhlw',
  aliases: [
    'home environment',
    'living environment',
    'living situation',
    'home life',
    'household',
    '生活環境',
    '家庭環境',
    '家庭',
    '生活環境・家庭環境',
  ],
  patterns: {
    en: [
      en(
        String.raw`home (?:life|environment|situation)`,
        String.raw`living (?:situation|arrangements?|environment|conditions)`,
        String.raw`who do you live with`,
        String.raw`live (?:alone|by yourself|by myself|with (?:your |my )?(?:parents|family|partner|someone|anyone|roommates?))`,
        String.raw`upbringing`,
        String.raw`(?:how|where) (?:were you|you were) (?:raised|brought up)`,
        String.raw`households?`,
      ),
    ],
    ja: [
      // "家庭用" (for home use) and "家庭教師" (tutor) are not the applicant's home.
      ja(
        '家庭環境',
        '生活環境',
        '家庭(?!用|教師|菜園|科)',
        '同居',
        '一人暮らし',
        'ひとり暮らし',
        '独り暮らし',
        '誰と(?:住|暮ら|一緒に住)',
        '実家暮らし',
        '生い立ち',
        '育った環境',
        '母子家庭',
        '父子家庭',
      ),
    ],
  },
};

const religion: ProhibitedTopic = {
  id: 'religion',
  label: { en: 'religion', ja: '宗教' },
  source: 'mhlw',
  alsoListedBy: ['eeoc'],
  aliases: ['religion', 'religions', 'religious beliefs', 'faith', 'creed of religion', '宗教', '信仰', '宗派'],
  patterns: {
    en: [
      en(
        String.raw`religions?`,
        String.raw`religious(?:ly)?`,
        String.raw`(?<!good |bad )faiths?`,
        String.raw`church(?:es)?`,
        String.raw`mosques?`,
        String.raw`synagogues?`,
        String.raw`temples?`,
        String.raw`shrines?`,
        String.raw`pray(?:s|ed|ing|er|ers)?`,
        String.raw`worship(?:s|ped|ping)?`,
        String.raw`sabbath`,
        String.raw`(?:muslim|buddhist|hindu|catholic|protestant|atheist|agnostic|mormon|sikh|evangelical)s?`,
        String.raw`jewish`,
        String.raw`islam(?:ic)?`,
        String.raw`judaism`,
        String.raw`christianity`,
        String.raw`buddhism`,
        String.raw`hinduism`,
        String.raw`shinto(?:ism)?`,
        String.raw`(?:believe in|pray to) (?:a )?god`,
        String.raw`holidays? (?:do|would|will) you observe`,
        String.raw`observe (?:any |the )?(?:religious )?holidays?`,
        String.raw`bible`,
        String.raw`quran|koran`,
      ),
      // Case-sensitive: "Christian Müller" is a name, "a devout Christian and…" is not.
      /\b[Cc]hristians?\b(?!\s+\p{Lu}\p{Ll})/gu,
    ],
    ja: [
      ja(
        '宗教',
        '信仰',
        '宗派',
        '宗旨',
        '信者',
        '信徒',
        '教会',
        '礼拝',
        '入信',
        '布教',
        '仏教',
        'キリスト教',
        'イスラム',
        'ヒンドゥー',
        'ユダヤ教',
        '神道',
        '創価',
        '教団',
        'お祈り',
        '寺院',
        'お寺',
        '檀家',
        '神社',
        '信心',
        'クリスチャン',
        'ムスリム',
        '聖書',
      ),
    ],
  },
};

const politicalParty: ProhibitedTopic = {
  id: 'political_party',
  label: { en: 'supported political party', ja: '支持政党' },
  source: 'mhlw',
  aliases: ['political party', 'political parties', 'party affiliation', 'politics', 'voting', '支持政党', '政党', '政治'],
  patterns: {
    en: [
      en(
        String.raw`political (?:part(?:y|ies)|affiliations?)`,
        String.raw`(?:which|what) (?:political )?party do you (?:support|vote|belong)`,
        String.raw`vote[ds]? for`,
        String.raw`do you vote`,
        String.raw`who (?:did|do|will|would) you vote`,
        String.raw`voting (?:for|preferences?|record|history)`,
        String.raw`(?:democrats?|republicans?|democratic party|republican party|conservative party|labour party|liberal democratic party|LDP)`,
        // "office politics" is about working with people.
        String.raw`(?<!office |company |workplace |internal )politics`,
        String.raw`(?:left|right)[- ]wing`,
        String.raw`liberal or conservative`,
      ),
    ],
    ja: [
      ja(
        '支持政党',
        '政党',
        '支持する党',
        '(?:自民|立憲民主|共産|公明|国民民主|社民|参政|民主)党',
        '維新の会',
        'れいわ新選組',
        '投票(?:先|した|する|しました|に行)',
        '選挙',
        '(?<!社内)政治(?!家)',
      ),
    ],
  },
};

const lifePhilosophy: ProhibitedTopic = {
  id: 'life_philosophy',
  label: { en: 'outlook on life / personal creed', ja: '人生観・生活信条' },
  source: 'mhlw',
  aliases: [
    'outlook on life',
    'philosophy of life',
    'life philosophy',
    'personal creed',
    'motto',
    '人生観',
    '生活信条',
    '座右の銘',
    '人生観・生活信条',
  ],
  patterns: {
    en: [
      en(
        String.raw`(?:philosophy|outlook|view) (?:of|on) life`,
        String.raw`life philosoph(?:y|ies)`,
        String.raw`(?:personal|life) (?:creed|motto|philosophy)`,
        String.raw`${YOUR} motto`,
        String.raw`creed`,
        String.raw`words (?:you live|to live|I live) by`,
        String.raw`meaning of life`,
        String.raw`what do you live for`,
        String.raw`purpose (?:in|of) (?:your |my )?life`,
        String.raw`values in life`,
      ),
    ],
    ja: [
      ja(
        '人生観',
        '生活信条',
        '(?<!思想)信条',
        '座右の銘',
        '人生哲学',
        '人生の(?:目的|意味|指針|モットー|価値観)',
        '生き方',
        '生きがい',
        '生き甲斐',
        'モットー',
        '死生観',
        '人生で大切に',
      ),
    ],
  },
};

const respectedPerson: ProhibitedTopic = {
  id: 'respected_person',
  label: { en: 'person you respect most', ja: '尊敬する人物' },
  source: 'mhlw',
  aliases: ['respected person', 'person you respect', 'role model', 'hero', '尊敬する人物', '尊敬する人', 'ロールモデル'],
  patterns: {
    en: [
      en(
        String.raw`(?:who|which person) (?:do|would|did) you (?:most )?(?:respect|admire|look up to)`,
        String.raw`(?:person|people|figure|someone) (?:you|that you|whom you|I) (?:most )?(?:respect|admire|look up to)`,
        String.raw`(?:most )?(?:respected|admired) (?:person|people|figures?)`,
        String.raw`role models?`,
        String.raw`${YOUR} (?:heroe?s?|idols?)`,
        String.raw`who inspires you`,
        String.raw`look up to`,
      ),
    ],
    ja: [
      ja(
        '尊敬(?:する|して|できる|の念)',
        '憧れ(?:の|ている)(?:人|人物|方)',
        '目標と(?:する|している)(?:人|人物|方)',
        'ロールモデル',
        '偉人',
      ),
    ],
  },
};

const beliefs: ProhibitedTopic = {
  id: 'beliefs',
  label: { en: 'thought and beliefs', ja: '思想' },
  source: 'mhlw',
  aliases: ['beliefs', 'ideology', 'thought', 'political beliefs', 'political views', '思想', '思想信条', 'イデオロギー'],
  patterns: {
    en: [
      en(
        String.raw`ideolog(?:y|ies|ical)`,
        String.raw`political (?:views?|beliefs?|opinions?|leanings?|stance|orientation|positions?)`,
        String.raw`${YOUR} beliefs`,
        String.raw`what do you believe in`,
        String.raw`world ?views?`,
        String.raw`(?:communis|socialis|anarchis|fascis|marxis)(?:m|ts?)`,
      ),
    ],
    // "設計思想" (design philosophy) is about a system.
    ja: [
      ja(
        '(?<!設計|開発|デザイン|技術|経営|製品|プロダクト|アーキテクチャ)思想',
        '主義主張',
        'イデオロギー',
        '政治的(?:な)?(?:信条|立場|考え|意見|見解)',
        '共産主義',
        '社会主義',
      ),
    ],
  },
};

const socialMovement: ProhibitedTopic = {
  id: 'social_movement',
  label: { en: 'labour unions and student or social movements', ja: '労働組合・学生運動など社会運動' },
  source: 'mhlw',
  aliases: [
    'labor union',
    'labour union',
    'trade union',
    'union',
    'unions',
    'social movement',
    'student movement',
    'activism',
    '労働組合',
    '学生運動',
    '社会運動',
    '組合',
  ],
  patterns: {
    en: [
      // Plain "union" is too often the European Union or a type union.
      en(
        String.raw`(?:labou?r|trade|workers'?) unions?`,
        String.raw`union (?:members?(?:hip)?|activit(?:y|ies)|dues|organi[sz]ing|rep(?:resentative)?s?)`,
        String.raw`(?:join(?:ed)?|belong(?:ed)? to|member of) (?:a |the |any )?unions?`,
        String.raw`unioni[sz](?:e|ed|ing|ation)`,
        String.raw`student (?:movements?|activism|protests?)`,
        String.raw`social movements?`,
        String.raw`activis(?:m|ts?)`,
        String.raw`protest(?:s|ed|ing|ers?)?`,
        String.raw`(?:political|street) (?:demonstrations?|rall(?:y|ies))`,
        String.raw`picket(?:s|ed|ing)?`,
        String.raw`(?:go|went|gone|going) on strike`,
      ),
    ],
    // "デモ" alone is a product demo.
    ja: [
      ja(
        '労働組合',
        '労組',
        '組合(?:活動|員|に加入|運動)',
        'ユニオン(?:に加入|活動)',
        '学生運動',
        '社会運動',
        '市民運動',
        '住民運動',
        '政治活動',
        '平和運動',
        '反戦運動',
        '労働運動',
        'デモ(?:活動|行進|に参加)',
        'ストライキ',
        '抗議(?:活動|行動|運動)',
        '活動家',
      ),
    ],
  },
};

const reading: ProhibitedTopic = {
  id: 'reading',
  label: { en: 'newspapers, magazines and favourite books', ja: '購読新聞・雑誌・愛読書' },
  source: 'mhlw',
  aliases: [
    'newspapers',
    'newspaper',
    'magazines',
    'favorite books',
    'favourite books',
    'reading',
    'books',
    '購読新聞',
    '愛読書',
    '購読新聞・雑誌・愛読書',
    '新聞',
    '雑誌',
  ],
  patterns: {
    en: [
      en(
        String.raw`(?:which|what) (?:newspapers?|magazines?|papers)`,
        String.raw`(?:newspapers?|magazines?) (?:do|did) you (?:read|subscribe|take)`,
        String.raw`(?:read|reads|subscribe to|take) (?:a |any |the )?(?:newspapers?|magazines?)`,
        String.raw`subscri(?:be|ption) to (?:a |any |the )?(?:newspapers?|magazines?|periodicals?)`,
        String.raw`favou?rite (?:books?|authors?|novels?|newspapers?|magazines?|writers?|reads?)`,
        String.raw`(?:books?|novels?) (?:do|did) you (?:like|love|enjoy|read)`,
        String.raw`(?:what|which) (?:books?|novels?) (?:are you reading|have you read|do you read)`,
        String.raw`what are you reading`,
        String.raw`read(?:ing)? habits`,
      ),
    ],
    ja: [
      ja(
        '購読',
        '愛読',
        '好きな(?:本|作家|書籍|小説|雑誌|新聞|漫画)',
        '新聞(?:を|は)?(?:何|どの|どちら|読|購読|取って|とって)',
        '(?:何|どの|どちら)の?新聞',
        '雑誌(?:を|は)?(?:何|どの|読|購読)',
        '(?:何|どの)の?雑誌',
        'よく読む(?:本|新聞|雑誌)',
        '最近読んだ本',
      ),
    ],
  },
};

/** The MHLW topics, in the guidance's order. */
export const MHLW_TOPICS: readonly ProhibitedTopic[] = [
  birthplace,
  family,
  housing,
  homeEnvironment,
  religion,
  politicalParty,
  lifePhilosophy,
  respectedPerson,
  beliefs,
  socialMovement,
  reading,
];
