import { readConfig } from '../../../worker/config.ts'
import type { HookServices } from '../../../worker/plugins/plugin.ts'
import { createSecretBox } from '../../../worker/security/secret-box.ts'

/** The services a hook gets, for tests that run hooks outside a request: default configuration, inline waitUntil. */
export function testHookServices(): HookServices & { readonly waited: Promise<unknown>[] } {
  const waited: Promise<unknown>[] = []
  return { config: readConfig({}), secrets: createSecretBox('hook-test-secret'), logs: null, waitUntil: (promise) => void waited.push(promise), waited }
}
