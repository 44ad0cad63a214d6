import { SessionDraft, SystemError } from '@convo/runtime';
import {
  event,
  type ApplicationSessionState,
  type AuditReport,
  type ComplianceState,
  type FieldState,
  type FieldStatus,
  type FieldStatusDetails,
  type FormSessionState,
  type Plan,
  type SessionState,
} from '@convo/contract';

/**
 * The draft of an interview (a form or a job application): the core's
 * mutators and the form part's, each of which records the event the contract
 * promises for its change. Every agent of the forms product works on one; the
 * service makes it (FORMS.draft), so agents never narrow.
 */
export class FormDraft<S extends FormSessionState = FormSessionState> extends SessionDraft<S> {
  /** The draft as a job application, or null for a plain form (checks, the audit and masking apply to applications only). */
  application(): ApplicationDraft | null {
    return this instanceof ApplicationDraft ? this : null;
  }

  /**
   * A field's interview bookkeeping (follow-ups, skip reason, last review…);
   * its status and value change through setFieldStatus / setFieldValue, which
   * emit their events.
   */
  updateField(fieldId: string, patch: Partial<Omit<FieldState, 'fieldId' | 'status' | 'value'>>): void {
    const field = this.mutable.fields.find((candidate) => candidate.fieldId === fieldId);
    if (!field) return;
    Object.assign(field, patch);
    this.touch();
  }

  /** Which field the interview is at (the number of fields once every one is settled). */
  setCurrentFieldIndex(index: number): void {
    this.mutable.currentFieldIndex = index;
    this.touch();
  }

  /** One more follow-up question asked in this session (bounded, see form-flow). */
  countFollowUp(): void {
    this.mutable.followUpCount += 1;
    this.touch();
  }

  /** The fields in the order the plan asks them, starting at the first. */
  orderFields(fieldIds: readonly string[]): void {
    const byId = new Map(this.mutable.fields.map((field) => [field.fieldId, field]));
    this.mutable.fields = fieldIds.map((id) => byId.get(id)).filter((field): field is FieldState => field !== undefined);
    this.mutable.currentFieldIndex = 0;
    this.touch();
  }

  setPlan(plan: Plan): void {
    this.mutable.plan = plan;
    this.touch();
    this.emit(event('state.changed', { type: 'PLAN_CREATED', payload: { fields: plan.fields } }));
  }

  setFieldStatus(fieldId: string, status: FieldStatus, extra: FieldStatusDetails = {}): void {
    const field = this.mutable.fields.find((candidate) => candidate.fieldId === fieldId);
    if (!field || field.status === status) return;
    field.status = status;
    this.touch();
    this.emit(event('state.changed', { type: 'FIELD_STATUS', payload: { fieldId, status, ...extra } }));
  }

  setFieldValue(fieldId: string, value: string | null): void {
    const field = this.mutable.fields.find((candidate) => candidate.fieldId === fieldId);
    if (!field) return;
    field.value = value;
    if (value === null) delete this.mutable.collectedFields[fieldId];
    else this.mutable.collectedFields[fieldId] = value;
    this.touch();
    this.emit(event('state.changed', { type: 'FIELD_VALUE', payload: { fieldId, value } }));
  }
}

/** A job application's draft: the interview's, plus the compliance record and the audit. */
export class ApplicationDraft extends FormDraft<ApplicationSessionState> {
  /** Changes to the compliance record go through here (checks, failed-check counts, volunteered topics). */
  updateCompliance(change: (compliance: ComplianceState) => void): void {
    change(this.mutable.compliance);
    this.touch();
  }

  setAudit(audit: AuditReport): void {
    this.mutable.audit = audit;
    this.touch();
  }
}

/** The draft of an interview: an ApplicationDraft for a job application. A session of another product is a bug in the caller. */
export function formDraft(state: SessionState, owned = false, clock?: () => Date): FormDraft {
  if (state.kind === 'application') return new ApplicationDraft(state, clock, owned);
  if (state.kind === 'form') return new FormDraft(state, clock, owned);
  throw new SystemError(`session ${state.sessionId} is a ${state.kind} session, not an interview`);
}

/** The draft of a job application (the checker's and the auditor's sessions). */
export function applicationDraft(state: SessionState, owned = false, clock?: () => Date): ApplicationDraft {
  if (state.kind === 'application') return new ApplicationDraft(state, clock, owned);
  throw new SystemError(`session ${state.sessionId} is a ${state.kind} session, not a job application`);
}

/**
 * What a failed turn leaves of an interview: no field under review (the next message goes to the
 * question last shown, and a field the failed turn moved to without asking is asked first).
 */
export function repairInterview(draft: FormDraft): void {
  for (const field of draft.state.fields) if (field.status === 'reviewing') draft.setFieldStatus(field.fieldId, 'interviewing');
}
