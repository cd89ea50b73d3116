import { describe, expect, it } from 'vitest'
import { AppError } from '../../../worker/errors.ts'
import { createSecretBox, UNREADABLE_SECRET_MESSAGE } from '../../../worker/security/secret-box.ts'

describe('createSecretBox', () => {
  const box = createSecretBox('a long service secret')

  it('opens what it sealed, in the same context', async () => {
    const sealed = await box.seal('https://hooks.slack.com/services/T0/B0/xyz', 'app:default:alerts.channel.1')
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
    expect(sealed).not.toContain('hooks.slack.com')
    expect(await box.open(sealed, 'app:default:alerts.channel.1')).toBe('https://hooks.slack.com/services/T0/B0/xyz')
  })

  it('seals the same plaintext differently every time (random IV)', async () => {
    const [a, b] = await Promise.all([box.seal('same', 'ctx'), box.seal('same', 'ctx')])
    expect(a).not.toBe(b)
  })

  it('refuses to open a value moved to another context, sealed under another secret, or tampered with', async () => {
    const sealed = await box.seal('key', 'app:one:http_ingest.key')
    const failures = [
      () => box.open(sealed, 'app:two:http_ingest.key'),
      () => createSecretBox('another secret').open(sealed, 'app:one:http_ingest.key'),
      () => box.open(`${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`, 'app:one:http_ingest.key'),
      () => box.open('plaintext', 'app:one:http_ingest.key'),
      () => box.open('v1.%%%', 'app:one:http_ingest.key'),
    ]
    for (const failure of failures) {
      await expect(failure()).rejects.toMatchObject({ kind: 'operational', message: UNREADABLE_SECRET_MESSAGE })
    }
  })

  it('without SERVICE_SECRET refuses to seal with a 422 that says what to set, and never stores plaintext', async () => {
    for (const secret of [undefined, null, '', '   ']) {
      const error = await createSecretBox(secret).seal('token', 'app:default:tracker.api_key').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AppError)
      expect(error).toMatchObject({ kind: 'invalid' })
      expect((error as Error).message).toContain('SERVICE_SECRET is not set')
      expect((error as Error).message).toContain('wrangler secret put SERVICE_SECRET')
      expect((error as Error).message).not.toContain('token')
    }
  })
})
