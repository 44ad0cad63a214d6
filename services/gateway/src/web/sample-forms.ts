import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { detectLanguage } from '@convo/text';
import { type Logger } from '@convo/runtime';
import { SessionForm } from '@convo/contract';

/** A form the chat page offers, with what the picker shows. */
export interface SampleForm {
  id: string;
  title: string;
  /** A form with a compliance section is a job application. */
  kind: 'form' | 'application';
  language: 'ja' | 'en';
  form: SessionForm;
}

/**
 * Reads every `*.json` in `dir` once, at start. A file that is not a valid
 * session form is logged and left out rather than stopping the gateway: the
 * samples are a convenience of the page, not part of the API.
 */
export async function loadSampleForms(dir: string, log: Logger): Promise<SampleForm[]> {
  if (dir === '') return [];
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    log.warn({ dir, err: (err as Error).message }, 'no sample forms for the chat page');
    return [];
  }
  const forms: SampleForm[] = [];
  for (const name of names) {
    try {
      const form = SessionForm.parse(JSON.parse(await readFile(join(dir, name), 'utf8')));
      forms.push({
        id: basename(name, '.json'),
        title: form.title,
        kind: form.compliance === undefined ? 'form' : 'application',
        language: detectLanguage(`${form.title} ${form.fields.map((f) => f.label).join(' ')}`),
        form,
      });
    } catch (err) {
      log.warn({ file: join(dir, name), err: (err as Error).message }, 'skipping an invalid sample form');
    }
  }
  return forms;
}
