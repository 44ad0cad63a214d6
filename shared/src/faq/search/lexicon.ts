import { foldKana, type Analyzer } from '../text/analyzer.js';

/**
 * A small, general-purpose bilingual concept lexicon for online-shop customer
 * service, written from general knowledge of the domain (not from any one
 * corpus). It bridges paraphrases that share no word with the FAQ text:
 * "send it as a present" → gift, "お金を返してほしい" → 返金.
 *
 * Each concept lists ways people say it, in Japanese and English. The concept
 * fires when all the words of one member are in the query, and then expands
 * the query to every member, at a reduced weight (see query.ts); a member of
 * several words (代金引換, money back) matches a document holding all of them.
 * Concepts are kept narrow on purpose (return ≠ refund ≠ exchange), because
 * an expansion that is too broad pulls in every FAQ of the shop.
 */
export const CONCEPTS: readonly (readonly string[])[] = [
  // Shipping and delivery
  ['配送', '発送', '配達', '出荷', '宅配', 'お届け', '届ける', 'shipping', 'ship', 'shipment', 'delivery', 'deliver', 'dispatch', 'courier', 'send', '送る'],
  ['送料', '配送料', '配送料金', '送料無料', 'postage', 'shipping fee', 'shipping cost', 'delivery fee', 'delivery charge', 'shipping charge', 'free shipping'],
  ['届く', '到着', '着く', 'arrive', 'arrival', 'receive', '受け取る', '受取'],
  ['追跡', '追跡番号', '配送状況', '荷物状況', '問い合わせ番号', 'tracking', 'track', 'tracking number', 'where is my order', 'where is my package'],
  ['日時指定', '時間指定', '配達日', 'お届け日', '指定日', 'delivery date', 'time slot', 'delivery time', 'schedule delivery'],
  ['住所', '届け先', 'お届け先', '配送先', '送付先', '宛先', 'address', 'shipping address', 'destination'],
  ['海外', '国外', '外国', '国際', '海外発送', 'overseas', 'international', 'abroad', 'foreign', 'worldwide'],
  ['離島', '遠隔地', 'remote area', 'remote island', 'outlying'],
  ['梱包', '箱', '段ボール', 'パッケージ', '包装', 'packaging', 'package', 'packing', 'box', 'parcel'],
  ['置き配', '不在', '再配達', '宅配ボックス', 'redelivery', 'missed delivery', 'not at home', 'leave at door', 'safe place'],
  ['店舗', '店頭', '店頭受取', 'コンビニ受取', 'pickup', 'pick up', 'collect', 'click and collect', 'in store'],
  // Returns, refunds, exchanges, problems
  ['返品', '返却', '返送', '送り返す', '返す', 'return', 'returns', 'send back'],
  ['返金', '払い戻し', '払戻', '払い戻す', 'お金を返す', 'お金が戻る', '返金額', 'refund', 'reimburse', 'reimbursement', 'money back', 'get my money back'],
  ['交換', '取り替え', '取替', '取り換え', '交換品', 'exchange', 'replace', 'replacement', 'swap'],
  ['不良品', '初期不良', '破損', '壊れる', '故障', '傷', '汚れ', '欠陥', 'defective', 'damaged', 'damage', 'broken', 'faulty', 'defect', 'scratch'],
  ['誤配送', '間違い', '違う商品', '注文と違う', 'wrong item', 'incorrect item', 'wrong product', 'not what i ordered'],
  ['不足', '欠品', '足りない', '入っていない', 'missing', 'missing item', 'incomplete'],
  ['保証', '修理', 'アフターサービス', 'メンテナンス', 'warranty', 'guarantee', 'repair'],
  ['期限', '期間', '以内', '締め切り', '締切', 'deadline', 'within', 'time limit', 'period'],
  // Orders
  ['注文', '購入', '買う', '発注', 'オーダー', 'order', 'purchase', 'buy'],
  ['キャンセル', '取り消し', '取消', '取り消す', '注文取消', 'cancel', 'cancellation', 'call off'],
  ['変更', '修正', '訂正', '変える', 'change', 'modify', 'edit', 'amend', 'update'],
  ['予約', '予約注文', '先行予約', 'preorder', 'pre-order', 'reservation', 'backorder'],
  ['在庫', '入荷', '再入荷', '品切れ', '売り切れ', '在庫切れ', 'stock', 'in stock', 'out of stock', 'sold out', 'restock', 'availability', 'inventory'],
  ['定期購入', '定期便', '定期', 'サブスク', 'サブスクリプション', 'subscription', 'subscribe', 'recurring', 'auto-renewal'],
  ['商品', '品物', 'アイテム', '製品', 'product', 'item', 'goods', 'merchandise'],
  ['サイズ', '大きさ', '寸法', 'size', 'dimension', 'measurement', 'fit'],
  // Gifts
  ['ギフト', 'プレゼント', '贈り物', '贈答', '贈る', 'お祝い', 'gift', 'present', 'gifting'],
  ['ラッピング', 'ギフト包装', 'のし', '熨斗', 'メッセージカード', 'wrapping', 'wrap', 'gift wrap', 'gift wrapping', 'gift message', 'message card'],
  // Money and documents
  ['支払い', '支払う', '払う', 'お支払い', '支払方法', '決済', 'payment', 'pay', 'checkout', 'payment method'],
  ['クレジットカード', 'カード', 'クレカ', 'デビットカード', 'credit card', 'card', 'debit card', 'visa', 'mastercard'],
  ['代引き', '代金引換', '着払い', 'cash on delivery', 'cod', 'collect on delivery'],
  ['銀行振込', '振込', '振り込み', '振り込む', 'bank transfer', 'wire transfer', 'bank deposit'],
  ['コンビニ払い', 'コンビニ決済', 'コンビニ', 'convenience store', 'convenience store payment'],
  ['電子マネー', 'キャッシュレス', 'スマホ決済', 'qrコード決済', 'e-wallet', 'mobile payment', 'digital wallet', 'paypal', 'apple pay'],
  ['分割払い', '分割', 'リボ払い', '後払い', 'installment', 'instalment', 'pay later', 'buy now pay later'],
  ['領収書', '領収証', 'レシート', '請求書', 'インボイス', '明細書', '納品書', '適格請求書', 'receipt', 'invoice', 'bill', 'proof of purchase'],
  ['料金', '価格', '値段', '費用', '金額', '代金', 'いくら', 'お金', 'price', 'cost', 'fee', 'charge', 'how much', 'money', 'amount'],
  ['手数料', 'サービス料', 'handling fee', 'service charge', 'commission', 'surcharge'],
  ['消費税', '税込', '税抜', '税金', '関税', 'tax', 'vat', 'sales tax', 'import duty', 'customs duty'],
  ['クーポン', '割引', '値引き', 'セール', 'プロモーションコード', '割引コード', 'クーポンコード', 'coupon', 'discount', 'promo code', 'voucher', 'sale', 'promotion', 'promo'],
  ['ポイント', 'ポイント還元', 'ポイント付与', 'マイル', 'points', 'reward points', 'loyalty points', 'rewards', 'loyalty program'],
  // Account and membership
  ['会員', '会員登録', '新規登録', 'メンバー', 'アカウント作成', 'member', 'membership', 'sign up', 'signup', 'register', 'registration', 'create an account'],
  ['アカウント', 'マイページ', '登録情報', 'プロフィール', 'account', 'profile', 'my page', 'account settings'],
  ['ログイン', 'サインイン', 'ログアウト', 'login', 'log in', 'sign in', 'signin', 'logout'],
  ['パスワード', '暗証番号', 'パスワード再設定', 'password', 'passcode', 'reset password', 'forgot password'],
  ['退会', '解約', '会員登録解除', '登録解除', 'アカウント削除', 'unsubscribe', 'delete account', 'close account', 'deactivate', 'cancel membership'],
  ['メールアドレス', 'メール', 'eメール', '確認メール', 'email', 'e-mail', 'mail', 'confirmation email'],
  ['通知', 'お知らせ', 'メルマガ', 'メールマガジン', 'notification', 'newsletter', 'alert'],
  ['個人情報', 'プライバシー', 'privacy', 'personal information', 'personal data', 'data protection'],
  // Contact
  ['問い合わせ', 'お問い合わせ', '連絡', '窓口', 'サポート', 'カスタマーサービス', 'カスタマーサポート', '電話', 'チャット', 'contact', 'support', 'customer service', 'customer support', 'inquiry', 'enquiry', 'phone', 'call', 'chat'],
  ['営業時間', '受付時間', '定休日', '休業日', 'business hours', 'opening hours', 'office hours', 'holiday'],
  ['アプリ', 'スマホ', 'スマートフォン', 'app', 'application', 'smartphone', 'mobile'],
];

