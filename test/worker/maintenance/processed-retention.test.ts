import { describe, expect, it } from 'vitest'
import { processedStatus, pruneProcessed } from '../../../worker/maintenance/processed-retention.ts'
import { memoryLogStore } from '../intake/memory-log-store.ts'

const NOW = new Date('2027-01-15T00:00:00Z')

/** The reference's fixture: four 1 KiB archived files aged 40, 35, 5 and 1 days, plus a non-log file. */
function archive() {
  const initial: Record<string, { size: number; uploaded: Date }> = {}
  for (const [name, age] of [['old-a', 40], ['old-b', 35], ['recent-a', 5], ['recent-b', 1]] as const) {
    initial[`processed/app/${name}.log`] = { size: 1024, uploaded: new Date(NOW.getTime() - age * 86_400_000) }
  }
  initial['processed/app/readme.txt'] = { size: 10, uploaded: new Date(0) }
  initial['processed/other/x.log'] = { size: 10, uploaded: new Date(0) }
  const { store, objects } = memoryLogStore(initial)
  return { bucket: store, objects }
}

describe('processed-archive retention (reference §3.6, RetentionTest)', () => {
  it('reports the archive of one application (log files only)', async () => {
    const { bucket } = archive()
    expect(await processedStatus(bucket, 'app', { processed_max_age_days: 0, processed_max_files: 0 })).toEqual({
      policy: { processed_max_age_days: 0, processed_max_files: 0 },
      archived_files: 4,
      archived_bytes: 4096,
    })
  })

  it('prunes by age', async () => {
    const { bucket, objects } = archive()
    expect(await pruneProcessed(bucket, 'app', { processed_max_age_days: 30, processed_max_files: 0 }, NOW)).toEqual({
      enabled: true,
      deleted: 2,
      freed_bytes: 2048,
      remaining: 2,
      scanned: 4,
    })
    expect([...objects.keys()].filter((key) => key.startsWith('processed/app/') && key.endsWith('.log'))).toEqual(['processed/app/recent-a.log', 'processed/app/recent-b.log'])
  })

  it('prunes by count, newest kept', async () => {
    const { bucket, objects } = archive()
    expect(await pruneProcessed(bucket, 'app', { processed_max_age_days: 0, processed_max_files: 1 }, NOW)).toMatchObject({ deleted: 3, remaining: 1 })
    expect(objects.has('processed/app/recent-b.log')).toBe(true)
  })

  it('deletes nothing when both rules are off', async () => {
    const { bucket } = archive()
    expect(await pruneProcessed(bucket, 'app', { processed_max_age_days: 0, processed_max_files: 0 }, NOW)).toEqual({
      enabled: false,
      deleted: 0,
      freed_bytes: 0,
      remaining: 4,
      scanned: 4,
    })
  })
})
