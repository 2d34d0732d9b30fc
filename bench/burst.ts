import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { cannon, check, SUBMITS } from './load.js';

/**
 * A burst of submits to every save mode, 10 clients as fast as they can, in a thread of its own so the
 * probes timing the other paths in the main thread never wait behind it. Posts 'started', then the
 * submits per second.
 */
const { base, headers, seconds } = workerData as { base: string; headers: Record<string, string>; seconds: number };
const rand = (n: number) => Math.floor(Math.random() * n);
parentPort!.postMessage('started');
const submit = () => SUBMITS[rand(SUBMITS.length)]!.request();
// In a worker thread autocannon answers raw counts (its own workers aggregate them in the main thread).
const raw = (await autocannon(cannon(base, submit, headers, seconds))) as autocannon.Result & {
  totalCompletedRequests: number;
};
check('burst of submits', raw);
parentPort!.postMessage(raw.totalCompletedRequests / seconds);
