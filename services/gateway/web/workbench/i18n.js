// @ts-check
import { fill } from '../lib/i18n.js';
/**
 * The workbench page's own words in English and Japanese. The problems, the
 * checker's issues and the agent's message come from the server as they are.
 * Elements built with `label()` remember their key, so switching the page
 * language relabels them in place (open editors and typed text stay).
 */

const en = {
  appTitle: 'Problem workbench',
  chatLink: 'Chat page',
  uiLanguage: 'Page language',
  skipToMain: 'Skip to the main content',
  generateTitle: 'Generate a worksheet',
  subject: 'Subject',
  subjectHint: 'Offline: math (算数), kanji readings (漢字) and English vocabulary.',
  difficulty: 'Difficulty',
  difficultyEasy: 'Easy',
  difficultyNormal: 'Normal',
  difficultyHard: 'Hard',
  worksheetLanguage: 'Worksheet language',
  topic: 'Topic (optional)',
  topicHint: 'For example fractions, percentages, areas.',
  generate: 'Generate 10 problems',
  generating: 'Generating…',
  generated: 'Generated “{title}”: {n} problems. Checking their consistency…',
  loaded: 'Loaded “{title}”. Checking consistency…',
  allChecked: 'Consistency checked: {ok} of {total} problems consistent.',
  unsupportedSubject: '{message}',
  worksheetGone: 'That worksheet no longer exists, or its link is not valid. Generate a new one.',
  noToken:
    'This worksheet cannot be opened here: this browser does not hold its key. Open it in the browser that created it, or with its read-only share link.',
  readOnlyNotice:
    'Read-only: this worksheet was shared with you. You can check its problems, see suggestions, validate it and download its PDFs, but not change it.',
  share: 'Share (read-only link)',
  shareLink: 'Read-only link',
  shareHint: 'Anyone with this link can read this worksheet, check it and download its PDFs, but cannot change it.',
  shareCopied: 'The read-only link was copied.',
  shareShown: 'The read-only link is shown under the buttons: copy it from there.',
  deleteWorksheet: 'Delete worksheet',
  deleteConfirm: 'Delete “{title}” with its history? This cannot be undone, and its share link stops working.',
  deleting: 'Deleting…',
  deleted: 'Deleted “{title}”.',
  pdfPreparing: 'Preparing the PDF…',
  pdfReady: 'The PDF is ready: {name}',
  problems: 'Problems',
  summaryCounts: '✅ {ok} consistent · ⚠️ {warn} minor issues · ❌ {bad} inconsistent',
  languageJa: '日本語',
  languageEn: 'English',
  validate: 'Validate worksheet',
  validating: 'Validating…',
  overallScore: 'Overall score: {score}',
  validSummary: '{valid} of {total} problems are valid.',
  validated: 'Worksheet validated: overall score {score}.',
  pdfQuestions: 'Question sheet (PDF)',
  pdfAnswers: 'Answer sheet (PDF)',
  downloads: 'Downloads',
  problemN: 'Problem {n}',
  typeMc: 'Multiple choice',
  typeWritten: 'Written',
  version: 'Version {v}',
  prompt: 'Prompt',
  choices: 'Choices',
  explanation: 'Explanation',
  modelAnswer: 'Model answer',
  rubric: 'Rubric',
  correctChoiceIndex: 'Correct answer',
  correct: 'correct',
  editPrompt: 'Edit prompt',
  editChoices: 'Edit choices',
  editExplanation: 'Edit explanation',
  editModelAnswer: 'Edit model answer',
  suggestPrompt: 'Suggestions for the prompt',
  suggestChoices: 'Suggestions for the choices',
  suggestExplanation: 'Suggestions for the explanation',
  suggestModelAnswer: 'Suggestions for the model answer',
  choiceN: 'Choice {n}',
  correctChoiceLegend: 'Which choice is correct',
  save: 'Save',
  cancel: 'Cancel',
  suggestions: 'AI suggestions',
  suggestionsLoading: 'Loading suggestions…',
  suggestionsNone: 'No suggestions for this section.',
  suggestionsFailed: 'Suggestions are unavailable: {message}',
  stateOk: 'Consistent',
  stateWarn: 'Minor issues',
  stateBad: 'Inconsistent',
  stateChecking: 'Checking…',
  stateUnknown: 'Not checked',
  issues: 'Issues found',
  severityError: 'error',
  severityWarning: 'warning',
  suggestion: 'Suggestion: {text}',
  autoFix: 'Auto-fix',
  autoFixing: 'Preparing fixes…',
  proposal: 'Proposed fixes',
  confidence: 'Confidence: {pct}%',
  approve: 'Approve',
  reject: 'Reject',
  noFix: 'No automatic fix was found; edit the problem by hand.',
  fixReady: 'Problem {n}: fixes proposed (confidence {pct}%). Approve or reject them.',
  fixApplied: 'Problem {n}: fixes applied. Checking consistency…',
  fixRejected: 'Problem {n}: fixes rejected.',
  agentTitle: 'Ask the agent',
  agentRequest: 'Request to the agent',
  agentSend: 'Send to the agent',
  quickRequests: 'Quick requests',
  quickSpecify: 'Make the prompt more specific',
  quickImprove: 'Improve this problem',
  quickCheck: 'Check consistency',
  agentWorking: 'Problem {n}: the agent is working on “{request}”…',
  agentDone: 'Problem {n}: the agent finished ({changed}).',
  agentNothing: 'nothing changed',
  agentMessage: 'The agent’s answer',
  toolsRun: 'Tools run',
  toolOk: 'done',
  toolError: 'failed',
  comparison: 'Before and after',
  before: 'Before',
  after: 'After',
  noChanges: 'Nothing was changed.',
  quality: 'Quality score',
  qualityChange: 'Overall: {before} → {after}',
  metric: 'Metric',
  metricClarity: 'Clarity',
  metricDifficulty: 'Difficulty',
  metricEducationalValue: 'Educational value',
  metricConsistency: 'Consistency',
  undo: 'Undo',
  undone: 'Problem {n}: the last edit was undone. Checking consistency…',
  nothingToUndo: 'Problem {n} has no edit to undo.',
  saved: 'Problem {n}: saved. Checking consistency…',
  unchanged: 'Problem {n}: nothing changed.',
  checkedOne: 'Problem {n}: {state}.',
  issueCount: '{state} ({count} issue(s))',
  conflict: 'Problem {n} was changed elsewhere: its current version ({v}) is shown now. Your change was not saved.',
  failed: 'Problem {n}: {message}',
  error: 'Something went wrong: {message}',
  busy: 'The system is busy ({code}). Retrying in {s} s.',
  unreachable: 'The gateway cannot be reached. Retrying in {s} s.',
};

