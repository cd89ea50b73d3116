import type { AppScope } from '../../apps/app-scope.ts'
import { namedBatch } from '../../../drivers/named-batch.ts'
import type { SecretBox } from '../../security/secret-box.ts'
import { secretsEqual } from '../../security/secrets-equal.ts'
import { appSettings, settingValue } from '../../settings/app-settings.ts'

/** Where the sealed key is kept (reference §4.3: app_settings `http_ingest.key`). */
export const INGEST_KEY_SETTING = 'http_ingest.key'

/** `lpk_` + 48 hex digits (24 random bytes): Loupe's form of the reference's `llk_` keys. */
export function mintIngestKey(): string {
  return `lpk_${Array.from(crypto.getRandomValues(new Uint8Array(24)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

/** The sealing context: a sealed key copied to another application does not open there. */
const context = (scope: AppScope) => `app:${scope.app.id}:${INGEST_KEY_SETTING}`

/**
 * The application's ingest key, minted and stored sealed on the first call (reference §4.3: only the settings
 * read mints one). Two first reads at once both insert-ignore and read back in one batch, so both answer the
 * key that was stored. One round trip when the key exists, two when it is minted.
 */
export async function readOrMintIngestKey(scope: AppScope, secrets: SecretBox, now: string): Promise<string> {
  const stored = settingValue((await scope.db.execute(appSettings.read(scope, INGEST_KEY_SETTING))).rows)
  if (stored !== null) return secrets.open(stored, context(scope))
  const sealed = await secrets.seal(mintIngestKey(), context(scope))
  const d = scope.db.dialect
  const key = d.quote('key')
  const { kept } = await namedBatch(scope.db, {
    mint: { sql: d.insertIgnore(scope.t.settings, [key, 'value', 'updated_at'], 'VALUES (?, ?, ?)', [key]), args: [INGEST_KEY_SETTING, sealed, now] },
    kept: appSettings.read(scope, INGEST_KEY_SETTING),
  })
  return secrets.open(settingValue(kept.rows) ?? sealed, context(scope))
}

/** A new key replaces the old one at once (requests with the old key are refused from now on). */
export async function regenerateIngestKey(scope: AppScope, secrets: SecretBox, now: string): Promise<string> {
  const key = mintIngestKey()
  await scope.db.execute(appSettings.write(scope, INGEST_KEY_SETTING, await secrets.seal(key, context(scope)), now))
  return key
}

/**
 * Whether `presented` is the application's key, compared in constant time. Verification never mints a key:
 * until someone opens the ingest settings, every push is refused (reference §4.3).
 */
export async function isIngestKey(scope: AppScope, secrets: SecretBox, presented: string | null): Promise<boolean> {
  if (!presented) return false
  const stored = settingValue((await scope.db.execute(appSettings.read(scope, INGEST_KEY_SETTING))).rows)
  if (stored === null) return false
  return secretsEqual(presented, await secrets.open(stored, context(scope)))
}

/** Opens a sealed key read by the caller in its own batch. */
export function openIngestKey(scope: AppScope, secrets: SecretBox, sealed: string): Promise<string> {
  return secrets.open(sealed, context(scope))
}
