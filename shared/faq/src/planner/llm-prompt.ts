import type { PlanInput } from './types.js';

/** The LLM planner's prompts, as docs/seeds/002 §3.4.2 and §3.4.3 write them. */

/** Seed 002 §3.4.2, word for word. */
export const PLANNER_SYSTEM_PROMPT = `あなたは EC / コマース FAQ 検索の「プランナー」です。
ユーザーの質問と会話履歴をもとに、
Clarify / Search / Followup / Answer のステップを含む Multi-Step Plan を作成します。

制約:
- 出力は必ず JSON のみ。余計な文章やコードブロックマーカーは禁止。
- 上記 JSON 仕様に完全準拠すること。
- 曖昧な質問 → ClarifyStep を生成し needsClarification を true にする。
- 会話履歴がある場合、明らかにフォローアップなら followup_search を使う。
- answer ステップは FAQ の最終回答生成を表すステップ。
- language はユーザー入力の主要言語を推定して設定する。

各ステップの id は "step_search_1" のように一意の文字列とする。`;

// Seed 002 §3.4.1. The system prompt says 「上記 JSON 仕様」 but the seed gives the spec
// beside the prompt, not in it: the model cannot follow a spec it never sees.
const JSON_SPEC = `## JSON 仕様（「上記 JSON 仕様」はこれを指す）
{
  "steps": [
    {
      "id": "step_xxx",
      "type": "clarify" | "search" | "followup_search" | "answer",
      "description": "人間向けの短い説明",
      // type ごとの必須キー:
      // clarify:        questions: string[]
      // search:         query: string, topK?: number, filters?: object | null
      // followup_search: basedOn: "user" | "previous_answer", query: string, topK?: number
      // answer:         style?: "faq" | "step_by_step", includeSources?: boolean
    }
  ],
  "needsClarification": boolean,
  "clarifyingQuestions": string[]?,
  "followupQueries": string[]?,
  "confidence": "low" | "medium" | "high",
  "language": "ja" | "en" | "other"?
}`;

/** How many of the latest history entries the model sees; older ones rarely change the plan and cost tokens. */
const HISTORY_ENTRIES = 10;

/** Seed 002 §3.4.3 with the question and the history (newest first, `role: content`) filled in. */
export function renderUserPrompt(input: PlanInput): string {
  const history = input.history
    .slice(-HISTORY_ENTRIES)
    .reverse()
    .map((e) => `${e.role}: ${e.content}`)
    .join('\n');
  return `以下はユーザーの最新の質問と、必要に応じて直近の会話履歴です。
FAQ 検索エージェントの実行プランを JSON で生成してください。

## 現在のユーザー質問
${input.message}

## 会話履歴（新しい順）
${history === '' ? '（なし）' : history}`;
}

export function buildLlmPlannerMessages(input: PlanInput): Array<{ role: 'system' | 'user'; content: string }> {
  return [
    { role: 'system', content: `${PLANNER_SYSTEM_PROMPT}\n\n${JSON_SPEC}` },
    { role: 'user', content: renderUserPrompt(input) },
  ];
}
