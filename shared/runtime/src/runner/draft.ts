import {
  event,
  NO_TOKENS,
  type AgentName,
  type ChatMessage,
  type DeepReadonly,
  type Language,
  type LoopCheckpoint,
  type NewEvent,
  type RunStep,
  type SessionState,
  type TimezoneSource,
  type TokenTotals,
} from '@convo/contract';
import { SystemError } from '../errors.js';

/** The StateChange records of docs/seeds/001, read off the events a draft emitted. */
export type StateChangeType =
  'SET_LANGUAGE' | 'SET_COUNTRY' | 'SET_TIMEZONE' | 'SET_CURRENT_AGENT' | 'ADD_USER_MESSAGE' | 'ADD_ASSISTANT_MESSAGE';
export type StateChange = { type: StateChangeType; payload: Record<string, unknown> };

const BOOTSTRAP_CHANGES: ReadonlySet<string> = new Set(['SET_LANGUAGE', 'SET_COUNTRY', 'SET_TIMEZONE']);

/**
 * A working copy of one session's state during a step. Every mutation goes
 * through a method that also records the event the contract promises for it,
 * so state and events cannot drift apart; the step runner commits both at once.
 *
 * `S` is the session's state. This class changes only what every session has
 * (messages, the agent in charge, the language, country and time zone, the
 * suspended loop, usage); a product's draft extends it with the mutators of its
 * own part (each product package has one), and an agent service is built with
 * that product's draft factory, so an agent gets its product's draft typed and
 * never narrows at run time.
 */
export class SessionDraft<S extends SessionState = SessionState> {
  readonly #state: S;
  readonly events: NewEvent[] = [];
  readonly runSteps: RunStep[] = [];

  /**
   * @param owned the caller hands the state over (a freshly loaded copy nobody else holds), so it is not cloned:
   * cloning a large session on every step costs more than the rest of the step.
   */
  constructor(
    state: S,
    private readonly clock: () => Date = () => new Date(),
    owned = false,
  ) {
    this.#state = owned ? state : structuredClone(state);
  }

  /** The state as it stands in this step, to read; changes go through the methods below. */
  get state(): DeepReadonly<S> {
    return this.#state as DeepReadonly<S>;
  }

  /**
   * The state to change, for the mutators of a product's draft (a subclass): each one changes it,
   * calls `touch()` and emits the event the contract promises for the change.
   */
  protected get mutable(): S {
    return this.#state;
  }

  now(): string {
    return this.clock().toISOString();
  }

  emit(newEvent: NewEvent): void {
    this.events.push(newEvent);
  }

  /** The StateChange records of this draft, derived from its events so the two cannot disagree. */
  get stateChanges(): StateChange[] {
    return this.events.flatMap((recorded): StateChange[] => {
      if (recorded.type === 'agent.changed') return [{ type: 'SET_CURRENT_AGENT', payload: { ...(recorded.data as object) } }];
      if (recorded.type === 'message') {
        const message = recorded.data as { messageId: string; role: string; agent: string | null };
        return [
          message.role === 'user'
            ? { type: 'ADD_USER_MESSAGE', payload: { messageId: message.messageId } }
            : { type: 'ADD_ASSISTANT_MESSAGE', payload: { messageId: message.messageId, agent: message.agent } },
        ];
      }
      if (recorded.type !== 'state.changed') return [];
      const change = recorded.data as { type: string; payload: Record<string, unknown> };
      return BOOTSTRAP_CHANGES.has(change.type) ? [{ type: change.type as StateChangeType, payload: change.payload }] : [];
    });
  }

