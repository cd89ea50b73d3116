import { OperationalError } from '../errors.ts'

/**
 * Outbound requests to user-supplied URLs — alert channels, connectors, trackers (design.md §6): https only;
 * literal private, loopback, link-local, CGNAT, multicast and cloud-metadata addresses refused; redirects never
 * followed (a 3xx is an answer, so a public URL cannot bounce the request into the private network); every
 * request has a deadline. Workers cannot resolve DNS themselves, so host names are checked by their literal
 * form (IP literals in any notation the URL parser normalises: `0x7f.1`, `2130706433`, `[::ffff:127.0.0.1]`).
 *
 * `allowLocalTargets` (configuration, for development and tests only; health warns while it is on) admits
 * http and local addresses, so tests can point integrations at receivers on 127.0.0.1.
 */
export interface OutboundPolicy {
  readonly allowLocalTargets: boolean
  /** Deadline of one request in milliseconds. */
  readonly timeoutMs: number
}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000

/** Why `url` may not be called under `policy`, in words for the user; null when it may. */
export function outboundRefusal(url: URL, policy: Pick<OutboundPolicy, 'allowLocalTargets'>): string | null {
  if (url.username || url.password) return 'credentials in the URL are not allowed'
  if (policy.allowLocalTargets) return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'only http(s) URLs can be called'
  if (url.protocol !== 'https:') return 'only https:// URLs can be called'
  const host = url.hostname.toLowerCase().replace(/\.$/, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is a local address`
  if (host === 'metadata.google.internal' || host === 'metadata' || host.endsWith('.internal')) return `${host} is an internal address`
  const v4 = parseIpv4(host)
  if (v4) return isPublicIpv4(v4) ? null : `${host} is not a public address`
  if (host.startsWith('[')) {
    const v6 = parseIpv6(host.slice(1, -1))
    if (!v6) return `${host} is not a valid address`
    return isPublicIpv6(v6) ? null : `${host} is not a public address`
  }
  return null
}

/**
 * `fetch` under the policy: refused URLs throw an OperationalError naming the reason (callers prefix their own
 * context, e.g. "Channel URL rejected: "); redirects come back as the 3xx response; past the deadline the request
 * is aborted and an OperationalError says so.
 */
export async function outboundFetch(url: string | URL, init: RequestInit, policy: OutboundPolicy): Promise<Response> {
  const target = typeof url === 'string' ? new URL(url) : url
  const refusal = outboundRefusal(target, policy)
  if (refusal) throw new OperationalError(refusal)
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(policy.timeoutMs)]) : AbortSignal.timeout(policy.timeoutMs)
  try {
    return await fetch(target, { ...init, redirect: 'manual', signal })
  } catch (error) {
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new OperationalError(`no answer within ${policy.timeoutMs / 1000} s`, { cause: error })
    }
    throw new OperationalError(`the request failed (${error instanceof Error ? error.message : String(error)})`, { cause: error })
  }
}

function parseIpv4(host: string): number[] | null {
  const parts = host.split('.')
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null
  const bytes = parts.map(Number)
  return bytes.every((byte) => byte <= 255) ? bytes : null
}

function isPublicIpv4([a, b]: number[]): boolean {
  if (a === undefined || b === undefined) return false
  if (a === 0 || a === 10 || a === 127) return false // this network, private, loopback
  if (a === 169 && b === 254) return false // link-local, cloud metadata (169.254.169.254)
  if (a === 172 && b >= 16 && b <= 31) return false
  if (a === 192 && b === 168) return false
  if (a === 100 && b >= 64 && b <= 127) return false // carrier-grade NAT
  if (a === 192 && b === 0) return false // IETF protocol assignments (192.0.0.0/24) and TEST-NET-1 prefix
  if (a === 198 && (b === 18 || b === 19)) return false // benchmarking
  if (a >= 224) return false // multicast, reserved, broadcast
  return true
}

/** Eight 16-bit groups, or null. A dotted IPv4 tail (`::ffff:127.0.0.1`) is rewritten as two hex groups first. */
function parseIpv6(text: string): number[] | null {
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (v4) {
    const bytes = parseIpv4(v4[1]!)
    if (!bytes) return null
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16)
    text = `${text.slice(0, -v4[1]!.length)}${hex(bytes[0]!, bytes[1]!)}:${hex(bytes[2]!, bytes[3]!)}`
  }
  const halves = text.split('::')
  if (halves.length > 2) return null
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)))
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  const zeros = 8 - left.length - right.length
  if (halves.length === 2 ? zeros < 1 : zeros !== 0) return null
  const all = [...left, ...Array<number>(zeros).fill(0), ...right]
  return all.every((g) => Number.isInteger(g)) ? all : null
}

function isPublicIpv6(g: number[]): boolean {
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, h1 = 0, h2 = 0] = g
  if (g.every((x) => x === 0)) return false // ::
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && h1 === 0 && h2 === 1) return false // ::1
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && (f === 0xffff || f === 0)) {
    return isPublicIpv4([h1 >> 8, h1 & 0xff, h2 >> 8, h2 & 0xff]) // IPv4-mapped / -compatible
  }
  if (a === 0x64 && b === 0xff9b) return isPublicIpv4([h1 >> 8, h1 & 0xff, h2 >> 8, h2 & 0xff]) // NAT64
  if ((a & 0xfe00) === 0xfc00) return false // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return false // link-local fe80::/10
  if ((a & 0xff00) === 0xff00) return false // multicast
  if (a === 0x2001 && b === 0xdb8) return false // documentation
  return true
}
