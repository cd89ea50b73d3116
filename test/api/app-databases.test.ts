import { describe, expect, inject, it } from 'vitest'
import { createDriver } from '../../drivers/index.ts'
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

/**
 * Issue 10 defect 9: two applications in two Neon databases behind two endpoints. The Neon client's endpoint
 * is process-global, and setting it per driver let one application's requests reach the other's endpoint.
 * Each local Neon server here serves only its own database (as an endpoint fronts one project), so a
 * request sent to the wrong endpoint fails instead of quietly working; concurrent requests for both
 * applications interleave their drivers in this isolate.
 */
describe.each(inject('driverConnections').dedicatedNeon?.[DRIVER] ? [DRIVER] : [])('APP_DATABASES with two Neon targets (%s leg)', () => {
  const [first, second] = inject('driverConnections').dedicatedNeon![DRIVER]!
  const suffix = Date.now().toString(36)
  const apps = [`neon-a-${suffix}`, `neon-b-${suffix}`]
  const env = {
    APP_DATABASES: JSON.stringify({
      [apps[0]!]: { driver: 'neon', url: first!.url, endpoint: first!.endpoint },
      [apps[1]!]: { driver: 'neon', url: second!.url, endpoint: second!.endpoint },
    }),
  }

  it('keeps each application\'s data in its own database under concurrent requests', async () => {
    for (const app of apps) {
      const created = await post('applications', { name: app, id: app }, { env })
      expect(created.status, created.text).toBe(201)
      expect(created.body).toMatchObject({ database: 'neon', table_prefix: '' })
    }
    const names = (app: string) => Array.from({ length: 6 }, (_, i) => `${app === apps[0] ? 'First' : 'Second'} ${i}`)
    const writes = await Promise.all(apps.flatMap((app) => names(app).map((name) => post('tags', { name, match_word: name }, { query: { app }, env }))))
    expect(writes.map((response) => response.status), writes.map((response) => response.text).join('\n')).toEqual(writes.map(() => 201))
    const reads = await Promise.all(apps.flatMap((app) => [get('tags', { query: { app }, env }), get('issues', { query: { app }, env })]))
    expect(reads.map((response) => response.status)).toEqual([200, 200, 200, 200])
    for (const [index, app] of apps.entries()) {
      expect(reads[index * 2]!.body.data.map((tag: { name: string }) => tag.name)).toEqual(names(app))
      // Straight from each database: its own tags only.
      const target = index === 0 ? first! : second!
      const db = createDriver({ driver: 'neon', url: target.url, endpoint: target.endpoint })
      const { rows } = await db.execute<{ name: string }>({ sql: 'SELECT name FROM tags ORDER BY name' })
      expect(rows.map((row) => row.name)).toEqual(names(app))
    }
  })
})
