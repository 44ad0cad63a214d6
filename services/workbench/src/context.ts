import type { Problem, QualityScore } from '@convo/contract';

/** What the problem-management agent's prompt and offline policy read. */
export type WorkbenchContext = {
  agent: 'workbench';
  language: 'ja' | 'en';
  subject: string;
  difficulty: 'easy' | 'normal' | 'hard';
  request: string;
  intent: string;
  section: 'prompt' | 'choices' | 'explanation' | null;
  problem: Problem;
  quality: QualityScore | null;
};
