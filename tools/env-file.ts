import { chmodSync, writeFileSync } from 'node:fs'

/**
 * Writes variables as a dotenv file for `wrangler dev --env-file`, readable by the owner only (it may hold
 * the API token). Wrangler's dotenv does not unescape `\"` inside double quotes, so JSON values (e.g.
 * `SERVICE_CONFIG`) are written single-quoted, where nothing is escaped; a value containing `'` falls back to
 * backticks.
 */
export function writeEnvFile(path: string, vars: Readonly<Record<string, string>>): void {
  const lines = Object.entries(vars).map(([key, value]) => {
    if (/[\r\n]/.test(value)) throw new Error(`${key} cannot contain a line break`)
    if (!value.includes("'")) return `${key}='${value}'`
    if (!value.includes('`')) return `${key}=\`${value}\``
    throw new Error(`${key} cannot contain both ' and \``)
  })
  writeFileSync(path, `${lines.join('\n')}\n`)
  chmodSync(path, 0o600)
}
