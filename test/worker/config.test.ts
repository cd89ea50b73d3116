import { describe, expect, it } from 'vitest'
import { lookup, parseConfig, readConfig } from '../../worker/config.ts'
import { defineSection, integerSetting } from '../../worker/config/config-section.ts'

describe('parseConfig', () => {
  it('uses the defaults and warns about a missing token and secret', () => {
    const config = parseConfig({})
    expect(config).toMatchObject({ token: null, serviceUrl: null, hasSecret: false, pagination: { defaultLimit: 50, maxLimit: 200 }, assignableUsers: [], maxBodyBytes: 1048576, serverTiming: true, databaseTimeoutMs: 10000 })
    expect(config.warnings).toEqual([
      'No API token is set (SERVICE_TOKEN or auth.token): the API is open to anyone who can reach it.',
      'SERVICE_SECRET is not set: integrations that keep a secret (ingest keys, alert channels, tracker tokens) cannot be set up.',
    ])
  })

  it('prefers SERVICE_TOKEN over auth.token, and reads nested or dotted keys', () => {
    expect(parseConfig({ SERVICE_TOKEN: ' env ', SERVICE_CONFIG: '{"auth":{"token":"cfg"}}' }).token).toBe('env')
    expect(parseConfig({ SERVICE_CONFIG: '{"auth":{"token":"cfg"}}' }).token).toBe('cfg')
    expect(parseConfig({ SERVICE_CONFIG: '{"auth.token":"dotted"}' }).token).toBe('dotted')
  })

  it('strips a trailing slash from SERVICE_URL and rejects non-http URLs', () => {
    expect(parseConfig({ SERVICE_URL: 'https://logs.example.com/' }).serviceUrl).toBe('https://logs.example.com')
    const bad = parseConfig({ SERVICE_URL: 'javascript:alert(1)' })
    expect(bad.serviceUrl).toBeNull()
    expect(bad.warnings).toContain('SERVICE_URL is not an http(s) URL and was ignored.')
  })

  it('validates integer settings against their range, keeping the default', () => {
    const config = parseConfig({ SERVICE_CONFIG: JSON.stringify({ pagination: { max_limit: 20, default_limit: 30 } }) })
    expect(config.pagination).toEqual({ defaultLimit: 20, maxLimit: 20 })
    expect(config.warnings).toContain('SERVICE_CONFIG pagination.default_limit must be an integer from 1 to 20; using 20.')
  })

  it('reads the database deadline (database.timeout_ms), 100 ms to 5 minutes', () => {
    expect(parseConfig({ SERVICE_CONFIG: '{"database":{"timeout_ms":2500}}' }).databaseTimeoutMs).toBe(2500)
    const bad = parseConfig({ SERVICE_CONFIG: '{"database.timeout_ms":0}' })
    expect(bad.databaseTimeoutMs).toBe(10000)
    expect(bad.warnings).toContain('SERVICE_CONFIG database.timeout_ms must be an integer from 100 to 300000; using 10000.')
  })

  it('keeps valid assignable users (ids as strings) and warns about invalid entries', () => {
    const config = parseConfig({ SERVICE_CONFIG: JSON.stringify({ assignable_users: [{ id: 3, label: 'Ann' }, { id: 'x' }, 'bob'] }) })
    expect(config.assignableUsers).toEqual([{ id: '3', label: 'Ann' }])
    expect(config.warnings).toContain('SERVICE_CONFIG assignable_users must be a list of {"id", "label"} objects; invalid entries were ignored.')
  })

  it('warns about unknown keys and non-object configuration', () => {
    expect(parseConfig({ SERVICE_CONFIG: '{"paginaton":{"max_limit":5}}' }).warnings).toContain('SERVICE_CONFIG key "paginaton.max_limit" is not recognised and was ignored.')
    expect(parseConfig({ SERVICE_CONFIG: '[1]' }).warnings).toContain('SERVICE_CONFIG is not a JSON object and was ignored.')
    expect(parseConfig({ SERVICE_CONFIG: '{oops' }).warnings).toContain('SERVICE_CONFIG is not a JSON object and was ignored.')
  })

  it('parses the ingestion and retention sections, each bad value a warning naming its default', () => {
    const config = parseConfig({
      SERVICE_CONFIG: JSON.stringify({ ingestion: { import_batch_events: 400, job_budget_bytes: 10 }, 'retention.processed_max_files': 5, retention: { occurrences_max_age_days: -1 } }),
    })
    expect(config.ingestion).toEqual({ capture_limit: 4194304, message_limit: 120000, import_batch_events: 400, request_budget_bytes: 16777216, job_budget_bytes: 268435456, max_file_attempts: 3 })
    expect(config.retention).toEqual({ occurrences_max_age_days: 0, max_occurrences_per_group: 0, processed_max_age_days: 0, processed_max_files: 5 })
    expect(config.warnings).toContain('SERVICE_CONFIG ingestion.job_budget_bytes must be an integer from 65536 to 17179869184; using 268435456.')
    expect(config.warnings).toContain('SERVICE_CONFIG retention.occurrences_max_age_days must be an integer from 0 to 36500; using 0.')
  })

  it('reads a section a plugin registers, and knows its keys', () => {
    const section = defineSection('probe', { limit: integerSetting(1, 10, 5) })
    const config = parseConfig({ SERVICE_CONFIG: '{"probe":{"limit":11,"other":1}}' }, [section])
    expect(config.section(section)).toEqual({ limit: 5 })
    expect(config.warnings).toContain('SERVICE_CONFIG probe.limit must be an integer from 1 to 10; using 5.')
    expect(config.warnings).toContain('SERVICE_CONFIG key "probe.other" is not recognised and was ignored.')
    expect(config.warnings).not.toContain('SERVICE_CONFIG key "probe.limit" is not recognised and was ignored.')
    // Without the plugin the whole section is unknown.
    expect(parseConfig({ SERVICE_CONFIG: '{"probe":{"limit":3}}' }).warnings).toContain('SERVICE_CONFIG key "probe.limit" is not recognised and was ignored.')
  })

  it('turns Server-Timing off only when asked', () => {
    expect(parseConfig({ SERVICE_CONFIG: '{"server_timing":false}' }).serverTiming).toBe(false)
  })

  it('parses once per env object', () => {
    const env = { SERVICE_TOKEN: 'a' }
    expect(readConfig(env)).toBe(readConfig(env))
    expect(readConfig({ ...env })).not.toBe(readConfig(env))
  })
})

describe('lookup', () => {
  it('prefers a flat dotted key, then walks nested objects', () => {
    expect(lookup({ 'a.b': 1, a: { b: 2 } }, 'a.b')).toBe(1)
    expect(lookup({ a: { b: { c: 3 } } }, 'a.b.c')).toBe(3)
    expect(lookup({ a: [1] }, 'a.0')).toBeUndefined()
  })
})
