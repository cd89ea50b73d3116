import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isIngestKey, readOrMintIngestKey, regenerateIngestKey } from '../../../worker/plugins/http-ingest/ingest-key.ts'
import { createSecretBox } from '../../../worker/security/secret-box.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from '../digest/persist/migrated-scope.ts'

const NOW = '2026-03-01 12:00:00'
const secrets = createSecretBox('ingest-key-test-secret')

describe.each(TARGETS)('the ingest key on %s', { timeout: 60_000 }, (target) => {
  let m: MigratedScope
  beforeAll(async () => {
    m = await migratedScope(target, 'ikey')
  })
  afterAll(async () => {
    await m?.close()
  })

  it('verifies nothing before a key was minted, and never mints one itself', async () => {
    expect(await isIngestKey(m.scope, secrets, 'lpk_' + '0'.repeat(48))).toBe(false)
    expect(await m.rows(`SELECT value FROM ${m.scope.t.settings}`)).toEqual([])
  })

  it('accepts exactly the current key', async () => {
    const key = await readOrMintIngestKey(m.scope, secrets, NOW)
    expect(await isIngestKey(m.scope, secrets, key)).toBe(true)
    for (const wrong of [null, '', key.slice(0, -1), `${key}0`, key.toUpperCase()]) expect(await isIngestKey(m.scope, secrets, wrong)).toBe(false)
    const next = await regenerateIngestKey(m.scope, secrets, NOW)
    expect(await isIngestKey(m.scope, secrets, key)).toBe(false)
    expect(await isIngestKey(m.scope, secrets, next)).toBe(true)
    expect(await readOrMintIngestKey(m.scope, secrets, NOW)).toBe(next)
  })
})
