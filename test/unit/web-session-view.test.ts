import type { NewEvent, SessionEvent } from '@convo/contract';
import { describe, expect, it } from 'vitest';
import {
  answerSources,
  applyEvent,
  applySnapshot,
  canSubmit,
  createView,
  fieldProgress,
  hasUserMessage,
  type SessionView,
} from '../../services/gateway/web/lib/session-view.js';

/** The view the page and the terminal client both render, folded from contract events. */
let seq = 0;
const ev = (e: NewEvent): SessionEvent => ({ ...e, id: ++seq }) as SessionEvent;

function formView(): SessionView {
  const view = createView('form');
  applySnapshot(view, {
    kind: 'form',
    fields: [
      { fieldId: 'name', label: 'Name', required: true, status: 'pending', value: null, followUps: 0 },
      { fieldId: 'email', label: 'Email', required: true, status: 'pending', value: null, followUps: 0 },
      { fieldId: 'diet', label: 'Diet', required: false, status: 'pending', value: null, followUps: 0 },
    ],
  });
  return view;
}

describe('session view', () => {
  it('applies an event once: a replayed id changes nothing', () => {
    const view = formView();
    const msg = ev({ type: 'message', data: { messageId: 'm1', role: 'assistant', agent: 'greeter', text: 'Hello', turnId: 't1' } });
    expect(applyEvent(view, msg)).toBe(true);
    expect(applyEvent(view, msg)).toBe(false);
    expect(applyEvent(view, { ...msg, id: msg.id - 1 })).toBe(false);
    expect(view.messages).toHaveLength(1);
    expect(view.lastEventId).toBe(msg.id);
    expect(view.currentAgent).toBe('greeter');
  });

  it('streams deltas into one message that the full message then replaces', () => {
    const view = formView();
    applyEvent(view, ev({ type: 'agent.changed', data: { from: null, to: 'interviewer' } }));
    applyEvent(view, ev({ type: 'message.delta', data: { messageId: 'm2', delta: 'Your ' } }));
    applyEvent(view, ev({ type: 'message.delta', data: { messageId: 'm2', delta: 'name?' } }));
    expect(view.messages).toEqual([
      expect.objectContaining({ messageId: 'm2', text: 'Your name?', streaming: true, agent: 'interviewer' }),
    ]);
    applyEvent(
      view,
      ev({ type: 'message', data: { messageId: 'm2', role: 'assistant', agent: 'interviewer', text: 'Your full name?', turnId: 't1' } }),
    );
    expect(view.messages).toEqual([expect.objectContaining({ messageId: 'm2', text: 'Your full name?', streaming: false })]);
  });

  it('puts a delta at its offset (a restarted generation overwrites) and moves no event cursor', () => {
    const view = formView();
    applyEvent(view, ev({ type: 'turn.started', data: { turnId: 't1' } }));
    const cursor = view.lastEventId;
    // Deltas repeat the id of the last stored event: they must be applied all the same.
    const live = (data: Record<string, unknown>) => ({ id: cursor, type: 'message.delta', data }) as SessionEvent;
    expect(applyEvent(view, live({ messageId: 'm5', delta: 'Which coun', offset: 0, turnId: 't1' }))).toBe(true);
    expect(applyEvent(view, live({ messageId: 'm5', delta: 'try?', offset: 10, turnId: 't1' }))).toBe(true);
    expect(view.messages.at(-1)!.text).toBe('Which country?');
    applyEvent(view, live({ messageId: 'm5', delta: 'Wh', offset: 0, turnId: 't1' }));
    applyEvent(view, live({ messageId: 'm5', delta: 'ere do you live?', offset: 2, turnId: 't1' }));
    expect(view.messages.at(-1)).toMatchObject({ text: 'Where do you live?', streaming: true, turnId: 't1' });
    expect(view.lastEventId).toBe(cursor);
  });

  it('withdraws streamed text that never became a message: on message.discarded and when its turn ends', () => {
    const view = formView();
    applyEvent(view, ev({ type: 'turn.started', data: { turnId: 't1' } }));
    const live = (messageId: string) =>
      ({
        id: view.lastEventId,
        type: 'message.delta',
        data: { messageId, delta: 'Half a quest', offset: 0, turnId: 't1' },
      }) as SessionEvent;
    applyEvent(view, live('a'));
    applyEvent(view, live('b'));
    applyEvent(view, ev({ type: 'message.discarded', data: { turnId: 't1', messageIds: ['a'] } }));
    expect(view.messages.map((m) => m.messageId)).toEqual(['b']);
    applyEvent(view, ev({ type: 'turn.failed', data: { turnId: 't1', error: { code: 'cancelled', message: 'The turn was cancelled.' } } }));
    expect(view.messages).toEqual([]);
    // A message delivered whole ignores a late delta.
    applyEvent(
      view,
      ev({ type: 'message', data: { messageId: 'c', role: 'assistant', agent: 'interviewer', text: 'Done.', turnId: 't2' } }),
    );
    expect(
      applyEvent(view, { id: view.lastEventId, type: 'message.delta', data: { messageId: 'c', delta: 'Do', offset: 0 } } as SessionEvent),
    ).toBe(false);
    expect(view.messages.at(-1)).toMatchObject({ text: 'Done.', streaming: false });
  });

  it('orders fields by the architect plan and follows their status, value and follow-ups', () => {
    const view = formView();
    applyEvent(
      view,
      ev({
        type: 'state.changed',
        data: {
          type: 'PLAN_CREATED',
          payload: {
            fields: [
              { field_id: 'email', label: 'Email', intent: '', required: true },
              { field_id: 'name', label: 'Name', intent: '', required: true },
            ],
          },
        },
      }),
    );
    expect(view.fields.map((f) => f.fieldId)).toEqual(['email', 'name', 'diet']);
    applyEvent(
      view,
      ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'interviewing', followUps: 1 } } }),
    );
    applyEvent(view, ev({ type: 'state.changed', data: { type: 'FIELD_VALUE', payload: { fieldId: 'email', value: 'a@b.co' } } }));
    applyEvent(view, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'done' } } }));
    expect(view.fields[0]).toMatchObject({ fieldId: 'email', status: 'done', value: 'a@b.co', followUps: 1 });
    expect(fieldProgress(view)).toEqual({ done: 1, total: 3, requiredDone: 1, required: 2 });
  });

  it('allows submitting once every required field is done, and for applications only after the audit', () => {
    const form = formView();
    for (const id of ['name', 'email'])
      applyEvent(form, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: id, status: 'done' } } }));
    expect(canSubmit(form)).toBe(true);

    const app = formView();
    app.kind = 'application';
    for (const id of ['name', 'email'])
      applyEvent(app, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: id, status: 'done' } } }));
    expect(canSubmit(app)).toBe(false);
    applyEvent(app, ev({ type: 'audit', data: { passed: true, violations: [], summary: 'ok' } }));
    expect(canSubmit(app)).toBe(true);
    applyEvent(
      app,
      ev({
        type: 'session.completed',
        data: { collectedFields: { name: 'A', email: 'a@b.co' }, audit: { passed: true, violations: [], summary: 'ok' } },
      }),
    );
    expect(app.status).toBe('awaiting_confirmation');
    app.status = 'submitted';
    expect(canSubmit(app)).toBe(false);

    const skipped = formView();
    applyEvent(skipped, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: 'name', status: 'done' } } }));
    applyEvent(skipped, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: 'email', status: 'skipped' } } }));
    expect(canSubmit(skipped)).toBe(false);
  });

  it('offers the planner choices while clarifying and drops them once the user answers', () => {
    const view = createView('faq');
    applyEvent(
      view,
      ev({
        type: 'plan',
        data: {
          steps: [{ id: 'c1', type: 'clarify', description: 'ask', questions: ['Which one?'] }],
          needsClarification: true,
          clarifyingQuestions: ['Which one?'],
          raw: { planner: 'rule', choices: ['Policy', 'Procedure', ''] },
        } as never,
      }),
    );
    applyEvent(view, ev({ type: 'clarify', data: { questions: ['Which one?'] } }));
    expect(view.clarify).toEqual({ questions: ['Which one?'], choices: ['Policy', 'Procedure'] });
    applyEvent(view, ev({ type: 'message', data: { messageId: 'u1', role: 'user', agent: null, text: 'Procedure', turnId: 't2' } }));
    expect(view.clarify).toBeNull();
    expect(hasUserMessage(view, 't2')).toBe(true);
    expect(hasUserMessage(view, 't3')).toBe(false);
  });

  it('names the answer sources by the titles of the same turn search hits', () => {
    const view = createView('faq');
    applyEvent(view, ev({ type: 'plan', data: { steps: [], needsClarification: false } as never }));
    applyEvent(view, ev({ type: 'search', data: { query: 'q', topK: 3, hits: [{ id: 'a', title: 'Returns', score: 1 }] } }));
    applyEvent(view, ev({ type: 'answer', data: { answer: 'Yes', sources: ['a', 'b'], final: true } }));
    expect(answerSources(view)).toEqual([
      { id: 'a', title: 'Returns' },
      { id: 'b', title: 'b' },
    ]);
    // A new plan starts a new turn's panel.
    applyEvent(view, ev({ type: 'plan', data: { steps: [], needsClarification: false } as never }));
    expect(view.searches).toEqual([]);
    expect(answerSources(view)).toEqual([]);
  });

  it('tracks the running turn, queued turns and failures', () => {
    const view = formView();
    applyEvent(view, ev({ type: 'turn.started', data: { turnId: 't1' } }));
    applyEvent(view, ev({ type: 'turn.queued', data: { turnId: 't2', position: 1 } }));
    expect(view).toMatchObject({ activeTurn: 't1', queuedTurns: { t2: 1 } });
    applyEvent(view, ev({ type: 'turn.failed', data: { turnId: 't1', error: { code: 'llm_unavailable', message: 'down' } } }));
    expect(view).toMatchObject({ activeTurn: null, lastFailure: { turnId: 't1', code: 'llm_unavailable' } });
    applyEvent(view, ev({ type: 'turn.started', data: { turnId: 't2' } }));
    expect(view).toMatchObject({ activeTurn: 't2', queuedTurns: {}, lastFailure: null });
    applyEvent(view, ev({ type: 'turn.completed', data: { turnId: 't2', awaitingUserResponse: true } }));
    expect(view).toMatchObject({ activeTurn: null, awaitingUser: true });
  });

  it('replaces what it knew with the snapshot of a resync', () => {
    const view = formView();
    applyEvent(view, ev({ type: 'message', data: { messageId: 'old', role: 'assistant', agent: 'greeter', text: 'old', turnId: 't1' } }));
    const resync = ev({
      type: 'resync',
      data: {
        snapshot: {
          sessionId: 's1',
          kind: 'form',
          status: 'active',
          currentAgent: 'interviewer',
          bootstrap: { language: 'en', country: null, timezone: null },
          fields: [
            {
              fieldId: 'name',
              label: 'Name',
              required: true,
              status: 'done',
              value: 'Ann',
              followUps: 0,
              skipReason: null,
              needsReview: false,
              toConfirm: null,
              derivation: 'verbatim',
            },
          ],
          collectedFields: { name: 'Ann' },
          needsReview: [],
          audit: null,
          messages: [{ messageId: 'm9', role: 'user', agent: null, text: 'Ann', createdAt: '2026-01-01T00:00:00.000Z', fieldId: 'name' }],
          turn: { active: null, queued: 0 },
          usage: { modelCalls: 0, promptTokens: 0, cachedTokens: 0, completionTokens: 0, reasoningTokens: 0 },
          lastEventId: seq + 50,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      },
    });
    applyEvent(view, resync);
    expect(view.messages.map((m) => m.messageId)).toEqual(['m9']);
    expect(view.fields).toEqual([expect.objectContaining({ fieldId: 'name', value: 'Ann', status: 'done' })]);
    expect(view.currentAgent).toBe('interviewer');
    expect(view.lastEventId).toBe(resync.id + 49);
  });
});
