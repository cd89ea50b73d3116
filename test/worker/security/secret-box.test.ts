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
      () => box.open(tamper(sealed), 'app:one:http_ingest.key'),
      () => box.open('plaintext', 'app:one:http_ingest.key'),
      () => box.open('v1.%%%', 'app:one:http_ingest.key'),
    ]
    for (const failure of failures) {
      await expect(failure()).rejects.toMatchObject({ kind: 'operational', message: UNREADABLE_SECRET_MESSAGE })
    }
  })

  it('tamper() changes the sealed bytes whatever the sealed text ends with', () => {
    // The old tamper rewrote the last two characters to "?A": a value ending in "BA" stayed the same, and
    // the last character of unpadded base64 carries unused bits. Both let a CI run open a "tampered" value.
    for (const sealed of ['v1.abcdBA', 'v1.abcdAA', 'v1.abcdef', 'v1.AAAAAA']) {
      const changed = tamper(sealed)
      expect(changed).not.toBe(sealed)
      expect(changed.length).toBe(sealed.length)
      expect(decoded(changed)).not.toEqual(decoded(sealed))
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

/** Flips one bit of the first payload byte: its character's six bits all carry data (unlike the last one's). */
function tamper(sealed: string): string {
  const index = 'v1.'.length
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const flipped = alphabet[alphabet.indexOf(sealed[index]!) ^ 0b100000]!
  return `${sealed.slice(0, index)}${flipped}${sealed.slice(index + 1)}`
}

function decoded(sealed: string): number[] {
  const base64 = sealed.slice('v1.'.length).replace(/-/g, '+').replace(/_/g, '/')
  return [...atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))].map((char) => char.charCodeAt(0))
}
