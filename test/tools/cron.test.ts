import { describe, expect, it } from 'vitest'
import { parseCron, readCronTriggers } from '../../tools/cron.ts'

const at = (iso: string) => new Date(iso)

describe('parseCron', () => {
  it('matches every 15 minutes with */15', () => {
    const cron = parseCron('*/15 * * * *')
    expect(['00', '15', '30', '45'].map((m) => cron.matches(at(`2026-11-24T10:${m}:00Z`)))).toEqual([true, true, true, true])
    expect(cron.matches(at('2026-11-24T10:14:00Z'))).toBe(false)
    expect(cron.matches(at('2026-11-24T10:16:00Z'))).toBe(false)
  })

  it('reads lists, ranges, stepped ranges and names, in UTC', () => {
    const cron = parseCron('5,35 9-17/4 * jan-mar MON-FRI')
    expect(cron.matches(at('2026-01-05T09:05:00Z'))).toBe(true) // Monday
    expect(cron.matches(at('2026-01-05T13:35:00Z'))).toBe(true)
    expect(cron.matches(at('2026-01-05T11:05:00Z'))).toBe(false) // 11 is not in 9-17/4
    expect(cron.matches(at('2026-01-04T09:05:00Z'))).toBe(false) // Sunday
    expect(cron.matches(at('2026-04-06T09:05:00Z'))).toBe(false) // April
  })

  it('treats day 7 as Sunday and ORs the two day fields when both are restricted', () => {
    expect(parseCron('0 0 * * 7').matches(at('2026-11-22T00:00:00Z'))).toBe(true)
    const cron = parseCron('0 0 1 * 1')
    expect(cron.matches(at('2026-12-01T00:00:00Z'))).toBe(true) // the 1st, a Tuesday
    expect(cron.matches(at('2026-11-30T00:00:00Z'))).toBe(true) // a Monday
    expect(cron.matches(at('2026-11-29T00:00:00Z'))).toBe(false)
  })

  it('refuses what it cannot read', () => {
    expect(() => parseCron('* * * *')).toThrow(/5 fields/)
    expect(() => parseCron('60 * * * *')).toThrow(/out of range/)
    expect(() => parseCron('*/0 * * * *')).toThrow(/bad step/)
    expect(() => parseCron('5-1 * * * *')).toThrow(/empty range/)
  })
})

describe('readCronTriggers', () => {
  it("reads the [triggers] crons of wrangler.toml", () => {
    expect(readCronTriggers('[triggers]\ncrons = ["*/15 * * * *", \'0 3 * * *\']\n')).toEqual(['*/15 * * * *', '0 3 * * *'])
    expect(readCronTriggers('name = "x"\n')).toEqual([])
  })
})
