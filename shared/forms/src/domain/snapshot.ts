import type { LoadedSession } from '@convo/runtime';
import { fieldsNeedingReview, formField } from './form-flow.js';

/** GET /v1/sessions/:id, exactly the contract's fields (plus ids a client may use). */
export function buildSnapshot(s: LoadedSession): Record<string, unknown> {
  const st = s.state;
  return {
    sessionId: st.sessionId,
    kind: st.kind,
    status: st.status,
    currentAgent: st.currentAgent,
    bootstrap: { language: st.bootstrap.language, country: st.bootstrap.country, timezone: st.bootstrap.timezone },
    fields: st.fields.map((f) => {
      const def = formField(st, f.fieldId);
      return {
        fieldId: f.fieldId,
        label: def?.label ?? f.fieldId,
        required: def?.required ?? false,
        status: f.status,
        value: f.value,
        followUps: f.followUps,
        skipReason: f.skipReason,
        needsReview: f.needsReview,
      };
    }),
    collectedFields: st.collectedFields,
    needsReview: fieldsNeedingReview(st),
    audit: st.audit,
    messages: st.messages.map((m) => ({
      messageId: m.messageId,
      role: m.role,
      agent: m.agent,
      text: m.text,
      createdAt: m.createdAt,
      fieldId: m.fieldId,
    })),
    turn: { active: s.activeTurn, queued: s.queued },
    lastEventId: s.lastEventId,
    createdAt: st.createdAt,
    updatedAt: st.updatedAt,
  };
}
