import type { ProductHooks, TurnIntake } from '@convo/runtime';
import { withinTextBudget } from '@convo/text';
import { preloadContentAnalyzer } from '../nlu/content.js';
import { prepareUserMessage } from './compliance-flow.js';
import { applicationDraft, formDraft, repairInterview, type ApplicationDraft, type FormDraft } from './form-draft.js';

/**
 * How form and application sessions take a user message as its turn starts:
 * a job application masks the topics a respondent volunteered but must not
 * be asked about (and the stored turn is rewritten to the masked text), and
 * the message is routed to the field it answers or corrects.
 */
export const formTurnIntake: TurnIntake<FormDraft> = async (draft, message, turnId) => {
  // Reading the message is budgeted, and done before the session changes.
  const prepared = withinTextBudget(() => prepareUserMessage(draft.state, message));
  // Only a message that can answer a field is routed (the greeting has no plan yet); the router
  // reads corrections with the whole interview reader, loaded where it is first needed.
  const routeMessage = draft.state.plan ? await loadRouter() : null;
  const route = routeMessage ? withinTextBudget(() => routeMessage(draft.state, prepared.text)) : { fieldId: null, correction: false };
  const added = draft.addUserMessage(prepared.text, turnId, route.fieldId, route.correction);
  if (prepared.topics.length === 0) return {};
  draft
    .application()
    ?.updateCompliance((compliance) => compliance.volunteered.push({ messageId: added.messageId, topics: prepared.topics }));
  return { redactedMessage: prepared.text };
};

/**
 * The answer router and the Japanese dictionary it reads with, imported on first use: a service
 * that never begins an interview turn (the architect, the checker, the gateway's sweeper) never
 * loads them (compromise, chrono and kuromoji: the greeter grew from 100 to 172 MB the first time).
 */
async function loadRouter() {
  const [{ routeUserMessage }] = await Promise.all([import('./answer-routing.js'), preloadContentAnalyzer()]);
  return routeUserMessage;
}

/**
 * For a service whose own steps read answers (the interviewer, the reviewer, the auditor): the
 * interview reader and its Japanese dictionary loaded before it reports ready, not in a turn.
 */
export const readsAnswers = { warmUp: () => loadRouter() };

/** The forms product to the runtime: its draft, its intake, and what a failed turn leaves (see ProductHooks). */
export const FORMS: ProductHooks<FormDraft> = { draft: formDraft, intake: formTurnIntake, repair: repairInterview };
/** The same for the agents that serve job applications only (the checker and the auditor). */
export const APPLICATIONS: ProductHooks<ApplicationDraft> = { draft: applicationDraft, intake: formTurnIntake, repair: repairInterview };

/** What every form agent service registers: the product (the services that read answers add {@link readsAnswers}). */
export const FORM_TURNS = { product: FORMS };
/** The same for the checker and the auditor. */
export const APPLICATION_TURNS = { product: APPLICATIONS };
