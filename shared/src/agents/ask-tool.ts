import { z } from 'zod';
import type { SessionDraft } from './draft.js';
import { createTool, failure, success } from './tool.js';

export const AskInput = z.object({
  message: z.string().describe('What to say to the respondent: one question (or the closing message), in the session language.'),
});

/**
 * `ask`: sends a message to the respondent and ends the loop until they reply.
 * `beforeAsk` lets an agent tie the message to a field (and mark it asked).
 */
export function createAskTool(beforeAsk?: (draft: SessionDraft) => string | null) {
  return createTool({
    name: 'ask',
    description: 'Send a message or question to the respondent and wait for their reply. Ends your turn.',
    schema: AskInput,
    execute(args, ctx) {
      const text = args.message.trim();
      if (text.length === 0) return { result: failure('message must not be empty') };
      const fieldId = beforeAsk ? beforeAsk(ctx.draft) : null;
      const m = ctx.draft.addAssistantMessage(ctx.agent, text, ctx.turnId, fieldId);
      return { result: success('Message sent; waiting for the respondent.', { messageId: m.messageId }), control: { type: 'ask' } };
    },
  });
}
