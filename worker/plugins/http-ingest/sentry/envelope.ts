import { InvalidInputError } from '../../../errors.ts'

/** The envelope header fields Loupe reads (https://develop.sentry.dev/sdk/data-model/envelopes/). */
export interface EnvelopeHeader {
  readonly event_id?: unknown
  readonly dsn?: unknown
  readonly sent_at?: unknown
}

export interface EnvelopeItem {
  readonly type: string
  readonly payload: Uint8Array
}

export interface Envelope {
  readonly header: EnvelopeHeader
  readonly items: EnvelopeItem[]
}

const NEWLINE = 0x0a
const decoder = new TextDecoder()

/**
 * Parses an envelope: a JSON header line, then items, each a JSON header line (`type`, optional `length`)
 * and a payload of exactly `length` bytes — or, without one, up to the next newline. Works on bytes because
 * `length` counts bytes and attachments are binary. A malformed envelope is a 400-class input error.
 */
export function parseEnvelope(bytes: Uint8Array): Envelope {
  let position = 0
  const line = (): Uint8Array | null => {
    if (position >= bytes.length) return null
    const end = bytes.indexOf(NEWLINE, position)
    const stop = end === -1 ? bytes.length : end
    const slice = bytes.subarray(position, stop)
    position = stop + 1
    return slice
  }
  const headerLine = line()
  if (headerLine === null) throw new InvalidInputError('The envelope is empty.')
  const header = jsonObject(headerLine, 'The envelope header is not a JSON object.')
  const items: EnvelopeItem[] = []
  for (;;) {
    const itemLine = line()
    if (itemLine === null) break
    if (itemLine.length === 0 || (itemLine.length === 1 && itemLine[0] === 0x0d)) continue // blank line between items
    const itemHeader = jsonObject(itemLine, `Envelope item ${items.length + 1} has no JSON header.`)
    const type = typeof itemHeader.type === 'string' ? itemHeader.type : ''
    if (type === '') throw new InvalidInputError(`Envelope item ${items.length + 1} has no type.`)
    const length = itemHeader.length
    let payload: Uint8Array
    if (length === undefined || length === null) {
      payload = line() ?? new Uint8Array()
    } else {
      if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0 || position + length > bytes.length) {
        throw new InvalidInputError(`Envelope item ${items.length + 1} states a length its payload does not have.`)
      }
      payload = bytes.subarray(position, position + length)
      position += length
      if (bytes[position] === NEWLINE) position++
    }
    items.push({ type, payload })
  }
  return { header, items }
}

/** A payload as JSON (event items). */
export function itemJson(item: EnvelopeItem): unknown {
  try {
    return JSON.parse(decoder.decode(item.payload))
  } catch {
    throw new InvalidInputError(`The envelope's ${item.type} item is not valid JSON.`)
  }
}

/** The public key and numeric project of a DSN (`https://<key>@host/<project>`), or null. */
export function dsnParts(dsn: unknown): { readonly publicKey: string; readonly projectId: string } | null {
  if (typeof dsn !== 'string') return null
  try {
    const url = new URL(dsn)
    const projectId = url.pathname.split('/').filter(Boolean).pop() ?? ''
    return url.username && /^\d+$/.test(projectId) ? { publicKey: decodeURIComponent(url.username), projectId } : null
  } catch {
    return null
  }
}

function jsonObject(bytes: Uint8Array, message: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(decoder.decode(bytes))
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // fall through to the error
  }
  throw new InvalidInputError(message)
}