/** @type {typeof en} */
const ja = {
  appTitle: '問題ワークベンチ',
  chatLink: 'チャットページ',
  uiLanguage: '表示言語',
  skipToMain: '本文へ移動',
  generateTitle: '問題セットを作成',
  subject: '教科',
  subjectHint: 'オフラインでは 算数・漢字の読み・英単語 に対応しています。',
  difficulty: '難易度',
  difficultyEasy: 'やさしい',
  difficultyNormal: '標準',
  difficultyHard: '難しい',
  worksheetLanguage: '問題の言語',
  topic: 'トピック（任意）',
  topicHint: '例: 分数、割合、面積',
  generate: '10問を作成',
  generating: '作成しています…',
  generated: '「{title}」を作成しました（{n} 問）。整合性を確認しています…',
  loaded: '「{title}」を読み込みました。整合性を確認しています…',
  allChecked: '整合性を確認しました: {total} 問中 {ok} 問が整合しています。',
  unsupportedSubject: '{message}',
  worksheetGone: 'この問題セットはもう存在しないか、リンクが正しくありません。新しく作成してください。',
  noToken:
    'この問題セットはここでは開けません: このブラウザーには鍵が保存されていません。作成したブラウザーで開くか、閲覧専用の共有リンクを使ってください。',
  readOnlyNotice: '閲覧専用: 共有された問題セットです。整合性の確認、提案の表示、検証、PDF のダウンロードはできますが、変更はできません。',
  share: '共有（閲覧専用リンク）',
  shareLink: '閲覧専用リンク',
  shareHint: 'このリンクを知っている人は誰でも、この問題セットを閲覧・確認し、PDF をダウンロードできます。変更はできません。',
  shareCopied: '閲覧専用リンクをコピーしました。',
  shareShown: '閲覧専用リンクをボタンの下に表示しました。そこからコピーしてください。',
  deleteWorksheet: '問題セットを削除',
  deleteConfirm: '「{title}」を編集履歴とともに削除しますか？元に戻せません。共有リンクも使えなくなります。',
  deleting: '削除しています…',
  deleted: '「{title}」を削除しました。',
  pdfPreparing: 'PDF を準備しています…',
  pdfReady: 'PDF を用意しました: {name}',
  problems: '問題',
  summaryCounts: '✅ 整合 {ok} 問 · ⚠️ 軽微 {warn} 問 · ❌ 不整合 {bad} 問',
  languageJa: '日本語',
  languageEn: '英語',
  validate: '問題セットを検証',
  validating: '検証しています…',
  overallScore: '総合スコア: {score}',
  validSummary: '{total} 問中 {valid} 問に問題はありません。',
  validated: '問題セットを検証しました: 総合スコア {score}',
  pdfQuestions: '問題用紙（PDF）',
  pdfAnswers: '解答用紙（PDF）',
  downloads: 'ダウンロード',
  problemN: '問題 {n}',
  typeMc: '選択式',
  typeWritten: '記述式',
  version: 'バージョン {v}',
  prompt: '問題文',
  choices: '選択肢',
  explanation: '解説',
  modelAnswer: '模範解答',
  rubric: '採点基準',
  correctChoiceIndex: '正解',
  correct: '正解',
  editPrompt: '問題文を編集',
  editChoices: '選択肢を編集',
  editExplanation: '解説を編集',
  editModelAnswer: '模範解答を編集',
  suggestPrompt: '問題文への提案',
  suggestChoices: '選択肢への提案',
  suggestExplanation: '解説への提案',
  suggestModelAnswer: '模範解答への提案',
  choiceN: '選択肢 {n}',
  correctChoiceLegend: '正解の選択肢',
  save: '保存',
  cancel: 'キャンセル',
  suggestions: 'AI の提案',
  suggestionsLoading: '提案を読み込んでいます…',
  suggestionsNone: 'この項目への提案はありません。',
  suggestionsFailed: '提案を取得できません: {message}',
  stateOk: '整合性OK',
  stateWarn: '軽微な問題',
  stateBad: '重大な不整合',
  stateChecking: '確認中…',
  stateUnknown: '未確認',
  issues: '見つかった問題',
  severityError: '重大',
  severityWarning: '軽微',
  suggestion: '提案: {text}',
  autoFix: '自動修正',
  autoFixing: '修正案を作成しています…',
  proposal: '修正案',
  confidence: '信頼度: {pct}%',
  approve: '承認',
  reject: '却下',
  noFix: '自動で修正できる箇所が見つかりませんでした。手で編集してください。',
  fixReady: '問題 {n}: 修正案があります（信頼度 {pct}%）。承認または却下してください。',
  fixApplied: '問題 {n}: 修正を適用しました。整合性を確認しています…',
  fixRejected: '問題 {n}: 修正案を却下しました。',
  agentTitle: 'エージェントに依頼',
  agentRequest: 'エージェントへの依頼',
  agentSend: '依頼する',
  quickRequests: 'よく使う依頼',
  quickSpecify: '問題文をもっと具体的にして',
  quickImprove: 'この問題を改善して',
  quickCheck: '整合性チェック',
  agentWorking: '問題 {n}: エージェントが「{request}」に取り組んでいます…',
  agentDone: '問題 {n}: エージェントが完了しました（{changed}）。',
  agentNothing: '変更なし',
  agentMessage: 'エージェントの回答',
  toolsRun: '実行したツール',
  toolOk: '成功',
  toolError: '失敗',
  comparison: '変更前と変更後',
  before: '変更前',
  after: '変更後',
  noChanges: '変更はありません。',
  quality: '品質スコア',
  qualityChange: '総合: {before} → {after}',
  metric: '指標',
  metricClarity: '明確さ',
  metricDifficulty: '難易度',
  metricEducationalValue: '教育的価値',
  metricConsistency: '整合性',
  undo: '元に戻す',
  undone: '問題 {n}: 直前の編集を元に戻しました。整合性を確認しています…',
  nothingToUndo: '問題 {n} には元に戻せる編集がありません。',
  saved: '問題 {n}: 保存しました。整合性を確認しています…',
  unchanged: '問題 {n}: 変更はありません。',
  checkedOne: '問題 {n}: {state}。',
  issueCount: '{state}（{count} 件）',
  conflict: '問題 {n} は別の場所で更新されていました。最新の内容（バージョン {v}）を表示しています。変更は保存されていません。',
  failed: '問題 {n}: {message}',
  error: 'エラーが発生しました: {message}',
  busy: 'システムが混み合っています（{code}）。{s} 秒後に再試行します。',
  unreachable: 'ゲートウェイに接続できません。{s} 秒後に再試行します。',
};