export interface Concept {
  /** Every member's words; the concept fires when one of these lists is contained in the query's words. */
  triggers: readonly (readonly string[])[];
  /** What a fired concept expands the query to: every member, as its words. */
  targets: readonly (readonly string[])[];
}

export interface Lexicon {
  readonly concepts: readonly Concept[];
  /** Concepts by the words of their triggers, for lookup. */
  readonly byWord: ReadonlyMap<string, readonly number[]>;
  /** All words of all concepts (for typo correction towards known words). */
  readonly words: ReadonlySet<string>;
}

const compiled = new WeakMap<Analyzer, Lexicon>();

/** Runs the lexicon through the same analysis as documents, once per analyzer. */
export function compileLexicon(analyzer: Analyzer): Lexicon {
  const cached = compiled.get(analyzer);
  if (cached) return cached;
  const concepts: Concept[] = [];
  const byWord = new Map<string, number[]>();
  const words = new Set<string>();
  CONCEPTS.forEach((members, index) => {
    const analysed = members.map((m) => memberWords(analyzer, m)).filter((w) => w !== undefined);
    const triggers = analysed.filter((m) => m.trigger).map((m) => m.words);
    const targets = analysed.map((m) => m.words);
    concepts.push({ triggers, targets });
    for (const trigger of triggers) {
      for (const w of trigger) {
        words.add(w);
        const list = byWord.get(w) ?? [];
        if (!list.includes(index)) list.push(index);
        byWord.set(w, list);
      }
    }
  });
  const lexicon = { concepts, byWord, words };
  compiled.set(analyzer, lexicon);
  return lexicon;
}

