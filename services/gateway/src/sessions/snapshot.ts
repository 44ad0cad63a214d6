import { fieldsNeedingReview, formField, proposedValue } from '@convo/forms';
import { type LoadedSession } from '@convo/runtime';
import { type FormSessionView, mutableCopy, NO_TOKENS, type AuditReport, type SessionSnapshot, type SessionView } from '@convo/contract';

/** GET /v1/sessions/:id (and `resync`), exactly the contract's fields (plus ids a client may use), for every kind of session. */
export function buildSnapshot(loaded: LoadedSession): SessionSnapshot {
  const state: SessionView = loaded.state;
  const { bootstrap } = state;
  return {
    sessionId: state.sessionId,
    kind: state.kind,
    status: state.status,
    currentAgent: state.currentAgent,
    bootstrap: { language: bootstrap.language, country: bootstrap.country, timezone: bootstrap.timezone },
    ...(state.kind === 'form' || state.kind === 'application'
      ? interviewPart(state)
      : { fields: [], collectedFields: {}, needsReview: [], audit: null }),
    messages: state.messages.map((message) => ({
      messageId: message.messageId,
      role: message.role,
      agent: message.agent,
      text: message.text,
      createdAt: message.createdAt,
      fieldId: message.fieldId,
    })),
    turn: { active: loaded.activeTurn, queued: loaded.queued },
    /** Extension: the model usage of the whole session. */
    usage: state.usage ?? NO_TOKENS,
    lastEventId: loaded.lastEventId,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
  };
}

function interviewPart(state: FormSessionView) {
  return {
    fields: state.fields.map((fieldState) => {
      const definition = formField(state, fieldState.fieldId);
      return {
        fieldId: fieldState.fieldId,
        label: definition?.label ?? fieldState.fieldId,
        required: definition?.required ?? false,
        status: fieldState.status,
        value: fieldState.value,
        followUps: fieldState.followUps,
        skipReason: fieldState.skipReason,
        needsReview: fieldState.needsReview,
        toConfirm: proposedValue(fieldState),
        derivation: fieldState.lastReview?.passed ? (fieldState.lastReview.derivation ?? null) : null,
      };
    }),
    collectedFields: state.collectedFields,
    needsReview: fieldsNeedingReview(state),
    audit: state.kind === 'application' && state.audit ? mutableCopy<AuditReport>(state.audit) : null,
  };
}
