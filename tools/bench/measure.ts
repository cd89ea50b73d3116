/** One request the bench makes: method, endpoint, query and body (JSON, or raw bytes for uploads). */
export interface BenchRequest {
  readonly method: string
  readonly api: string
  readonly query?: Record<string, string | number>
  readonly body?: unknown
  readonly raw?: Uint8Array | string
}

export interface Sample {
  readonly status: number
  readonly milliseconds: number
  readonly roundTrips: number
  readonly body: any
}

/** Sends one request to a running worker and reads the round trips from `Server-Timing`. */
export async function send(base: string, request: BenchRequest, app?: string): Promise<Sample> {
  const url = new URL(`${base}/`)
  url.searchParams.set('api', request.api)
  if (app) url.searchParams.set('app', app)
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, String(value))
  const init: RequestInit = { method: request.method }
  if (request.raw !== undefined) init.body = request.raw as BodyInit
  else if (request.body !== undefined) {
    init.body = JSON.stringify(request.body)
    init.headers = { 'content-type': 'application/json' }
  }
  const started = performance.now()
  const response = await fetch(url, init)
  const text = await response.text()
  const milliseconds = performance.now() - started
  const timing = /desc="(\d+) round trips"/.exec(response.headers.get('server-timing') ?? '')
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status: response.status, milliseconds, roundTrips: timing ? Number(timing[1]) : 0, body }
}

export interface Measurement {
  readonly name: string
  readonly samples: number
  readonly roundTrips: number
  readonly medianMs: number
  readonly p95Ms: number
  readonly failures: number
}

/**
 * Runs `make(i)` `count` times after `warmup` unmeasured runs; round trips are the largest seen (they are
 * deterministic per request shape), latency the median and 95th percentile.
 */
export async function measure(
  name: string,
  base: string,
  app: string,
  make: (iteration: number) => BenchRequest,
  options: { count: number; warmup: number; expect?: number },
): Promise<Measurement> {
  for (let i = 0; i < options.warmup; i++) await send(base, make(-1 - i), app)
  const samples: Sample[] = []
  for (let i = 0; i < options.count; i++) samples.push(await send(base, make(i), app))
  const expected = options.expect ?? 200
  const failures = samples.filter((sample) => sample.status !== expected)
  if (failures.length) console.error(`  ${name}: ${failures.length} unexpected statuses, e.g. ${failures[0]!.status} ${JSON.stringify(failures[0]!.body).slice(0, 200)}`)
  const times = samples.map((sample) => sample.milliseconds).sort((a, b) => a - b)
  return {
    name,
    samples: samples.length,
    roundTrips: Math.max(...samples.map((sample) => sample.roundTrips)),
    medianMs: percentile(times, 0.5),
    p95Ms: percentile(times, 0.95),
    failures: failures.length,
  }
}

export function percentile(sorted: number[], fraction: number): number {
  if (!sorted.length) return NaN
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)
  return sorted[Math.max(0, index)]!
}
