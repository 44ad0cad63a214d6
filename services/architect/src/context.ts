/**
 * The structured facts this agent's prompt is rendered from. Remote models
 * read them inside the system prompt; the offline policy reads them as data.
 */
export type ArchitectContext = {
  agent: 'architect';
  language: string | null;
  fields: Array<{ fieldId: string; label: string; intent: string | null; required: boolean; sortOrder: number }>;
};
