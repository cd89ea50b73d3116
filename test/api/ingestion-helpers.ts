import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { createDriver, resolveDatabaseTarget, type Driver } from '../../drivers/index.ts'
import { tablesFor, type Tables } from '../../worker/apps/tables.ts'
import { call, get, post, type ApiCall, type ApiResponse } from './helpers/api.ts'

/**
 * Helpers of the ingestion parity tests (test/api/ingestion*.test.ts, summary, sources, maintenance): R2
 * objects through miniflare's `LOGS` bucket, uploads, and direct reads of an application's tables through
 * the same driver the worker uses, so assertions can look at rows the API does not expose.
 */
type TestEnv = { LOGS: R2Bucket; DB?: D1Database; DATABASE_DRIVER?: string; DATABASE_URL?: string; DATABASE_TOKEN?: string; DATABASE_ENDPOINT?: string }
const testEnv = env as unknown as TestEnv

export const bucket: R2Bucket = testEnv.LOGS

/** `POST ?api=import-incoming&file=<path>` with `body` as the raw upload. */
export function upload(app: string, path: string, body: string | Uint8Array, options: ApiCall = {}): Promise<ApiResponse> {
  return call('POST', 'import-incoming', { ...options, query: { app, file: path, ...options.query }, body })
}

/** `POST ?api=import-incoming` without an upload ("Process logs"). */
export function processIncoming(app: string, options: ApiCall = {}): Promise<ApiResponse> {
  return call('POST', 'import-incoming', { ...options, query: { app, ...options.query } })
}

/** Drops an object into `incoming/<app>/<path>`, as another tool writing to the bucket would. */
export async function putIncoming(app: string, path: string, body: string): Promise<void> {
  await bucket.put(`incoming/${app}/${path}`, body)
}

export async function readObject(key: string): Promise<string | null> {
  const object = await bucket.get(key)
  return object ? object.text() : null
}

export async function allowSeverities(app: string, severities: readonly string[]): Promise<void> {
  const response = await post('ingestion-settings', { severities }, { query: { app } })
  expect(response.status, response.text).toBe(200)
}

/** Calls that must succeed: the body, after checking the status. */
export async function ok(response: Promise<ApiResponse> | ApiResponse, status = 200): Promise<any> {
  const resolved = await response
  expect(resolved.status, resolved.text).toBe(status)
  return resolved.body
}

export interface AppDatabase {
  readonly db: Driver
  readonly t: Tables
  rows<T = Record<string, unknown>>(sql: string, args?: (string | number | null)[]): Promise<T[]>
  value(sql: string, args?: (string | number | null)[]): Promise<number>
}

/** The application's tables, reached with the driver of this parity leg. */
export async function appDatabase(app: string): Promise<AppDatabase> {
  const apps = await get('applications')
  const view = apps.body.data.find((candidate: { id: string }) => candidate.id === app)
  const db = createDriver(
    resolveDatabaseTarget({
      binding: testEnv.DB as never,
      driver: testEnv.DATABASE_DRIVER,
      url: testEnv.DATABASE_URL,
      token: testEnv.DATABASE_TOKEN,
      endpoint: testEnv.DATABASE_ENDPOINT,
    }),
  )
  const t = tablesFor(view.table_prefix, db.dialect)
  const rows = async <T,>(sql: string, args: (string | number | null)[] = []) => (await db.execute<T>({ sql, args })).rows
  return {
    db,
    t,
    rows,
    value: async (sql, args = []) => Number(Object.values((await rows<Record<string, unknown>>(sql, args))[0] ?? {})[0] ?? 0),
  }
}

/** Polls `GET ?api=import-incoming` until the newest job finished (the Queue consumer runs it). */
export async function waitForJob(app: string, timeoutMs = 45_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await ok(get('import-incoming', { query: { app } }))
    const job = status.data[0]
    if (job && (job.status === 'success' || job.status === 'failed')) return job
    if (Date.now() > deadline) throw new Error(`job did not finish: ${JSON.stringify(status)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** `count` Laravel ERROR lines, one event each, starting at `from` (line i says "Order <from+i> failed"). */
/** Occurrence rows, distinct byte offsets, and the issue and day counts: all equal the lines imported once each. */
export async function occurrenceStats(app: string) {
  const db = await appDatabase(app)
  return {
    occurrences: await db.value(`SELECT COUNT(*) FROM ${db.t.occurrences}`),
    distinct: await db.value(`SELECT COUNT(DISTINCT byte_start) FROM ${db.t.occurrences}`),
    count: await db.value(`SELECT SUM(count) FROM ${db.t.groups}`),
    days: await db.value(`SELECT SUM(count) FROM ${db.t.groupDays}`),
  }
}

export function laravelLines(count: number, options: { from?: number; day?: string; level?: string } = {}): string {
  const from = options.from ?? 0
  const day = options.day ?? '2026-02-01'
  let text = ''
  for (let i = 0; i < count; i++) {
    const n = from + i
    const time = `${String(Math.floor(n / 3600) % 24).padStart(2, '0')}:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`
    text += `[${day} ${time}] production.${options.level ?? 'ERROR'}: Order ${n} failed for user${n}@shop.test\n`
  }
  return text
}

/** A UTC day `days` before today, `YYYY-MM-DD`. */
export function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10)
}
