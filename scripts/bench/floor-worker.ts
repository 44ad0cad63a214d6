import { floorWorker, type FloorWorkerOptions } from './durable-chain.js';

/**
 * One agent's worker of the bench's runtime floor in a process of its own (durable-chain.ts): the
 * floor across processes, as the agents run. Reports readiness and every turn's end to the bench
 * over IPC; stops on SIGTERM.
 */
const options = JSON.parse(process.argv[2]!) as FloorWorkerOptions;
const worker = floorWorker(options, (turnId) => process.send?.({ ended: turnId }));
await worker.ready;
process.send?.({ ready: true });
process.once('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
