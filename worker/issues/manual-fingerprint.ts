import { sha256Joined } from '../digest/persist/sha256-sync.ts'

/**
 * A manual issue's fingerprint (reference §2.5): `sha256('manual|' + 64 random hex characters)`, unique per
 * call, so no imported event ever groups into a manual issue.
 */
export function manualFingerprint(): string {
  const random = crypto.getRandomValues(new Uint8Array(32))
  return sha256Joined(['manual', Array.from(random, (byte) => byte.toString(16).padStart(2, '0')).join('')], '|')
}
