import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster } from '../support/cluster.js';
import { runtimeSuite } from './runtime-suite.js';

/**
 * The runtime's guarantees on a local 3-master Redis Cluster, with the
 * interviewer's and reviewer's queues split into partitions (so a session's
 * steps cross shards) and the gateway following streams by notice.
 */
let cluster: Awaited<ReturnType<typeof startTestCluster>>;
beforeAll(async () => {
  cluster = await startTestCluster();
}, 60_000);
afterAll(async () => {
  await cluster?.stop();
});

runtimeSuite(() => ({ REDIS_CLUSTER_NODES: cluster.nodes, INTERVIEWER_PARTITIONS: '3', REVIEWER_PARTITIONS: '2' }));

describe('on the cluster', () => {
  it('spreads the sessions and the queue partitions over every shard', async () => {
    const perNode = await Promise.all(
      cluster.nodes.split(',').map(async (address) => {
        const node = new Redis(`redis://${address}`);
        try {
          const keys = await node.keys('rt-*');
          return {
            sessions: keys.filter((k) => k.includes(':s:{')).length,
            queues: new Set(keys.filter((k) => k.includes('{agent-')).map((k) => /\{agent-[^}]+\}/.exec(k)![0])),
          };
        } finally {
          node.disconnect();
        }
      }),
    );
    for (const node of perNode) expect(node.sessions).toBeGreaterThan(0);
    const partitions = perNode.flatMap((node) => [...node.queues]);
    // Every queue partition lives on exactly one shard.
    expect(new Set(partitions).size).toBe(partitions.length);
    const interviewer = perNode.map((node) => [...node.queues].filter((name) => name.startsWith('{agent-interviewer-')));
    // The interviewer's three partitions, one per shard: each tag is placed in its third of the slot space.
    expect(interviewer.map((names) => names.length)).toEqual([1, 1, 1]);
    expect(
      interviewer
        .flat()
        .map((name) => /^\{agent-interviewer-(\d)\./.exec(name)![1])
        .sort(),
    ).toEqual(['0', '1', '2']);
    expect(partitions.filter((name) => name.startsWith('{agent-reviewer-'))).toHaveLength(2);
  });
});
