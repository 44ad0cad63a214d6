// @ts-check
/** The page's own words in Japanese and English; what the agents say comes from the server as is. */

const en = {
  appTitle: 'Conversational agents',
  uiLanguage: 'Page language',
  pickProduct: 'Start a conversation',
  product: 'Product',
  productForm: 'Form interview',
  productApplication: 'Job application',
  productFaq: 'FAQ dialog',
  sampleForm: 'Form',
  conversationLanguage: 'Conversation language',
  languageAuto: 'Ask me',
  start: 'Start',
  starting: 'Starting…',
  newSession: 'New conversation',
  chatLog: 'Conversation',
  yourMessage: 'Your message',
  send: 'Send',
  sendHint: 'Enter sends, Shift+Enter adds a line.',
  you: 'You',
  sending: 'Sending…',
  queued: 'Queued (position {n})',
  thinking: '{agent} is working…',
  connection: 'Connection',
  connConnecting: 'Connecting…',
  connOpen: 'Live',
  connReconnecting: 'Reconnecting…',
  connReconnectingIn: 'Connection lost, reconnecting in {s} s',
  connClosed: 'Disconnected',
  reconnectNow: 'Reconnect now',
  busy: 'The system is busy ({code}). Retrying in {s} s.',
  unreachable: 'The gateway cannot be reached. Retrying in {s} s.',
  retryNow: 'Retry now',
  panel: 'What the system is doing',
  status: 'Status',
  currentAgent: 'Current agent',
  none: '—',
  settings: 'Language, country, time zone',
  fields: 'Fields',
  field: 'Field',
  fieldProgress: '{done} of {required} required fields done',
  required: 'required',
  optional: 'optional',
  followUps: '{n} follow-up(s)',
  needsReview: 'kept as given: to be checked',
  reviews: 'Reviewer results',
  passed: 'passed',
  notPassed: 'needs more',
  missing: 'Missing',
  compliance: 'Compliance checks',
  checksPassed: '{passed} of {total} questions passed the check',
  audit: 'Audit',
  auditPending: 'Runs when every field is settled.',
  faqPlan: 'Plan',
  confidence: 'confidence',
  searchHits: 'Search hits',
  sources: 'Sources',
  clarify: 'Choose one',
  submit: 'Submit answers',
  submitHint: 'Available when every required field is done.',
  submitted: 'Submitted. Thank you!',
  collected: 'Your answers',
  turnFailed: 'That turn failed: {message} You can send it again.',
  faqIntro: 'Ask about shipping, returns, gift wrapping, receipts, payment or membership.',
  faqExamples: 'Examples',
  sessionGone: 'This conversation no longer exists. Start a new one.',
  statusActive: 'in progress',
  statusAwaiting: 'ready to submit',
  statusSubmitted: 'submitted',
  statusFailed: 'failed',
  fieldPending: 'pending',
  fieldInterviewing: 'asking',
  fieldReviewing: 'reviewing',
  fieldDone: 'done',
  fieldSkipped: 'skipped',
};

/** @type {typeof en} */
const ja = {
  appTitle: '会話エージェント',
  uiLanguage: '表示言語',
  pickProduct: '会話を始める',
  product: '種類',
  productForm: 'フォーム入力',
  productApplication: '求人応募',
  productFaq: 'FAQ 対話',
  sampleForm: 'フォーム',
  conversationLanguage: '会話の言語',
  languageAuto: '最初に確認する',
  start: '開始',
  starting: '開始しています…',
  newSession: '新しい会話',
  chatLog: '会話',
  yourMessage: 'メッセージ',
  send: '送信',
  sendHint: 'Enter で送信、Shift+Enter で改行します。',
  you: 'あなた',
  sending: '送信中…',
  queued: '順番待ち（{n} 番目）',
  thinking: '{agent} が処理しています…',
  connection: '接続',
  connConnecting: '接続しています…',
  connOpen: '接続中',
  connReconnecting: '再接続しています…',
  connReconnectingIn: '接続が切れました。{s} 秒後に再接続します',
  connClosed: '切断されました',
  reconnectNow: '今すぐ再接続',
  busy: 'システムが混み合っています（{code}）。{s} 秒後に再試行します。',
  unreachable: 'ゲートウェイに接続できません。{s} 秒後に再試行します。',
  retryNow: '今すぐ再試行',
  panel: 'システムの動き',
  status: '状態',
  currentAgent: '担当エージェント',
  none: '—',
  settings: '言語・国・タイムゾーン',
  fields: '項目',
  field: '項目名',
  fieldProgress: '必須項目 {required} 件中 {done} 件完了',
  required: '必須',
  optional: '任意',
  followUps: '追加質問 {n} 回',
  needsReview: '回答のまま記録（要確認）',
  reviews: 'レビュー結果',
  passed: '合格',
  notPassed: '不足あり',
  missing: '不足',
  compliance: 'コンプライアンス確認',
  checksPassed: '質問 {total} 件中 {passed} 件が確認を通過',
  audit: '監査',
  auditPending: 'すべての項目が終わると実行されます。',
  faqPlan: '計画',
  confidence: '確信度',
  searchHits: '検索結果',
  sources: '出典',
  clarify: '選んでください',
  submit: '回答を送信',
  submitHint: '必須項目がすべて完了すると送信できます。',
  submitted: '送信しました。ありがとうございました。',
  collected: 'あなたの回答',
  turnFailed: '処理に失敗しました: {message} もう一度送信してください。',
  faqIntro: '配送、返品、ギフト包装、領収書、支払い、会員についてご質問ください。',
  faqExamples: '質問の例',
  sessionGone: 'この会話はもう存在しません。新しい会話を始めてください。',
  statusActive: '進行中',
  statusAwaiting: '送信できます',
  statusSubmitted: '送信済み',
  statusFailed: '失敗',
  fieldPending: '未着手',
  fieldInterviewing: '質問中',
  fieldReviewing: '確認中',
  fieldDone: '完了',
  fieldSkipped: 'スキップ',
};

/** @typedef {keyof typeof en} MessageKey */
/** @typedef {'ja' | 'en'} UiLanguage */

export const STRINGS = { en, ja };

/**
 * @param {UiLanguage} lang
 * @param {MessageKey} key
 * @param {Record<string, string | number>} [vars]
 */
export function t(lang, key, vars = {}) {
  return fill(STRINGS[lang][key], vars);
}

/**
 * A message with its `{name}` placeholders filled (a missing value stays visible as `{name}`).
 * @param {string} template
 * @param {Record<string, string | number>} [vars]
 */
export function fill(template, vars = {}) {
  return template.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? `{${name}}`));
}

/**
 * The page language: `?lang=` first, then the browser's preference.
 * @param {string} search location.search
 * @param {readonly string[]} preferred navigator.languages
 * @returns {UiLanguage}
 */
export function pickUiLanguage(search, preferred) {
  const asked = new URLSearchParams(search).get('lang');
  if (asked === 'ja' || asked === 'en') return asked;
  const first = preferred.find((l) => /^(ja|en)\b/i.test(l));
  return first?.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}
