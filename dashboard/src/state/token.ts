import { readLocal, writeLocal } from './local-store.ts'

/**
 * The API key lives in this browser's localStorage only (never in the URL, never in a cookie) and is sent as
 * `X-Service-Token` on every API request. `memory` keeps it for the page when storage is unavailable.
 */
const KEY = 'loupe.token'
let memory: string | null = null

export function getToken(): string | null {
  return readLocal(KEY) ?? memory
}

export function setToken(token: string | null): void {
  const value = token?.trim() ? token.trim() : null
  memory = value
  writeLocal(KEY, value)
}
