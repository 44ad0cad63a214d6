import { ANSWER, openFormSession, timedTurn } from './pipeline.js';
import { log, pct, row, dropBenchData, startBenchStack, type BenchTarget, type SectionResult } from './common.js';
import { keepAliveAgent } from './http-lite.js';

/**
 * (e) Does a turn cost more as the conversation grows? One session of a
 * form long enough for `turns` answers, answered one turn after another
 * (offline model): the median time of turns 3–7 against that of the last
 * five. Every step reads, parses, rewrites and commits the session, so a
 * document that grows with the conversation shows here. The form's own size
 * is there from the first turn: compare the absolute times with (a)'s
 * 20-field forms to see what the document's size costs.
 */
export async function growth(target: BenchTarget, opts: { turns: number }): Promise<SectionResult> {
  const { stack, keyPrefix, queuePrefix } = await startBenchStack(target, 'growth', { MAX_SESSION_TURNS: String(opts.turns * 2) });
  const agent = keepAliveAgent();
  try {
    // A form allows 200 fields: one per answer, and a few to spare.
    const session = await openFormSession(agent, stack.url, Math.min(200, opts.turns + 5), 'I live in Tokyo, Japan');
    log(`growth: ${opts.turns} answer turns in one session`);
    const times: number[] = [];
    for (let i = 0; i < opts.turns; i++) times.push((await timedTurn(agent, stack.url, session, ANSWER)).ms);
    session.sse.close();
    const early = pct(times.slice(2, 7), 50);
    const late = pct(times.slice(-5), 50);
    const ratio = late / early;
    return {
      rows: [
        row(
          `turn ${opts.turns - 2} / turn 5 of one session (median of 5)`,
          `${ratio.toFixed(2)}× (${late.toFixed(2)} ms / ${early.toFixed(2)} ms)`,
          '≤ 1.2×',
          ratio <= 1.2,
        ),
      ],
      details: [
        `turn times (ms) every 25 turns: ${times
          .filter((_, i) => i % 25 === 0)
          .map((t) => t.toFixed(1))
          .join(', ')}`,
      ],
    };
  } finally {
    agent.destroy();
    await stack.stop();
    await dropBenchData(target, [keyPrefix, queuePrefix]);
  }
}
