import { z } from 'zod';
import { envInt, readEnv } from '@convo/runtime';

/** The interview product's variables (docs/configuration.md). */
const FormsEnv = {
  /** Follow-ups per field after its first question; the last one says what is needed and how to get out. */
  MAX_FOLLOW_UPS: envInt(2),
  /** Respondent turns after which an interview closes with what it has (open fields kept for review or skipped). */
  MAX_SESSION_TURNS: envInt(200, 1),
  /** Application interviews: rephrasings of a question after a failed quick-check before its field is skipped. */
  CHECK_MAX_REPHRASINGS: envInt(2),
  /** Forms the chat page offers (relative to the working directory); empty offers none. */
  SAMPLE_FORMS_DIR: z.string().default('examples/forms'),
};

export type FormsConfig = Readonly<{ maxFollowUps: number; maxSessionTurns: number; checkMaxRephrasings: number; sampleFormsDir: string }>;

/** The interview product's section of the configuration, read from the environment; throws a readable ConfigError. */
export function loadFormsConfig(env: NodeJS.ProcessEnv = process.env): FormsConfig {
  const vars = readEnv(FormsEnv, env);
  return Object.freeze({
    maxFollowUps: vars.MAX_FOLLOW_UPS,
    maxSessionTurns: vars.MAX_SESSION_TURNS,
    checkMaxRephrasings: vars.CHECK_MAX_REPHRASINGS,
    sampleFormsDir: vars.SAMPLE_FORMS_DIR,
  });
}
