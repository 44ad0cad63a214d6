import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@convo/runtime';

/** Model settings from the environment: shared ones, switches for compatible servers, and overrides per agent. */
const base = {
  REDIS_URL: 'redis://127.0.0.1:6379',
  LLM_PROVIDER: 'openai',
  OPENAI_API_KEY: 'sk-shared',
  OPENAI_BASE_URL: 'https://api.example/v1',
};

describe('model settings', () => {
  it('gives every agent the shared settings unless it has its own', () => {
    const config = loadConfig({
      ...base,
      LLM_TEMPERATURE: '0.3',
      LLM_MAX_OUTPUT_TOKENS: '800',
      REVIEWER_BASE_URL: 'http://127.0.0.1:8000/v1',
      REVIEWER_API_KEY: 'local',
      REVIEWER_TEMPERATURE: '0',
      REVIEWER_MAX_OUTPUT_TOKENS: '200',
      REVIEWER_PROMPT_TOKEN_BUDGET: '2000',
    });
    expect(config.llm.agents.interviewer).toEqual({
      baseUrl: 'https://api.example/v1',
      apiKey: 'sk-shared',
      temperature: 0.3,
      maxOutputTokens: 800,
      promptTokenBudget: 6000,
    });
    expect(config.llm.agents.reviewer).toEqual({
      baseUrl: 'http://127.0.0.1:8000/v1',
      apiKey: 'local',
      temperature: 0,
      maxOutputTokens: 200,
      promptTokenBudget: 2000,
    });
  });

  it('reads the compatibility switches, with OpenAI’s behaviour by default', () => {
    expect(loadConfig(base).llm).toMatchObject({
      strictTools: true,
      toolChoice: 'auto',
      parallelToolCalls: 'omit',
      maxOutputTokens: 0,
      temperature: undefined,
      stream: true,
      statePosition: 'end',
      historyMessages: 12,
    });
    expect(loadConfig({ ...base, LLM_STREAM: 'false', LLM_STATE_POSITION: 'start' }).llm).toMatchObject({
      stream: false,
      statePosition: 'start',
    });
    expect(loadConfig({ ...base, LLM_STRICT_TOOLS: 'false', LLM_TOOL_CHOICE: 'omit', LLM_PARALLEL_TOOL_CALLS: 'false' }).llm).toMatchObject(
      { strictTools: false, toolChoice: 'omit', parallelToolCalls: 'false' },
    );
  });

  it('refuses a value out of range, naming the variable', () => {
    expect(() => loadConfig({ ...base, CHECKER_TEMPERATURE: '3' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, CHECKER_TEMPERATURE: '3' })).toThrow(/TEMPERATURE/);
    expect(() => loadConfig({ ...base, LLM_TOOL_CHOICE: 'sometimes' })).toThrow(ConfigError);
  });
});
