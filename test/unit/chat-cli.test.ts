import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent, SessionEvent } from '@convo/contract';
import { describe, expect, it } from 'vitest';
import { parseChatArgs, UsageError } from '../../scripts/chat/args.js';
import { describeEvent, describeFields, livePrinter, PLAIN } from '../../scripts/chat/printer.js';
import { applyEvent, applySnapshot, createView } from '../../services/gateway/web/lib/session-view.js';

describe('chat arguments', () => {
  it('reads a form interview with its form file, defaulting the URL from PORT', () => {
    const opts = parseChatArgs(['--kind', 'form', '--form', 'examples/forms/event-registration-ja.json'], { PORT: '3100' }, true);
    expect(opts).toMatchObject({ url: 'http://localhost:3100', kind: 'form', language: 'auto', resume: null, color: true });
    expect(opts !== 'help' && opts.form?.title).toBe('技術勉強会 参加申込');
  });

  it('turns colour off for NO_COLOR, --no-color and pipes', () => {
    const faq = ['--kind', 'faq'];
    expect(parseChatArgs(faq, { NO_COLOR: '1' }, true)).toMatchObject({ color: false });
    expect(parseChatArgs([...faq, '--no-color'], {}, true)).toMatchObject({ color: false });
    expect(parseChatArgs(faq, {}, false)).toMatchObject({ color: false });
  });

  it('resumes with an id and a token from the flag or CHAT_TOKEN', () => {
    expect(parseChatArgs(['--resume', 's1', '--url', 'http://127.0.0.1:9/'], { CHAT_TOKEN: 'tok' }, false)).toMatchObject({
      url: 'http://127.0.0.1:9',
      resume: { sessionId: 's1', token: 'tok' },
    });
    expect(() => parseChatArgs(['--resume', 's1'], {}, false)).toThrow(/needs --token/);
    // A base64url token can start with '-': the printed resume command joins it with '='.
    expect(parseChatArgs(['--resume=s1', '--token=-Ab_9'], {}, false)).toMatchObject({ resume: { sessionId: 's1', token: '-Ab_9' } });
  });

  it('explains every mistake before any request is made', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ title: 'x', fields: [] }));
    const cases: [string[], RegExp][] = [
      [[], /--kind must be form, application or faq/],
      [['--kind', 'form'], /needs --form FILE/],
      [['--kind', 'faq', '--form', bad], /takes no --form/],
      [['--kind', 'form', '--form', join(dir, 'missing.json')], /cannot read the form/],
      [['--kind', 'application', '--form', bad], /is not a form: fields/],
      [['--kind', 'faq', '--language', 'de'], /--language must be ja, en or auto/],
      [['--kind', 'faq', '--url', 'localhost:8080'], /--url must be an http\(s\) URL/],
      [['--kind', 'faq', '--verbose'], /Unknown option/],
    ];
    for (const [argv, message] of cases) expect(() => parseChatArgs(argv, {}, false), argv.join(' ')).toThrow(message);
    expect(() => parseChatArgs([], {}, false)).toThrow(UsageError);
    expect(parseChatArgs(['--help'], {}, false)).toBe('help');
  });
});

