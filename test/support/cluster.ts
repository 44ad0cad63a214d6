import { canStartLocalCluster, startLocalCluster } from '../../scripts/redis/local-cluster.js';

/**
 * The Redis Cluster a test file runs on: TEST_REDIS_CLUSTER_NODES as given
 * (a cluster of one's own), else a local 3-master cluster of redis-server
 * processes, started for the file and stopped after it.
 */
export async function startTestCluster(): Promise<{ nodes: string; stop(): Promise<void> }> {
  const given = process.env.TEST_REDIS_CLUSTER_NODES;
  if (given) return { nodes: given, stop: async () => undefined };
  if (!canStartLocalCluster()) {
    throw new Error(
      'The cluster tests need redis-server and redis-cli on PATH (`sudo apt-get install -y redis-server`) or TEST_REDIS_CLUSTER_NODES=host:port,…',
    );
  }
  return startLocalCluster({ log: console.log });
}
