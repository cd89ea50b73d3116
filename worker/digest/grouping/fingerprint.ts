import { normalize } from './normalize.ts'

/**
 * Fingerprints and hashes of reference-behaviour.md §2.5. All are lower-case hex SHA-256 (Web Crypto), joined
 * with `|` exactly as the reference joins them; a missing module is the literal `unassigned`.
 */

const encoder = new TextEncoder()
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))))
}

/** What identifies an issue (§2.5): severity and module are part of it, so WARNING and ERROR are two issues. */
export interface GroupKey {
  readonly moduleId: number | string | null | undefined
  readonly logType: string
  readonly severity: string
  readonly exceptionClass: string | null | undefined
  readonly title: string
  readonly sourceFrame: string | null | undefined
}

/**
 * `sha256(module|log_type|severity|exception_class|normalize(title)|normalize(source_frame))`.
 * @example await groupFingerprint({ moduleId: null, logType: 'laravel', severity: 'ERROR', exceptionClass: null, title, sourceFrame: null })
 */
export function groupFingerprint(key: GroupKey): Promise<string> {
  return sha256Hex(
    [
      moduleLabel(key.moduleId),
      key.logType,
      key.severity,
      key.exceptionClass ?? '',
      normalize(key.title),
      normalize(key.sourceFrame ?? ''),
    ].join('|'),
  )
}

/** A caller-supplied grouping key (HTTP ingest `fingerprint`): `sha256('custom|' + module + '|' + value)`. */
export function customFingerprint(moduleId: number | string | null | undefined, value: string): Promise<string> {
  return sha256Hex(`custom|${moduleLabel(moduleId)}|${value}`)
}

/** A manual issue's fingerprint: `sha256('manual|' + 64 random hex characters)`, unique per call. */
export function manualFingerprint(): Promise<string> {
  return sha256Hex(`manual|${toHex(crypto.getRandomValues(new Uint8Array(32)))}`)
}

/** An issue mirrored from Linear: `sha256('linear|' + linearIssueId)`. */
export function linearFingerprint(linearIssueId: string): Promise<string> {
  return sha256Hex(`linear|${linearIssueId}`)
}

/** One occurrence's exact fingerprint: `sha256(groupFingerprint + '|' + normalize(stack))`. */
export function exactFingerprint(groupFp: string, stack: string | null | undefined): Promise<string> {
  return sha256Hex(`${groupFp}|${normalize(stack ?? '')}`)
}

/** What identifies one event read from a file (a null environment joins as '', like PHP's implode). */
export interface FileEventFields {
  readonly occurredAt: string
  readonly severity: string
  readonly environment: string | null
  readonly logType: string
  readonly channel: string
  readonly body: string
}

/** File import's event hash: `sha256(occurredAt|severity|environment|logType|channel|body)`. */
export function fileEventHash(event: FileEventFields): Promise<string> {
  const { occurredAt, severity, environment, logType, channel, body } = event
  return sha256Hex([occurredAt, severity, environment ?? '', logType, channel, body].join('|'))
}

/** HTTP ingest's event hash: `sha256(occurredAt|severity|channel|body|byteStart)`. */
export function httpEventHash(event: {
  readonly occurredAt: string
  readonly severity: string
  readonly channel: string
  readonly body: string
  readonly byteStart: number
}): Promise<string> {
  const { occurredAt, severity, channel, body, byteStart } = event
  return sha256Hex([occurredAt, severity, channel, body, String(byteStart)].join('|'))
}

function moduleLabel(moduleId: number | string | null | undefined): string {
  return moduleId === null || moduleId === undefined ? 'unassigned' : String(moduleId)
}

function toHex(bytes: Uint8Array): string {
  let hex = ''
  for (const byte of bytes) hex += HEX[byte]!
  return hex
}
