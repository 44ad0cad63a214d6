import type { ProductHooks, TurnIntake } from '@convo/runtime';
import { withinTextBudget } from '@convo/text';
import { preloadContentAnalyzer } from '../nlu/content.js';
import { routeUserMessage } from './answer-routing.js';
import { prepareUserMessage } from './compliance-flow.js';
import { applicationDraft, formDraft, repairInterview, type ApplicationDraft, type FormDraft } from './form-draft.js';

/**
 * How form and application sessions take a user message as its turn starts:
 * a job application masks the topics a respondent volunteered but must not
 * be asked about (and the stored turn is rewritten to the masked text), and
 * the message is routed to the field it answers or corrects.
 */
export const formTurnIntake: TurnIntake<FormDraft> = (draft, message, turnId) => {
  // Reading the message is one budgeted analysis, done before the session changes.
  const { prepared, route } = withinTextBudget(() => {
    const masked = prepareUserMessage(draft.state, message);
    return { prepared: masked, route: routeUserMessage(draft.state, masked.text) };
  });
  const added = draft.addUserMessage(prepared.text, turnId, route.fieldId, route.correction);
  if (prepared.topics.length === 0) return {};
  draft
    .application()
    ?.updateCompliance((compliance) => compliance.volunteered.push({ messageId: added.messageId, topics: prepared.topics }));
  return { redactedMessage: prepared.text };
};

/** The forms product to the runtime: its draft, its intake, and what a failed turn leaves (see ProductHooks). */
export const FORMS: ProductHooks<FormDraft> = { draft: formDraft, intake: formTurnIntake, repair: repairInterview };
/** The same for the agents that serve job applications only (the checker and the auditor). */
export const APPLICATIONS: ProductHooks<ApplicationDraft> = { draft: applicationDraft, intake: formTurnIntake, repair: repairInterview };

/** What every form agent service registers: the product, and kuromoji loaded before the first job (the interview rules read Japanese). */
export const FORM_TURNS = { product: FORMS, warmUp: preloadContentAnalyzer };
/** The same for the checker and the auditor. */
export const APPLICATION_TURNS = { product: APPLICATIONS, warmUp: preloadContentAnalyzer };