/** @typedef {keyof typeof en} Key */
/** @typedef {'ja' | 'en'} Lang */
/** @typedef {Record<string, string | number>} Vars */

export const WORKBENCH_STRINGS = { en, ja };

/**
 * @param {Lang} lang
 * @param {Key} key
 * @param {Vars} [vars]
 */
export function tr(lang, key, vars = {}) {
  return fill(WORKBENCH_STRINGS[lang][key], vars);
}

/**
 * Makes `el` show the label `key` and remembers it for `relabel`.
 * @template {Element} E
 * @param {E} el
 * @param {Lang} lang
 * @param {Key} key
 * @param {Vars} [vars]
 * @returns {E}
 */
export function label(el, lang, key, vars) {
  el.setAttribute('data-wb-i18n', key);
  if (vars) el.setAttribute('data-wb-vars', JSON.stringify(vars));
  else el.removeAttribute('data-wb-vars');
  el.textContent = tr(lang, key, vars);
  return el;
}

/**
 * Relabels every element under `root` built with `label` (or marked `data-wb-i18n` in the HTML).
 * @param {ParentNode} root
 * @param {Lang} lang
 */
export function relabel(root, lang) {
  for (const el of root.querySelectorAll('[data-wb-i18n]')) {
    const key = /** @type {Key} */ (el.getAttribute('data-wb-i18n'));
    if (!(key in en)) continue;
    const rawVars = el.getAttribute('data-wb-vars');
    el.textContent = tr(lang, key, rawVars ? JSON.parse(rawVars) : undefined);
  }
}

/** The page language: `?lang=` first, then the browser's preference (as on the chat page). */
export { pickUiLanguage } from '../lib/i18n.js';

/** A score of 0..1 as shown everywhere on the page. @param {number} score */
export function formatScore(score) {
  return score.toFixed(2);
}
