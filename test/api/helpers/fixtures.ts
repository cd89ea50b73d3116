import { expect } from 'vitest'
import { DRIVER, call, get, post } from './api.ts'

/** Creates a manual issue in `app` and returns its detail (`data`). */
export async function createIssue(app: string, body: Record<string, unknown>): Promise<any> {
  const response = await post('issues', body, { query: { app } })
  expect(response.status, response.text).toBe(201)
  return response.body.data
}

/** Creates a tag in `app` and returns it. */
export async function createTag(app: string, body: Record<string, unknown>): Promise<any> {
  const response = await post('tags', body, { query: { app } })
  expect(response.status, response.text).toBe(201)
  return response.body
}

/** The tags on one issue as `{name: source}`. */
export async function tagsOf(app: string, issueId: number): Promise<Record<string, string>> {
  const response = await get('error', { query: { app, id: issueId } })
  expect(response.status, response.text).toBe(200)
  return Object.fromEntries(response.body.tags.map((tag: { name: string; source: string }) => [tag.name, tag.source]))
}

export async function listTags(app: string): Promise<any[]> {
  const response = await get('tags', { query: { app } })
  expect(response.status, response.text).toBe(200)
  return response.body.data
}

/**
 * Round-trip budget check (design.md §5). A write batch is one round trip on d1/libsql/neon; PlanetScale has
 * no multi-statement request, so its write batches cost BEGIN + statements + COMMIT and its read batches run
 * their statements concurrently — `planetscale` gives the figure expected there.
 */
export function expectRoundTrips(response: { roundTrips: number }, expected: number, planetscale: number): void {
  expect(response.roundTrips).toBe(DRIVER === 'planetscale' ? planetscale : expected)
}

/** SERVICE_CONFIG with a 60 s database deadline, for tests of exactness under heavy concurrency (not of the deadline). */
export const PATIENT_DATABASE = JSON.stringify({ database: { timeout_ms: 60_000 } })

export { call, get, post }