  /** One model call's tokens, added to the session's and the current turn's totals. */
  countModelCall(usage: Omit<TokenTotals, 'modelCalls'>): void {
    // Sessions stored before usage was kept have no totals yet.
    this.#state.usage ??= { ...NO_TOKENS };
    this.#state.turnUsage ??= { ...NO_TOKENS };
    for (const totals of [this.#state.usage, this.#state.turnUsage]) {
      totals.modelCalls += 1;
      totals.promptTokens += usage.promptTokens;
      totals.cachedTokens += usage.cachedTokens;
      totals.completionTokens += usage.completionTokens;
      totals.reasoningTokens += usage.reasoningTokens;
    }
    this.touch();
  }

  /** The first step of a turn: the session records which turn it started and says so. */
  beginTurn(turnId: string): void {
    this.#state.startedTurnId = turnId;
    this.#state.turnUsage = { ...NO_TOKENS };
    this.emit(event('turn.started', { turnId }));
  }

  /** The agent loop suspends on a subtask (its checkpoint is kept until the result comes back), or resumes and clears it. */
  setLoop(checkpoint: LoopCheckpoint | null): void {
    this.#state.loop = checkpoint;
  }

  /**
   * The sub-agent has finished: its result (or `fallback` when it left none)
   * moves from subSessionResults to the suspended loop, which resumes with it.
   */
  resolveSubtask(fallback: unknown): LoopCheckpoint {
    const loop = this.#state.loop;
    if (!loop) throw new SystemError(`session ${this.#state.sessionId} has no suspended loop to resume`);
    const callId = loop.pendingCall.id;
    loop.pendingResult = this.#state.subSessionResults[callId] ?? fallback;
    delete this.#state.subSessionResults[callId];
    this.touch();
    return loop;
  }

  /** The respondent was asked which city or zone, because the country spans several (asked once). */
  markTimezoneAsked(): void {
    this.#state.bootstrap.timezoneAsked = true;
    this.touch();
  }

  /** The respondent named no country within the bounded questions: the conversation goes on without one. */
  markCountryUnknown(): void {
    this.#state.bootstrap.countryUnknown = true;
    this.touch();
  }

  /** A sub-agent's result for the suspended loop's pending call `callId` (read when the loop resumes). */
  setSubtaskResult(callId: string, result: unknown): void {
    this.#state.subSessionResults[callId] = result;
    this.touch();
  }

  /** The respondent submitted the session (outside any step: the gateway commits it on its own). */
  markSubmitted(): void {
    this.#state.status = 'submitted';
    this.touch();
  }

  /** The session waits for the respondent to confirm before it can be submitted. */
  awaitConfirmation(): void {
    this.#state.status = 'awaiting_confirmation';
    this.touch();
  }

  /** The state changed now (`updatedAt`). */
  protected touch(): void {
    this.#state.updatedAt = this.now();
  }

  setLanguage(language: Language): void {
    this.#state.bootstrap.language = language;
    this.touch();
    this.emit(event('state.changed', { type: 'SET_LANGUAGE', payload: { language } }));
  }

  setCountry(country: string): void {
    this.#state.bootstrap.country = country;
    this.touch();
    this.emit(event('state.changed', { type: 'SET_COUNTRY', payload: { country } }));
  }

  setTimezone(timezone: string, source: TimezoneSource): void {
    this.#state.bootstrap.timezone = timezone;
    this.touch();
    this.emit(event('state.changed', { type: 'SET_TIMEZONE', payload: { timezone, source } }));
  }

  /**
   * Passes control to `to`. The agent stack mirrors the seed's sub-sessions: a
   * subtask pushes the sub-agent, returning pops it, a hand-off replaces the top.
   */
  setAgent(to: AgentName): void {
    const from = this.#state.currentAgent;
    if (from === to) return;
    const stack = this.#state.agentStack;
    const loop = this.#state.loop;
    if (loop && loop.subAgent === to && loop.pendingResult === undefined) stack.push({ agent: to, since: this.now() });
    else if (stack.length >= 2 && stack[stack.length - 2]?.agent === to) stack.pop();
    else stack.splice(stack.length - 1, 1, { agent: to, since: this.now() });
    this.#state.currentAgent = to;
    this.touch();
    this.emit(event('agent.changed', { from, to }));
  }

  private addMessage(input: Omit<ChatMessage, 'messageId' | 'createdAt'>, messageId?: string): ChatMessage {
    const taken = messageId !== undefined && this.#state.messages.some((m) => m.messageId === messageId);
    const message: ChatMessage = {
      ...input,
      messageId: messageId && !taken ? messageId : `${this.#state.sessionId}-m${this.#state.messages.length + 1}`,
      createdAt: this.now(),
    };
    this.#state.messages.push(message);
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
    const message = this.addMessage({ role: 'user', agent: null, text, turnId, fieldId, correction });
    return message;
  }

  /**
   * Bakes a turn's results into one of its assistant messages (seed 004's
   * additionalData): a message this step added, so it is stored with it.
   */
  setMessageData(messageId: string, data: Record<string, unknown>): void {
    const message = this.#state.messages.find((candidate) => candidate.messageId === messageId);
    if (!message) return;
    message.data = { ...message.data, ...data };
    this.touch();
  }

  /** `messageId`: the id its text was streamed under while generated (message.delta), so clients can match them. */
  addAssistantMessage(agent: AgentName, text: string, turnId: string, fieldId: string | null, messageId?: string): ChatMessage {
    const message = this.addMessage({ role: 'assistant', agent, text, turnId, fieldId, correction: false }, messageId);
    return message;
  }
}

/**
 * How a product makes the draft its agents work on (its subclass of SessionDraft) from a loaded
 * state: `owned` as in the constructor. A factory checks that the session is of its product once,
 * where the draft is made; the agents it serves never narrow.
 */
export type DraftFactory<D extends SessionDraft = SessionDraft> = (state: SessionState, owned: boolean) => D;

/** The draft of the core alone: for products without a part of their own, and the runtime's own steps. */
export const coreDraft: DraftFactory = (state, owned) => new SessionDraft(state, undefined, owned);
