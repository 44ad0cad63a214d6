import type { ChatRequest, ChatResponse, LlmProvider } from '@convo/agent-kit';

export type ScriptedReply =
  { toolCalls?: Array<{ name: string; arguments: string | Record<string, unknown> }>; content?: string | null } | Error;

/**
 * A model that replays canned replies in order and fails loudly when it runs
 * out, recording every request it saw.
 */
export class ScriptedModel implements LlmProvider {
  readonly name = 'scripted';
  readonly requests: ChatRequest[] = [];
  private replies: ScriptedReply[];

  constructor(replies: ScriptedReply[]) {
    this.replies = [...replies];
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    this.requests.push(structuredClone({ ...req, signal: undefined }));
    const next = this.replies.shift();
    if (!next) throw new Error(`ScriptedModel ran out of replies at request ${this.requests.length}`);
    if (next instanceof Error) throw next;
    return {
      content: next.content ?? null,
      toolCalls: (next.toolCalls ?? []).map((call, i) => ({
        id: `call_${this.requests.length}_${i}`,
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      })),
      usage: { promptTokens: 1, completionTokens: 1 },
      model: 'scripted',
    };
  }

  /** Appends replies for a later part of a test. */
  push(...replies: ScriptedReply[]): void {
    this.replies.push(...replies);
  }

  get remaining(): number {
    return this.replies.length;
  }
}
