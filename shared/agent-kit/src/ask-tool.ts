import { z } from 'zod';
import type { SessionDraft } from '@convo/runtime';
import { call, type PolicyReply } from './llm/offline/protocol.js';
import { createTool, failure, success } from './tool.js';

export const AskInput = z.object({
  message: z.string().describe('What to say to the respondent: one question (or the closing message), in the session language.'),
});

/** The ask tool's identity, for offline policies: every agent's ask tool has this name and input. */
export const ASK_TOOL = { name: 'ask', schema: AskInput } as const;

/** An offline policy's "say this and wait for the reply". */
export const ask = (message: string): PolicyReply => call(ASK_TOOL, { message });

/** What an agent decides before a message goes out: the field it belongs to, or why it may not be sent. */
export type AskGate = { fieldId: string | null } | { refuse: string };

/**
 * `ask`: sends a message to the respondent and ends the loop until they reply.
 * `beforeAsk` ties the message to a field (and marks it asked), or refuses it
 * (an application question that has not passed its quick-check).
 */
export function createAskTool<D extends SessionDraft = SessionDraft>(beforeAsk?: (draft: D, text: string) => AskGate) {
  return createTool<typeof AskInput, D>({
    ...ASK_TOOL,
    description: 'Send a message or question to the respondent and wait for their reply. Ends your turn.',
    schema: AskInput,
    execute(args, ctx) {
      const text = args.message.trim();
      if (text.length === 0) return { result: failure('message must not be empty') };
      const gate = beforeAsk ? beforeAsk(ctx.draft, text) : { fieldId: null };
      if ('refuse' in gate) {
        ctx.log.warn({ reason: 'unchecked_question' }, 'ask refused');
        return { result: failure(gate.refuse) };
      }
      const message = ctx.draft.addAssistantMessage(ctx.agent, text, ctx.turnId, gate.fieldId, ctx.messageId);
      return { result: success('Message sent; waiting for the respondent.', { messageId: message.messageId }), control: { type: 'ask' } };
    },
  });
}
