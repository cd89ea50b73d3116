import { InvalidInputError, OperationalError } from '../errors.ts'

/**
 * Secrets at rest (design.md §3 and §6: the reference's libsodium SecretBox becomes Web Crypto AES-GCM with a
 * key derived from `SERVICE_SECRET`): integration secrets — ingest keys, alert channel URLs, tracker tokens,
 * connector credentials — are sealed before they reach a database and opened only where they are used.
 *
 * Format: `v1.` + base64url(12-byte IV ‖ AES-256-GCM ciphertext ‖ 16-byte tag). The key is HKDF-SHA-256 of the
 * secret; the `context` (e.g. `app:default:http_ingest.key`) is the additional authenticated data, so a sealed
 * value copied to another place (another application, another setting) does not open there.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): Promise<string>
  open(sealed: string, context: string): Promise<string>
}

const VERSION = 'v1.'
const IV_BYTES = 12
const HKDF_SALT = new TextEncoder().encode('loupe/secret-box/v1')
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** What an endpoint answers when it would have to store a secret and no `SERVICE_SECRET` is set (422). */
export function missingSecretMessage(what: string): string {
  return `SERVICE_SECRET is not set, so ${what} cannot be stored encrypted. Set it (wrangler secret put SERVICE_SECRET, or SERVICE_SECRET in .dev.vars locally) and try again.`
}

export const UNREADABLE_SECRET_MESSAGE = 'A stored secret could not be decrypted: SERVICE_SECRET has changed since it was saved. Save the secret again.'

/**
 * A box over `secret` (SERVICE_SECRET), or one that refuses to seal — with a 422 naming what to set — when there
 * is none: secrets are never stored in plaintext. `what` names the secret in that message ("the ingest key").
 */
export function createSecretBox(secret: string | null | undefined): SecretBox {
  const material = secret?.trim()
  if (!material) {
    return {
      seal: async (_plaintext, context) => {
        throw new InvalidInputError(missingSecretMessage(describeContext(context)))
      },
      open: async () => {
        throw new OperationalError(UNREADABLE_SECRET_MESSAGE)
      },
    }
  }
  const aesKey = () => derivedKey(material)
  return {
    async seal(plaintext, context) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES))
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(context) }, await aesKey(), encoder.encode(plaintext))
      const bytes = new Uint8Array(IV_BYTES + sealed.byteLength)
      bytes.set(iv)
      bytes.set(new Uint8Array(sealed), IV_BYTES)
      return VERSION + toBase64Url(bytes)
    },
    async open(sealed, context) {
      const bytes = sealed.startsWith(VERSION) ? fromBase64Url(sealed.slice(VERSION.length)) : null
      if (!bytes || bytes.length < IV_BYTES + 16) throw new OperationalError(UNREADABLE_SECRET_MESSAGE)
      try {
        const plain = await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: bytes.subarray(0, IV_BYTES), additionalData: encoder.encode(context) },
          await aesKey(),
          bytes.subarray(IV_BYTES),
        )
        return decoder.decode(plain)
      } catch (error) {
        throw new OperationalError(UNREADABLE_SECRET_MESSAGE, { cause: error })
      }
    },
  }
}

/**
 * The derived key per secret, kept for the isolate's life: a box is made per request, and deriving (HKDF) on
 * every request that opens a secret — each ingest request opens its key — is work the answer never changes.
 * A handful of entries at most (one per SERVICE_SECRET the isolate has seen).
 */
const derivedKeys = new Map<string, Promise<CryptoKey>>()

function derivedKey(secret: string): Promise<CryptoKey> {
  let key = derivedKeys.get(secret)
  if (!key) {
    if (derivedKeys.size >= 8) derivedKeys.clear()
    key = deriveKey(secret)
    derivedKeys.set(secret, key)
    key.catch(() => derivedKeys.delete(secret))
  }
  return key
}

async function deriveKey(secret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: HKDF_SALT, info: encoder.encode('aes-256-gcm') },
    base,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  )
}

/** What users call the secrets sealed under each setting (the 422 names it). */
const SECRET_NAMES: Readonly<Record<string, string>> = {
  'http_ingest.key': 'the ingest key',
  'alerts.channel_url': 'the alert channel URL',
  'tracker.api_key': 'the tracker API key',
  'tracker.webhook_secret': 'the tracker webhook secret',
  'connectors.credentials': "the connector's credentials",
}

/** `app:<id>:<setting>` → the setting's words for the 422 ("alerts.channel_url" → "the alert channel URL"). */
function describeContext(context: string): string {
  const setting = context.split(':').pop() || context
  return SECRET_NAMES[setting] ?? `the secret ${setting}`
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'))
  return Uint8Array.from(binary, (c) => c.charCodeAt(0))
}
