import { describe, expect, inject, it } from 'vitest'
import { DRIVER, get, post } from './helpers/api.ts'

/**
 * design.md §2: an application can live in its own database (`APP_DATABASES`) instead of a namespace of the
 * default one. The global setup gives each parity leg a spare libSQL database for this.
 */
describe('APP_DATABASES', () => {
  const url = inject('driverConnections').dedicatedLibsqlUrls![DRIVER]!
  const suffix = Date.now().toString(36)
  const owner = `dedicated-${suffix}`
  const intruder = `intruder-${suffix}`
  const env = { APP_DATABASES: JSON.stringify({ [owner]: { driver: 'libsql', url }, [intruder]: { driver: 'libsql', url } }) }

  it('keeps a configured application’s tables in its own database, without a prefix', async () => {
    const created = await post('applications', { name: 'Dedicated', id: owner }, { env })
    expect(created.status, created.text).toBe(201)
    expect(created.body).toMatchObject({ database: 'libsql', table_prefix: '' })
    const tag = await post('tags', { name: 'Lives elsewhere' }, { query: { app: owner }, env })
    expect(tag.status, tag.text).toBe(201)
    expect((await get('tags', { query: { app: owner }, env })).body.data.map((t: { name: string }) => t.name)).toEqual(['Lives elsewhere'])
    const listed = await get('applications', { env })
    expect(listed.body.data.find((app: { id: string }) => app.id === owner)).toMatchObject({ database: 'libsql', table_prefix: '' })
    // Without the mapping the same application resolves to a namespace of the default database: empty.
    expect((await get('tags', { query: { app: owner } })).body.data).toEqual([])
  })

  it('refuses a second application mapped to a database another one owns, mixing nothing', async () => {
    const created = await post('applications', { name: 'Intruder', id: intruder }, { env })
    expect(created.status).toBe(503)
    expect(created.body).toEqual({ error: 'The database is not configured correctly. See ?api=health for details.' })
    expect((await get('tags', { query: { app: owner }, env })).body.data).toHaveLength(1)
  })

  it('answers 503 for an application whose database cannot be reached', async () => {
    const broken = `broken-${suffix}`
    const brokenEnv = { APP_DATABASES: JSON.stringify({ [broken]: { driver: 'libsql', url: 'http://127.0.0.1:9/' } }) }
    const created = await post('applications', { name: 'Broken', id: broken }, { env: brokenEnv })
    expect(created.status).toBe(503)
    expect(created.body).toEqual({ error: 'The database is unavailable. Try again shortly.' })
  })
})
