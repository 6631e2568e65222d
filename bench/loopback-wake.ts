/**
 * The machine's own floor under bench/search: a bare node:http server in a child process answers
 * a fixed 8.7 kB body (the size of a search page) exactly L ms after each request arrived (its
 * timer set early, the rest waited turn by turn), and a bare node:http client in this process
 * asks it 300 times. The server notes how late it sent; the client notes the round trip. At
 * L = 0 both processes stay busy; at L > 0 the client sleeps for L, and the difference
 * between its round trip and L is what waking it up costs on this machine, with no product and
 * no emulator work in it.
 *
 *   npm run build:tools && node dist-tools/bench/loopback-wake.js [latencyMs ...]
 */
import { fork } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const BODY = Buffer.alloc(8_700, 'x');
const SLACK_MS = 1.5;
const RUNS = 300;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function waitUntil(at: number): Promise<void> {
  const early = at - performance.now() - SLACK_MS;
  if (early >= 1) await new Promise((resolve) => setTimeout(resolve, Math.floor(early)));
  while (performance.now() < at) await new Promise((resolve) => setImmediate(resolve));
}

/** The child: answers L ms after arrival, reports its lateness when asked. */
function serve(latency: number): void {
  const late: number[] = [];
  const server = createServer((req, res) => {
    const arrived = performance.now();
    req.resume();
    void waitUntil(arrived + latency).then(() => {
      late.push(performance.now() - arrived - latency);
      res.writeHead(200, { 'content-length': String(BODY.length) });
      res.end(BODY);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('message', () => process.send?.({ late: median(late) }));
  process.on('disconnect', () => process.exit(0));
}

async function measure(latency: number): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', String(latency)]);
  const next = (): Promise<Record<string, number>> => new Promise((resolve) => child.once('message', (message) => resolve(message as Record<string, number>)));
  const { port } = await next();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(performance.now() - started));
      });
      req.on('error', reject);
      req.end();
    });
  for (let run = 0; run < 30; run += 1) await get();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) times.push(await get());
  const answer = next();
  child.send('report');
  const { late } = await answer;
  const rtt = median(times);
  console.log(
    `L = ${latency} ms: round trip ${rtt.toFixed(3)} ms, L + ${(rtt - latency).toFixed(3)} ms; the server sent ${((late ?? Number.NaN) * 1000).toFixed(0)} µs after its time (median of ${RUNS})`,
  );
  agent.destroy();
  child.disconnect();
}

if (process.argv[2] === '--serve') {
  serve(Number(process.argv[3]));
} else {
  const latencies = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [0, 5, 20, 50];
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} on ${cpus().length} cores`,
  );
  for (const latency of latencies) await measure(latency);
}
