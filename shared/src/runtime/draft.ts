import type { AgentName } from '../agents-list.js';
import { event, type NewEvent } from '../schemas/events.js';
import type { Plan } from '../schemas/form.js';
import type { RunStep } from '../schemas/run-step.js';
import type { ChatMessage, FieldStatus, SessionState } from '../schemas/session.js';

/** The seed's StateChange records (001, "StateChange"), collected from tool calls. */
export type StateChangeType =
  | 'SET_LANGUAGE'
  | 'SET_COUNTRY'
  | 'SET_TIMEZONE'
  | 'SET_CURRENT_AGENT'
  | 'ADD_USER_MESSAGE'
  | 'ADD_ASSISTANT_MESSAGE';
export type StateChange = { type: StateChangeType; payload: Record<string, unknown> };

/**
 * A working copy of one session's state during a step. Every mutation goes
 * through a method that also records the event the contract promises for it,
 * so state and events cannot drift apart; the step runner commits both at once.
 */
export class SessionDraft {
  readonly state: SessionState;
  readonly events: NewEvent[] = [];
  readonly runSteps: RunStep[] = [];
  readonly stateChanges: StateChange[] = [];

  /**
   * @param owned the caller hands the state over (a freshly loaded copy nobody else holds), so it is not cloned:
   * cloning a large session on every step costs more than the rest of the step.
   */
  constructor(
    state: SessionState,
    private readonly clock: () => Date = () => new Date(),
    owned = false,
  ) {
    this.state = owned ? state : structuredClone(state);
  }

  now(): string {
    return this.clock().toISOString();
  }

  emit(e: NewEvent): void {
    this.events.push(e);
  }

  private touch(): void {
    this.state.updatedAt = this.now();
  }

  setLanguage(language: string): void {
    this.state.bootstrap.language = language;
    this.touch();
    this.stateChanges.push({ type: 'SET_LANGUAGE', payload: { language } });
    this.emit(event('state.changed', { type: 'SET_LANGUAGE', payload: { language } }));
  }

  setCountry(country: string): void {
    this.state.bootstrap.country = country;
    this.touch();
    this.stateChanges.push({ type: 'SET_COUNTRY', payload: { country } });
    this.emit(event('state.changed', { type: 'SET_COUNTRY', payload: { country } }));
  }

  setTimezone(timezone: string, source: string): void {
    this.state.bootstrap.timezone = timezone;
    this.touch();
    this.stateChanges.push({ type: 'SET_TIMEZONE', payload: { timezone, source } });
    this.emit(event('state.changed', { type: 'SET_TIMEZONE', payload: { timezone, source } }));
  }

  /**
   * Passes control to `to`. The agent stack mirrors the seed's sub-sessions: a
   * subtask pushes the sub-agent, returning pops it, a hand-off replaces the top.
   */
  setAgent(to: AgentName): void {
    const from = this.state.currentAgent;
    if (from === to) return;
    const stack = this.state.agentStack;
    const loop = this.state.loop;
    if (loop && loop.subAgent === to && loop.pendingResult === undefined) stack.push({ agent: to, since: this.now() });
    else if (stack.length >= 2 && stack[stack.length - 2]?.agent === to) stack.pop();
    else stack.splice(stack.length - 1, 1, { agent: to, since: this.now() });
    this.state.currentAgent = to;
    this.touch();
    this.stateChanges.push({ type: 'SET_CURRENT_AGENT', payload: { from, to } });
    this.emit(event('agent.changed', { from, to }));
  }

  private addMessage(m: Omit<ChatMessage, 'messageId' | 'createdAt'>): ChatMessage {
    const message: ChatMessage = {
      ...m,
      messageId: `${this.state.sessionId}-m${this.state.messages.length + 1}`,
      createdAt: this.now(),
    };
    this.state.messages.push(message);
    this.touch();
    this.emit(
      event('message', {
        messageId: message.messageId,
        role: message.role,
        agent: message.agent,
        text: message.text,
        turnId: message.turnId,
      }),
    );
    return message;
  }

  addUserMessage(text: string, turnId: string, fieldId: string | null, correction = false): ChatMessage {
    const m = this.addMessage({ role: 'user', agent: null, text, turnId, fieldId, correction });
    this.stateChanges.push({ type: 'ADD_USER_MESSAGE', payload: { messageId: m.messageId } });
    return m;
  }

  addAssistantMessage(agent: AgentName, text: string, turnId: string, fieldId: string | null): ChatMessage {
    const m = this.addMessage({ role: 'assistant', agent, text, turnId, fieldId, correction: false });
    this.stateChanges.push({ type: 'ADD_ASSISTANT_MESSAGE', payload: { messageId: m.messageId, agent } });
    return m;
  }

  setPlan(plan: Plan): void {
    this.state.plan = plan;
    this.touch();
    this.emit(event('state.changed', { type: 'PLAN_CREATED', payload: { fields: plan.fields } }));
  }

  setFieldStatus(fieldId: string, status: FieldStatus, extra: Record<string, unknown> = {}): void {
    const f = this.state.fields.find((x) => x.fieldId === fieldId);
    if (!f || f.status === status) return;
    f.status = status;
    this.touch();
    this.emit(event('state.changed', { type: 'FIELD_STATUS', payload: { fieldId, status, ...extra } }));
  }

  setFieldValue(fieldId: string, value: string | null): void {
    const f = this.state.fields.find((x) => x.fieldId === fieldId);
    if (!f) return;
    f.value = value;
    if (value === null) delete this.state.collectedFields[fieldId];
    else this.state.collectedFields[fieldId] = value;
    this.touch();
    this.emit(event('state.changed', { type: 'FIELD_VALUE', payload: { fieldId, value } }));
  }
}
