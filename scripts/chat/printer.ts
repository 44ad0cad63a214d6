import type { SessionEvent, SessionView } from '../../services/gateway/web/lib/session-view.js';
import { answerSources, fieldProgress } from '../../services/gateway/web/lib/session-view.js';

/** ANSI styles, or none: a pipe or NO_COLOR gets plain text. */
export interface Styles {
  dim(s: string): string;
  bold(s: string): string;
  ok(s: string): string;
  warn(s: string): string;
  accent(s: string): string;
}

const ansi = (code: number) => (s: string) => `\x1b[${code}m${s}\x1b[0m`;
export const COLOR: Styles = { dim: ansi(2), bold: ansi(1), ok: ansi(32), warn: ansi(33), accent: ansi(36) };
export const PLAIN: Styles = { dim: (s) => s, bold: (s) => s, ok: (s) => s, warn: (s) => s, accent: (s) => s };

const indent = (text: string, by = '  ') =>
  text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
/** A value on one line: answers given over several messages are joined with newlines. */
export const oneLine = (text: string) => text.replace(/(?<!\s)\s*\n+\s*/g, ' / ');

/**
 * What the terminal prints for one event, already folded into `view`. The
 * person's own lines are on screen as typed, so a user message is printed
 * only when this process did not send it (a resumed session's history).
 */
export function describeEvent(view: SessionView, ev: SessionEvent, st: Styles, sentByMe: (text: string) => boolean): string[] {
  switch (ev.type) {
    case 'message':
      if (ev.data.role === 'user') return sentByMe(ev.data.text) ? [] : [st.dim(`you> ${ev.data.text}`)];
      return [`${st.accent(`[${ev.data.agent ?? 'assistant'}]`)}\n${indent(ev.data.text)}`];
    case 'agent.changed':
      return [st.dim(`  · ${ev.data.from ?? 'start'} → ${ev.data.to}`)];
    case 'state.changed': {
      const change = ev.data;
      switch (change.type) {
        case 'SET_LANGUAGE':
          return [st.dim(`  · language: ${change.payload.language}`)];
        case 'SET_COUNTRY':
          return [st.dim(`  · country: ${change.payload.country}`)];
        case 'SET_TIMEZONE':
          return [st.dim(`  · time zone: ${change.payload.timezone}`)];
        case 'PLAN_CREATED':
          return [st.dim(`  · plan: ${view.fields.map((f) => f.label).join(' → ')}`)];
        case 'FIELD_STATUS': {
          const field = view.fields.find((f) => f.fieldId === change.payload.fieldId);
          if (!field || (field.status !== 'done' && field.status !== 'skipped')) return [];
          const progress = fieldProgress(view);
          const mark = field.status === 'done' ? st.ok('✓') : st.warn('–');
          const value = field.status === 'done' ? `: ${oneLine(field.value ?? '')}` : ' (skipped)';
          return [`  ${mark} ${field.label}${value}  ${st.dim(`[${progress.requiredDone}/${progress.required} required]`)}`];
        }
        default:
          return [];
      }
    }
    case 'review':
      return ev.data.passed ? [] : [st.dim(`  · reviewer: missing ${ev.data.missingFacts.join(', ') || ev.data.feedback || 'details'}`)];
    case 'check':
      return ev.data.passed ? [] : ev.data.violations.map((v) => st.warn(`  ! check ${v.type}: ${v.message}`));
    case 'audit':
      return [
        `  ${ev.data.passed ? st.ok('audit passed') : st.warn('audit found problems')}: ${ev.data.summary}`,
        ...ev.data.violations.map((v) => st.warn(`    ${v.severity} ${v.type}: ${v.message}`)),
      ];
    case 'plan': {
      const steps = ev.data.steps.map((s) => ('query' in s && typeof s.query === 'string' ? `${s.type} "${s.query}"` : s.type));
      return [st.dim(`  · plan (${ev.data.confidence ?? '?'}): ${steps.join(' → ')}`)];
    }
    case 'search': {
      const top = ev.data.hits[0];
      return [
        st.dim(
          `  · search "${ev.data.query}": ${ev.data.hits.length} hit(s)${top ? `, best: ${top.title} (${top.score.toFixed(2)})` : ''}`,
        ),
      ];
    }
    case 'answer': {
      const sources = answerSources(view);
      return sources.length === 0 ? [] : [st.dim(`  sources: ${sources.map((s) => `${s.title} [${s.id}]`).join('; ')}`)];
    }
    case 'clarify': {
      const choices = view.clarify?.choices ?? [];
      return choices.length === 0
        ? []
        : [st.bold('  choose one (type its number or your own words):'), ...choices.map((c, i) => `   ${i + 1}) ${c}`)];
    }
    case 'turn.queued':
      return [st.dim(`  · queued behind the running turn (position ${ev.data.position})`)];
    case 'turn.failed':
      return [st.warn(`  ! that turn failed (${ev.data.error.code}): ${ev.data.error.message} — you can send it again`)];
    case 'session.completed':
      return [st.ok(`  ✓ every field is settled${view.kind === 'application' ? ' and audited' : ''}. Type /submit to send your answers.`)];
    case 'resync':
      return [st.warn('  ! the server no longer holds part of this history; showing its current state')];
    default:
      return [];
  }
}

/**
 * A question written out as it arrives (message.delta, already folded into
 * the view): the agent's name, then the text piece by piece; the final
 * message only ends the line when it says what is on screen, and text that
 * never became a message is marked withdrawn. Returns whether it printed the
 * event (the caller prints the rest as usual). `startLine` clears a prompt
 * the line may hold.
 */
export function livePrinter(write: (text: string) => void, st: Styles, startLine: () => void = () => undefined) {
  let live: { messageId: string; shown: string } | null = null;
  return (view: SessionView, ev: SessionEvent): boolean => {
    if (ev.type === 'message.delta') {
      const text = view.messages.find((m) => m.messageId === ev.data.messageId)?.text ?? '';
      if (live?.messageId !== ev.data.messageId) {
        if (live) write('\n');
        startLine();
        write(`${st.accent(`[${view.currentAgent ?? 'assistant'}]`)}\n  `);
        live = { messageId: ev.data.messageId, shown: '' };
      }
      // A restarted generation cannot be erased on a terminal: its text starts again on a new line.
      const more = text.startsWith(live.shown) ? text.slice(live.shown.length) : `\n  ${text}`;
      write(more.replace(/\n/g, '\n  '));
      live.shown = text;
      return true;
    }
    if (!live) return false;
    const streamed = live;
    if (ev.type === 'message' && ev.data.messageId === streamed.messageId) {
      live = null;
      write('\n');
      // The whole text is already on screen unless the message differs from what streamed.
      return ev.data.text === streamed.shown.trim();
    }
    if (ev.type === 'message.discarded' || ev.type === 'turn.failed' || ev.type === 'turn.completed') {
      live = null;
      write(`\n${st.dim('  (withdrawn)')}\n`);
    }
    return false;
  };
}

/** `/status`: the fields with their status and value. */
export function describeFields(view: SessionView, st: Styles): string[] {
  if (view.fields.length === 0) return [st.dim('  (no fields)')];
  const progress = fieldProgress(view);
  return [
    st.bold(
      `  ${progress.requiredDone}/${progress.required} required fields done · agent: ${view.currentAgent ?? '—'} · status: ${view.status}`,
    ),
    ...view.fields.map(
      (f) => `  ${f.status.padEnd(12)} ${f.label}${f.required ? '' : ' (optional)'}${f.value !== null ? ` = ${oneLine(f.value)}` : ''}`,
    ),
  ];
}
