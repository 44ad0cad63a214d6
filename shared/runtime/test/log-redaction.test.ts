import { describe, expect, it } from 'vitest';
import { redactUrl } from '@convo/runtime';

describe('request URLs in logs', () => {
  it('lose the value of every credential parameter, however its name is written', () => {
    expect(redactUrl('/v1/sessions/s1/events?token=abc')).toBe('/v1/sessions/s1/events?token=redacted');
    expect(redactUrl('/v1/sessions/s1/events?%74oken=abc&lastEventId=3')).toBe('/v1/sessions/s1/events?token=redacted&lastEventId=3');
    expect(redactUrl('/x?TOKEN=abc')).toBe('/x?TOKEN=redacted');
    expect(redactUrl('/x?a=1&token=abc&token=def')).toBe('/x?a=1&token=redacted');
    expect(redactUrl('/x?api_key=k&key=k2&secret=s')).toBe('/x?api_key=redacted&key=redacted&secret=redacted');
  });

  it('keep everything else as it was', () => {
    expect(redactUrl('/v1/sessions/s1')).toBe('/v1/sessions/s1');
    expect(redactUrl('/api/worksheets/ws-1/pdf?sheet=answers')).toBe('/api/worksheets/ws-1/pdf?sheet=answers');
    expect(redactUrl('/x?tokens=1')).toBe('/x?tokens=1');
  });
});
