/**
 * V8 grows its young generation (two semi-spaces, doubled each time up to 16 MiB apiece) once
 * more bytes have survived scavenges since the last growth than the semi-space holds, and
 * keeps what it grew. A marker-index build is seconds of short-lived allocation in which a
 * driver's buffers and the rows of one read are alive at every scavenge; on PostgreSQL those
 * survivors alone doubled the young generation twice during a build (2 → 8 MiB a semi-space
 * at 299 000 markers): 16 MiB of resident memory `serve` then keeps, nothing of it the index
 * (docs/serve.md, "Young generation held during start-up").
 *
 * Start-up does the same: loading the drivers and the HTTP stack keeps most of what it
 * allocates, which grew every `serve` to the maximum before its first request.
 *
 * While a build or refresh runs, and in `serve` from its start until warm-up ends, growth is
 * held (V8's semi-space growth factor 1); after the last hold ends the factor is V8's default
 * again, so a long-running `serve` still grows its young generation under search load as V8
 * decides. An operator who set the factor (a flag to node; NODE_OPTIONS may not carry it)
 * keeps it: then this never touches it.
 */
const FLAG = '--semi-space-growth-factor';
const V8_DEFAULT_FACTOR = 2;

let running = 0;

/** True when the operator chose the factor themselves. */
function operatorSet(): boolean {
  return process.execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`) || arg.startsWith('--semi_space_growth_factor'));
}

function setFactor(factor: number): void {
  // node:v8 at first use: one-shot commands that build no index never load it.
  process.getBuiltinModule('node:v8').setFlagsFromString(`${FLAG}=${factor}`);
}

/**
 * Holds growth until the returned release is called (once; later calls do nothing). Holds
 * nest: growth resumes when the last one is released.
 */
export function holdYoungGeneration(): () => void {
  if (operatorSet()) return () => undefined;
  if (running === 0) setFactor(1);
  running += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running -= 1;
    if (running === 0) setFactor(V8_DEFAULT_FACTOR);
  };
}

/** Runs `work` with the young generation held at its size. */
export async function holdingYoungGeneration<T>(work: () => Promise<T>): Promise<T> {
  const release = holdYoungGeneration();
  try {
    return await work();
  } finally {
    release();
  }
}
