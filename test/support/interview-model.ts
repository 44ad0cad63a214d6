import type { FakeRequest, FakeResponse } from './fake-openai.js';

/**
 * A model for the fake OpenAI-compatible server that conducts a form
 * interview by reading its prompt the way a real model must: the state JSON
 * the agents send ("Current state:"), the form fields, the answers under
 * review. Agents are told apart by model name (`<AGENT>_MODEL=<agent>`).
 * Whatever the prompt layout (state in the first or the last system message,
 * answers in the system or the user message), it finds what it needs, so
 * the same model measures one prompt design against another.
 */
export type InterviewModelOptions = {
  /** Text of every streamed reply, in chunks of this many characters (default 8). */
  chunkChars?: number;
  chunkDelayMs?: number;
};

// The prompt's JSON is read as the model sees it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Message = { role: string; content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> };

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

/** The JSON value that follows `marker` in the newest message containing it. */
function jsonAfter(messages: Message[], marker: string): Json | null {
  for (const message of [...messages].reverse()) {
    const text = message.content ?? '';
    const at = text.lastIndexOf(marker);
    if (at < 0) continue;
    const rest = text.slice(at + marker.length).trimStart();
    // The JSON ends where its brackets balance.
    let depth = 0;
    let inString = false;
    for (let i = 0; i < rest.length; i++) {
      const ch = rest[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        depth--;
        if (depth === 0) return JSON.parse(rest.slice(0, i + 1));
      }
    }
  }
  return null;
}

const lastUser = (messages: Message[]) => [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
/** The results of this loop's tool calls, newest last. */
const toolResults = (messages: Message[]) => messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? '{}') as Json);

export function interviewModel(opts: InterviewModelOptions = {}): (req: FakeRequest) => FakeResponse {
  const stream = { chunkChars: opts.chunkChars ?? 8, chunkDelayMs: opts.chunkDelayMs ?? 0 };
  const reply = (...calls: Array<{ name: string; arguments: string }>): FakeResponse => ({ toolCalls: calls, stream });
  return (req) => {
    const messages = req.body.messages as Message[];
    const agent = String(req.body.model);
    switch (agent) {
      case 'greeter': {
        const state = jsonAfter(messages, 'Current state:');
        const said = messages.some((m) => m.role === 'user' && /english|japan/i.test(m.content ?? ''));
        if (!said)
          return reply(call('ask', { message: 'Hello! Would you like to continue in English or Japanese, and where do you live?' }));
        if (!state?.language)
          return reply(
            call('set_language', { language: 'en' }),
            call('set_country', { country: 'JP' }),
            call('set_timezone', { timezone: null, hint: 'Tokyo' }),
          );
        return reply(call('ask', { message: 'Thank you.' }));
      }
      case 'architect': {
        const fields = (jsonAfter(messages, 'Form fields:') ?? []) as Json[];
        const ordered = [...fields].sort((a, b) => a.sortOrder - b.sortOrder);
        return reply(
          call('create_plan', {
            fields: ordered.map((f) => ({ field_id: f.fieldId, label: f.label, intent: f.intent, required: f.required })),
          }),
        );
      }
      case 'interviewer': {
        const state = jsonAfter(messages, 'Current state:');
        const current = state?.current;
        // As the prompt asks (docs/api.md#certainty): a reading to confirm is asked about, a stored value read back.
        const echo = state?.echo as { mode: 'ack' | 'confirm'; shown: string } | null | undefined;
        const lead = echo?.mode === 'ack' ? `Got it: “${echo.shown}”. ` : '';
        if (!current)
          return reply(call('ask', { message: `${lead}Thank you, that is everything. Please review your answers and submit them.` }));
        if (state.answerPending)
          return reply(call('subtask', { agent: 'reviewer', field_id: current.fieldId, question: null, note: null }));
        const question =
          echo?.mode === 'confirm'
            ? `Just to check: is it “${echo.shown}”?`
            : `${lead}Could you tell me your ${String(current.label).toLowerCase()}?`;
        if (state.kind === 'application') {
          // An applicant is asked only what passed the quick-check: check first, then ask that exact text.
          const checked = toolResults(messages).at(-1);
          if (checked?.result?.checkerAgentOutput?.passed === true) return reply(call('ask', { message: question }));
          return reply(call('subtask', { agent: 'checker', field_id: current.fieldId, question, note: null }));
        }
        return reply(call('ask', { message: question }));
      }
      case 'reviewer': {
        const answers = (jsonAfter(messages, 'Review these answers:') ?? [lastUser(messages)]) as string[];
        return reply(
          call('review', {
            passed: true,
            feedback: null,
            missing: null,
            extracted_facts: null,
            field_value: answers.join(' '),
            skipped: null,
            notice: null,
            derivation: null,
            certain: null,
          }),
        );
      }
      case 'checker':
        return reply(call('result', { passed: true, violations: null }));
      default:
        return { status: 500, body: { error: { message: `the interview model has no agent ${agent}` } } };
    }
  };
}
