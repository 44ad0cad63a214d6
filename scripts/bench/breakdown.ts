import type { Agent } from 'node:http';
import { metric, scrape } from './metrics.js';

/**
 * Where a pipeline turn spends its time, from the figures the services
 * already publish (the gateway's /metrics adds up every worker's): the
 * difference of two scrapes around a phase gives, per agent, the jobs run
 * and their mean duration, the model calls' mean duration, and the mean
 * server-side turn duration (accepted → turn.completed committed).
 */
export type Snapshot = Map<string, number>;

export const snapshot = (agent: Agent, base: string): Promise<Snapshot> => scrape(agent, base);

function delta(before: Snapshot, after: Snapshot, name: string, labels?: Record<string, string>): number {
  const valueIn = (scraped: Snapshot) => {
    const value = metric(scraped, name, labels);
    return Number.isNaN(value) ? 0 : value;
  };
  return valueIn(after) - valueIn(before);
}

/** Lines describing the phase between `before` and `after`, normalised per turn (`turns` ended in it). */
export function describeBreakdown(before: Snapshot, after: Snapshot, turns: number, clientMeanMs: number): string[] {
  const lines: string[] = [];
  let jobsMsPerTurn = 0;
  const parts: string[] = [];
  for (const agentName of ['interviewer', 'reviewer']) {
    const jobCount = delta(before, after, 'convo_agent_job_duration_seconds_count', { agent: agentName });
    const sum = delta(before, after, 'convo_agent_job_duration_seconds_sum', { agent: agentName }) * 1000;
    const llmN = delta(before, after, 'convo_llm_call_duration_seconds_count', { agent: agentName });
    const llmSum = delta(before, after, 'convo_llm_call_duration_seconds_sum', { agent: agentName }) * 1000;
    if (jobCount === 0) continue;
    jobsMsPerTurn += sum / turns;
    parts.push(
      `${agentName}: ${(jobCount / turns).toFixed(2)} jobs per turn, ${(sum / jobCount).toFixed(2)} ms per job ` +
        `(${llmN > 0 ? `${(llmN / jobCount).toFixed(1)} model calls, ${(llmSum / llmN).toFixed(2)} ms each` : 'no model call'})`,
    );
  }
  const turnN = delta(before, after, 'convo_turn_duration_seconds_count');
  const turnMs = turnN > 0 ? (delta(before, after, 'convo_turn_duration_seconds_sum') * 1000) / turnN : NaN;
  if (parts.length === 0) return ['no worker figures in /metrics for the phase (METRICS_PUSH_MS too long?)'];
  lines.push(`mean per answer turn, from the services' own metrics: ${parts.join('; ')}`);
  lines.push(
    `mean per turn: ${clientMeanMs.toFixed(2)} ms POST → turn.completed seen on SSE; ${turnMs.toFixed(2)} ms accepted → turn.completed committed (server side); ` +
      `${jobsMsPerTurn.toFixed(2)} ms inside worker jobs; so ≈ ${(turnMs - jobsMsPerTurn).toFixed(2)} ms between jobs (queue hand-offs, worker pick-up) ` +
      `and ≈ ${(clientMeanMs - turnMs).toFixed(2)} ms HTTP accept + SSE delivery`,
  );
  return lines;
}
