import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SessionForm } from '@convo/contract';

export type ChatKind = 'form' | 'application' | 'faq';

export interface ChatOptions {
  url: string;
  kind: ChatKind;
  /** The form to send (form and application); validated here so a typo fails before any request. */
  form: SessionForm | null;
  language: 'ja' | 'en' | 'auto';
  /** Follow an existing session instead of creating one. */
  resume: { sessionId: string; token: string } | null;
  color: boolean;
}

export class UsageError extends Error {}

export const USAGE = `usage: npm run chat -- --kind form|application|faq [--form FILE] [--language ja|en|auto] [--url URL]
       npm run chat -- --resume=SESSION_ID --token=TOKEN [--url URL]

  --kind       form and application need --form (e.g. examples/forms/event-registration-en.json)
  --form       a form definition as in POST /v1/sessions (a file with "compliance" can be an application)
  --language   conversation language (default auto: the greeter asks)
  --url        the gateway (default http://localhost:$PORT, PORT defaulting to 8080)
  --resume     follow a session started earlier (its id and token are printed at start)
  --no-color   plain output (also when NO_COLOR is set or stdout is not a terminal)

In the chat: type an answer and press Enter; a number picks a listed choice;
/status shows the fields, /submit confirms the answers, /quit leaves (the session stays on the server).`;

export function parseChatArgs(argv: string[], env: NodeJS.ProcessEnv, isTty: boolean): ChatOptions | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        kind: { type: 'string' },
        form: { type: 'string' },
        language: { type: 'string', default: 'auto' },
        url: { type: 'string' },
        resume: { type: 'string' },
        token: { type: 'string' },
        'no-color': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return 'help';
  const url = (values.url ?? `http://localhost:${env.PORT ?? '8080'}`).replace(/(?<!\/)\/+$/, '');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http(s) URL, got ${url}`);
  const language = values.language;
  if (language !== 'ja' && language !== 'en' && language !== 'auto') throw new UsageError(`--language must be ja, en or auto`);
  const color = !values['no-color'] && env.NO_COLOR === undefined && isTty;

  if (values.resume !== undefined) {
    const token = values.token ?? env.CHAT_TOKEN;
    if (token === undefined) throw new UsageError('--resume needs --token (or CHAT_TOKEN)');
    return { url, kind: 'form', form: null, language, resume: { sessionId: values.resume, token }, color };
  }

  const kind = values.kind;
  if (kind !== 'form' && kind !== 'application' && kind !== 'faq') throw new UsageError('--kind must be form, application or faq');
  let form: SessionForm | null = null;
  if (kind !== 'faq') {
    if (values.form === undefined) throw new UsageError(`--kind ${kind} needs --form FILE`);
    form = readForm(values.form);
  } else if (values.form !== undefined) throw new UsageError('--kind faq takes no --form');
  return { url, kind, form, language, resume: null, color };
}

function readForm(path: string): SessionForm {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read the form ${path}: ${(err as Error).message}`);
  }
  const parsed = SessionForm.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new UsageError(`${path} is not a form: ${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'}`);
  }
  return parsed.data;
}