/**
 * A member's content words, as documents are analysed, and whether it may
 * fire its concept. A member whose first or last token carries no meaning
 * may not: analysis would shrink it to a word it does not mean on its own
 * (配送料 → 配送, "where is my order" → order, "sign up" → sign). Function
 * words inside are fine (お金を返す, cash on delivery). A Japanese compound
 * shrunk only by a prefix or suffix (領収書 → 領収, お届け → 届け) is still a
 * target: documents shrink the same way.
 */
function memberWords(analyzer: Analyzer, member: string): { words: string[]; trigger: boolean } | undefined {
  const tokens = analyzer.tokens(member).filter((t) => t.pos !== '記号');
  const words = [...new Set(tokens.filter((t) => t.content).map((t) => foldKana(t.base)))];
  if (words.length === 0) return undefined;
  if (tokens[0]!.content && tokens.at(-1)!.content) return { words, trigger: true };
  const affixOnly = tokens.every((t) => t.content || t.pos === '接頭詞' || t.posDetail === '接尾' || /^[おご御]$/.test(t.surface));
  return affixOnly ? { words, trigger: false } : undefined;
}

/**
 * The concepts a query fires. A longer trigger wins over its parts: when
 * "お金を返す" fires refund, お金 and 返す stop being words of their own (they
 * would expand to price and return, and match any text with 返す); the
 * phrase becomes one slot: itself, or refund's other members.
 */
export interface ConceptMatches {
  /** Query word → concepts it fired by itself; the expansion shares that word's slot. */
  byWord: Map<string, Concept[]>;
  /** Concepts fired by a several-word trigger, with the query words that trigger consumed. */
  phrases: { concept: Concept; words: string[] }[];
}

export function matchConcepts(lexicon: Lexicon, queryWords: readonly string[]): ConceptMatches {
  const present = new Set(queryWords);
  const candidates = new Set<number>();
  for (const w of present) for (const index of lexicon.byWord.get(w) ?? []) candidates.add(index);
  const phrases: ConceptMatches['phrases'] = [];
  const consumed = new Set<string>();
  for (const index of [...candidates].sort((a, b) => a - b)) {
    const concept = lexicon.concepts[index]!;
    const words = new Set<string>();
    for (const t of concept.triggers) if (t.length > 1 && t.every((x) => present.has(x))) for (const x of t) words.add(x);
    if (words.size === 0) continue;
    phrases.push({ concept, words: [...words] });
    for (const x of words) consumed.add(x);
  }
  const byWord = new Map<string, Concept[]>();
  for (const w of present) {
    if (consumed.has(w)) continue;
    for (const index of lexicon.byWord.get(w) ?? []) {
      const concept = lexicon.concepts[index]!;
      if (concept.triggers.some((t) => t.length === 1 && t[0] === w)) byWord.set(w, [...(byWord.get(w) ?? []), concept]);
    }
  }
  return { byWord, phrases };
}

/** Whether `word` is one of the words a fired phrase took over. */
export function consumedBy(matches: ConceptMatches, word: string): boolean {
  return matches.phrases.some((p) => p.words.includes(word));
}