describe('chat printer', () => {
  let seq = 0;
  const ev = (e: NewEvent): SessionEvent => ({ ...e, id: ++seq }) as SessionEvent;

  function formView() {
    const view = createView('form');
    applySnapshot(view, {
      fields: [
        { fieldId: 'name', label: 'Name', required: true, status: 'pending', value: null, followUps: 0 },
        { fieldId: 'note', label: 'Note', required: false, status: 'pending', value: null, followUps: 0 },
      ],
    });
    return view;
  }
  const print = (view: ReturnType<typeof createView>, streamEvent: SessionEvent, sent: string[] = []) => {
    applyEvent(view, streamEvent);
    return describeEvent(view, streamEvent, PLAIN, (text) => sent.includes(text));
  };

  it('prints the agent speaking, hand-overs and each settled field with the progress', () => {
    const view = formView();
    expect(
      print(
        view,
        ev({
          type: 'message',
          data: { messageId: 'm1', role: 'assistant', agent: 'interviewer', text: 'Name?\nFull, please.', turnId: 't' },
        }),
      ),
    ).toEqual(['[interviewer]\n  Name?\n  Full, please.']);
    expect(print(view, ev({ type: 'agent.changed', data: { from: 'interviewer', to: 'reviewer' } }))).toEqual([
      '  · interviewer → reviewer',
    ]);
    expect(
      print(view, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: 'name', status: 'reviewing' } } })),
    ).toEqual([]);
    print(view, ev({ type: 'state.changed', data: { type: 'FIELD_VALUE', payload: { fieldId: 'name', value: 'Ann\nLee' } } }));
    expect(
      print(view, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: 'name', status: 'done' } } })),
    ).toEqual(['  ✓ Name: Ann / Lee  [1/1 required]']);
    expect(
      print(view, ev({ type: 'state.changed', data: { type: 'FIELD_STATUS', payload: { fieldId: 'note', status: 'skipped' } } })),
    ).toEqual(['  – Note (skipped)  [1/1 required]']);
    expect(describeFields(view, PLAIN)).toEqual([
      '  1/1 required fields done · agent: reviewer · status: active',
      '  done         Name = Ann / Lee',
      '  skipped      Note (optional)',
    ]);
  });

  it('writes a question out as it arrives on a terminal, and marks text that never became a message', () => {
    const view = formView();
    let screen = '';
    const live = livePrinter((text) => (screen += text), PLAIN);
    const feed = (e: SessionEvent) => {
      applyEvent(view, e);
      return live(view, e);
    };
    feed(ev({ type: 'agent.changed', data: { from: null, to: 'interviewer' } }));
    feed(ev({ type: 'turn.started', data: { turnId: 't1' } }));
    const delta = (data: Record<string, unknown>) => ({ id: seq, type: 'message.delta', data: { turnId: 't1', ...data } }) as SessionEvent;
    expect(feed(delta({ messageId: 'm1', delta: 'Your full', offset: 0 }))).toBe(true);
    expect(feed(delta({ messageId: 'm1', delta: ' name?', offset: 9 }))).toBe(true);
    expect(screen).toBe('[interviewer]\n  Your full name?');
    // The stored message says the same: it only ends the line, nothing is printed twice.
    expect(
      feed(
        ev({ type: 'message', data: { messageId: 'm1', role: 'assistant', agent: 'interviewer', text: 'Your full name?', turnId: 't1' } }),
      ),
    ).toBe(true);
    expect(screen).toBe('[interviewer]\n  Your full name?\n');
    feed(ev({ type: 'turn.completed', data: { turnId: 't1', awaitingUserResponse: true } }));
    feed(ev({ type: 'turn.started', data: { turnId: 't2' } }));
    feed({ id: seq, type: 'message.delta', data: { messageId: 'm2', delta: 'And your em', offset: 0, turnId: 't2' } } as SessionEvent);
    expect(
      feed(ev({ type: 'turn.failed', data: { turnId: 't2', error: { code: 'cancelled', message: 'The turn was cancelled.' } } })),
    ).toBe(false);
    expect(screen.endsWith('And your em\n  (withdrawn)\n')).toBe(true);
  });

  it('prints only user messages it did not send itself', () => {
    const view = formView();
    const mine = ev({ type: 'message', data: { messageId: 'u1', role: 'user', agent: null, text: 'Ann', turnId: 't' } });
    expect(print(view, mine, ['Ann'])).toEqual([]);
    const earlier = ev({ type: 'message', data: { messageId: 'u2', role: 'user', agent: null, text: 'Lee', turnId: 't' } });
    expect(print(view, earlier)).toEqual(['you> Lee']);
  });

  it('numbers clarifying choices and names the sources of an answer', () => {
    const view = createView('faq');
    print(view, ev({ type: 'plan', data: { steps: [], needsClarification: true, raw: { choices: ['Policy', 'Procedure'] } } as never }));
    expect(print(view, ev({ type: 'clarify', data: { questions: ['Which?'] } }))).toEqual([
      '  choose one (type its number or your own words):',
      '   1) Policy',
      '   2) Procedure',
    ]);
    print(view, ev({ type: 'search', data: { query: 'q', topK: 3, hits: [{ id: 'r1', title: 'How to return', score: 1.5 }] } }));
    expect(print(view, ev({ type: 'answer', data: { answer: 'Like this', sources: ['r1'], final: true } }))).toEqual([
      '  sources: How to return [r1]',
    ]);
  });

  it('warns about failed checks, failed turns and an audit with problems', () => {
    const view = createView('application');
    expect(
      print(view, ev({ type: 'check', data: { passed: false, violations: [{ type: 'prohibited_topic', message: 'religion' }] } })),
    ).toEqual(['  ! check prohibited_topic: religion']);
    expect(print(view, ev({ type: 'turn.failed', data: { turnId: 't', error: { code: 'llm_unavailable', message: 'down' } } }))).toEqual([
      '  ! that turn failed (llm_unavailable): down — you can send it again',
    ]);
    expect(
      print(
        view,
        ev({
          type: 'audit',
          data: { passed: false, summary: 'one problem', violations: [{ type: 'missing_required', message: 'email', severity: 'error' }] },
        }),
      ),
    ).toEqual(['  audit found problems: one problem', '    error missing_required: email']);
  });
});
