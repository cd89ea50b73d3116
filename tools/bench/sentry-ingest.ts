import { readFileSync } from 'node:fs'
import { percentile } from './measure.ts'

export interface SentryIngestFigures {
  readonly notes: string[]
}

const FIXTURE = new URL('../../test/fixtures/sentry/node-exception.envelope', import.meta.url)

/**
 * Issue 12's figure: 32 concurrent senders of single-event envelopes (~5 KB each, the real `@sentry/node`
 * envelope with a fresh `event_id` and message per event) against the running worker, for `events` events;
 * then waits for the digest to store them all. Reports accepted events/s, accept latency p50/p99, the time
 * until every event was stored, and whether each was stored exactly once.
 */
export async function sentryIngestBench(base: string, dsn: string, options: { events: number; senders: number; app: string }): Promise<SentryIngestFigures> {
  const template = readFileSync(FIXTURE, 'utf8').split('\n')
  const project = new URL(dsn).pathname.slice(1)
  const key = decodeURIComponent(new URL(dsn).username)
  const url = `${base}/api/${project}/envelope/?sentry_key=${key}&sentry_version=7`
  const event = JSON.parse(template[2]!)
  const padding = 'x'.repeat(Math.max(0, 5000 - template[2]!.length))
  const envelopeFor = (i: number) => {
    const id = crypto.randomUUID().replaceAll('-', '')
    // Forty distinct issues, as a busy application's stream has a few recurring errors.
    const body = { ...event, event_id: id, extra: { padding }, exception: { values: [{ ...event.exception.values[0], value: `Bench failure ${i % 40}` }] } }
    return `${JSON.stringify({ event_id: id, sent_at: new Date().toISOString() })}\n{"type":"event"}\n${JSON.stringify(body)}\n`
  }
  const sizes: number[] = []
  const latencies: number[] = []
  const statuses = new Map<number, number>()
  const baseline = await storedEvents(base, options.app)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: options.senders }, async () => {
      for (let i = next++; i < options.events; i = next++) {
        const body = envelopeFor(i)
        sizes.push(body.length)
        const sent = performance.now()
        const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/x-sentry-envelope' } })
        await response.arrayBuffer()
        latencies.push(performance.now() - sent)
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      }
    }),
  )
  const acceptSeconds = (performance.now() - started) / 1000
  let stored = 0
  for (;;) {
    stored = (await storedEvents(base, options.app)) - baseline
    if (stored >= options.events || performance.now() - started > 600_000) break
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const doneSeconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const ok = statuses.get(200) ?? 0
  return {
    notes: [
      `sentry ingest: ${options.senders} senders, ${options.events.toLocaleString('en')} single-event envelopes of ~${Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length / 100) / 10} KB: ` +
        `${Math.round(options.events / acceptSeconds).toLocaleString('en')} events/s accepted (${ok} × 200${[...statuses].filter(([status]) => status !== 200).map(([status, n]) => `, ${n} × ${status}`).join('')}), ` +
        `accept latency p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
      `sentry ingest: all stored after ${doneSeconds.toFixed(1)} s (${Math.round(options.events / doneSeconds).toLocaleString('en')} events/s end to end); stored ${stored.toLocaleString('en')} of ${options.events.toLocaleString('en')} (${stored === options.events ? 'exactly once' : 'MISMATCH'})`,
    ],
  }
}

/**
 * The runtime's own ceiling under the same load: 32 concurrent clients asking for an unknown endpoint (a 404
 * the worker answers without touching the database or the assets) — what `wrangler dev` itself serves on this
 * machine, against which the ingest figure is read.
 */
export async function runtimeCeiling(base: string, requests: number, senders = 32): Promise<string> {
  let next = 0
  const latencies: number[] = []
  const started = performance.now()
  await Promise.all(
    Array.from({ length: senders }, async () => {
      for (let i = next++; i < requests; i = next++) {
        const sent = performance.now()
        await (await fetch(`${base}/?api=no-such-endpoint`)).arrayBuffer()
        latencies.push(performance.now() - sent)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return `ceiling: a request that does nothing (a 404 without database or assets) from ${senders} concurrent clients: ${Math.round(requests / seconds)} req/s, p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`
}

/** HTTP ingest in batches: `senders` clients posting `perRequest` events per `?api=ingest` call. */
export async function httpBatchBench(base: string, app: string, key: string, options: { requests: number; perRequest: number; senders: number }): Promise<string> {
  const baseline = await storedEvents(base, app, 'http')
  let next = 0
  const latencies: number[] = []
  const started = performance.now()
  await Promise.all(
    Array.from({ length: options.senders }, async () => {
      for (let i = next++; i < options.requests; i = next++) {
        const events = Array.from({ length: options.perRequest }, (_, j) => ({ message: `Batch failure ${(i + j) % 40}`, exception_class: 'BatchError', context: { request: i, index: j } }))
        const sent = performance.now()
        const response = await fetch(`${base}/?api=ingest&app=${app}`, { method: 'POST', body: JSON.stringify({ events }), headers: { 'x-loupe-ingest-key': key } })
        await response.arrayBuffer()
        if (response.status !== 202) throw new Error(`ingest answered ${response.status}`)
        latencies.push(performance.now() - sent)
      }
    }),
  )
  const acceptSeconds = (performance.now() - started) / 1000
  const total = options.requests * options.perRequest
  let stored = 0
  while ((stored = (await storedEvents(base, app, 'http')) - baseline) < total && performance.now() - started < 600_000) await new Promise((resolve) => setTimeout(resolve, 250))
  const doneSeconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return `http ingest: ${options.senders} senders × ${options.perRequest}-event batches: ${Math.round(total / acceptSeconds).toLocaleString('en')} events/s accepted, p99 ${percentile(latencies, 0.99).toFixed(1)} ms per batch; all ${stored === total ? 'stored exactly once' : `MISMATCH ${stored}/${total}`} after ${doneSeconds.toFixed(1)} s (${Math.round(total / doneSeconds).toLocaleString('en')} events/s)`
}

/** Occurrences stored so far: the sum of the issue counts of the bench application. */
async function storedEvents(base: string, app: string, logType = 'sentry'): Promise<number> {
  const response = await fetch(`${base}/?api=groups&app=${app}&limit=200&log_type=${logType}`)
  const body = (await response.json()) as { items?: { count: number }[] }
  return (body.items ?? []).reduce((sum, item) => sum + Number(item.count), 0)
}
