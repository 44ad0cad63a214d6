import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { failure, parseAndValidateToolArgs, ParseToolArgsSchema, success } from '@convo/agent-kit';
import { ReviewResult } from '@convo/contract';
import { CreatePlanInput } from '../../services/architect/src/agent.js';
import { SetTimezoneInput } from '../../services/greeter/src/agent.js';
import { ReviewInput, toReviewResult } from '../../services/reviewer/src/agent.js';

const Language = z.object({ language: z.string() });

describe('parseAndValidateToolArgs', () => {
  it('parses a JSON string into typed input', () => {
    expect(parseAndValidateToolArgs('{"language":"ja"}', Language, 'set language')).toEqual({ success: true, data: { language: 'ja' } });
  });

  it('accepts arguments that are already an object', () => {
    expect(parseAndValidateToolArgs({ language: 'en' }, Language, 'set language')).toEqual({ success: true, data: { language: 'en' } });
  });

  it('reports invalid JSON with the tool name and tells the model the arguments are not valid JSON', () => {
    const result = parseAndValidateToolArgs('{"language": ', Language, 'set language');
    expect(result.success).toBe(false);
    // The model reads this message to correct itself: it must say what is wrong, not zod's generic "Invalid input".
    if (!result.success) expect(result.error).toMatch(/^Invalid JSON for set language: arguments are not valid JSON \(.+\)$/);
  });

  it('treats an empty string as an empty object', () => {
    expect(parseAndValidateToolArgs('', z.object({}), 'noop')).toEqual({ success: true, data: {} });
    expect(ParseToolArgsSchema.parse('')).toEqual({});
    // ...which then fails the schema like `{}` would, as a parameter problem rather than a JSON one.
    const result = parseAndValidateToolArgs('', Language, 'set language');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toMatch(/^Invalid parameters for set language: language: /);
  });

  it('rejects arguments that are neither a string nor an object', () => {
    for (const raw of [42, null, undefined, true]) {
      const result = parseAndValidateToolArgs(raw, Language, 'set language');
      expect(result.success, String(raw)).toBe(false);
      if (!result.success) expect(result.error).toMatch(/^Invalid JSON for set language/);
    }
  });

  it('names the path of a schema violation, nested ones included', () => {
    const result = parseAndValidateToolArgs({ language: 7 }, Language, 'set language');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toMatch(/^Invalid parameters for set language: language: /);

    const plan = parseAndValidateToolArgs(
      JSON.stringify({
        fields: [
          { field_id: 'email', label: 'Email', intent: 'x', required: true },
          { field_id: 'name', label: 'Name', intent: 'y' },
        ],
      }),
      CreatePlanInput,
      'create_plan',
    );
    expect(plan.success).toBe(false);
    if (!plan.success) expect(plan.error).toMatch(/Invalid parameters for create_plan: fields\.1\.required: /);
  });

  it('lists every violation, not just the first', () => {
    const result = parseAndValidateToolArgs({}, SetTimezoneInput, 'set_timezone');
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error).toContain('timezone: ');
      expect(result.error).toContain('hint: ');
    }
  });

  it('names the root when the JSON is not an object', () => {
    const result = parseAndValidateToolArgs('[1,2]', Language, 'set language');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toMatch(/^Invalid parameters for set language: \(root\): /);
  });

  it('accepts null for a nullable input but rejects it omitted: tool inputs are nullable, never optional', () => {
    expect(parseAndValidateToolArgs('{"timezone":null,"hint":null}', SetTimezoneInput, 'set_timezone')).toEqual({
      success: true,
      data: { timezone: null, hint: null },
    });
    const omitted = parseAndValidateToolArgs('{"timezone":null}', SetTimezoneInput, 'set_timezone');
    expect(omitted.success).toBe(false);
    if (!omitted.success) expect(omitted.error).toMatch(/Invalid parameters for set_timezone: hint: /);
  });

  it('rejects a reviewer verdict that omits a nullable field instead of sending null', () => {
    const full = {
      passed: true,
      feedback: null,
      missing: null,
      extracted_facts: null,
      field_value: 'x',
      skipped: null,
      notice: null,
      derivation: null,
      certain: null,
    };
    expect(parseAndValidateToolArgs(JSON.stringify(full), ReviewInput, 'review').success).toBe(true);
    const { skipped: _skipped, ...withoutSkipped } = full;
    const result = parseAndValidateToolArgs(JSON.stringify(withoutSkipped), ReviewInput, 'review');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toMatch(/skipped: /);
  });
});

describe('success / failure', () => {
  it('carry the message the model reads next, with extra data beside it', () => {
    expect(success('done', { candidates: ['Asia/Tokyo'] })).toEqual({
      status: 'success',
      result: { message: 'done', candidates: ['Asia/Tokyo'] },
    });
    expect(success('done')).toEqual({ status: 'success', result: { message: 'done' } });
    expect(failure('nope')).toEqual({ status: 'error', result: { message: 'nope' } });
  });
});

describe("the reviewer's toReviewResult transform", () => {
  const input = (over: Partial<ReviewInput> = {}): ReviewInput => ({
    passed: true,
    feedback: null,
    missing: null,
    notice: null,
    extracted_facts: null,
    field_value: null,
    skipped: null,
    derivation: null,
    certain: null,
    ...over,
  });

  it('drops null feedback, field_value and skipped instead of storing nulls', () => {
    const result = toReviewResult(input());
    expect(result).not.toHaveProperty('feedback');
    expect(result).not.toHaveProperty('field_value');
    expect(result).not.toHaveProperty('skipped');
    expect(result.passed).toBe(true);
    expect(ReviewResult.parse(result)).toEqual(result);
  });

  it('turns null fact lists into empty lists', () => {
    const result = toReviewResult(input({ passed: false }));
    expect(result.missing_facts).toEqual([]);
    expect(result.extracted_facts).toEqual([]);
  });

  it('keeps given values', () => {
    const result = toReviewResult(
      input({
        passed: false,
        feedback: 'Missing the domain',
        missing: [
          {
            fact: 'Email address',
            reason: 'invalid',
            kind: 'email',
            heard: 'ann@',
            options: [],
            note: "The email address 'ann@' is not valid.",
          },
        ],
        extracted_facts: ['name: Ann'],
        field_value: 'ann@',
      }),
    );
    expect(result).toEqual({
      passed: false,
      feedback: 'Missing the domain',
      missing_facts: ['Email address'],
      extracted_facts: ['name: Ann'],
      field_value: 'ann@',
    });
  });

  it('drops an empty or blank field_value and trims a real one', () => {
    expect(toReviewResult(input({ field_value: '' }))).not.toHaveProperty('field_value');
    expect(toReviewResult(input({ field_value: '   ' }))).not.toHaveProperty('field_value');
    expect(toReviewResult(input({ field_value: '  ann@example.com \n' })).field_value).toBe('ann@example.com');
  });

  it('sets skipped only when the model said true', () => {
    expect(toReviewResult(input({ skipped: true })).skipped).toBe(true);
    expect(toReviewResult(input({ skipped: false }))).not.toHaveProperty('skipped');
    expect(toReviewResult(input({ skipped: null }))).not.toHaveProperty('skipped');
  });
});
