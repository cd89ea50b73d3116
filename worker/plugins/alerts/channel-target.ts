import { ALERT_MESSAGES } from '../../../shared/schemas/alerts.ts'
import { InvalidInputError } from '../../errors.ts'

/**
 * Where a channel may post (design.md §6, reference §4.2's SSRF guard): https only, and never to a private,
 * loopback, link-local, shared, multicast or reserved address, nor to names that only resolve inside a network
 * (`localhost`, `*.local`, `*.internal` such as cloud metadata, single-label names). Workers have no DNS API,
 * so a public name is not resolved here (docs/deviations.md); the check runs again at every delivery, with
 * redirects never followed. `allowLocal` (config `alerts.allow_local_targets`) lifts all of it but the scheme
 * being http(s), for local development and tests.
 */
export function checkChannelTarget(raw: string, allowLocal: boolean): { readonly url: string; readonly hint: string } {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new InvalidInputError(ALERT_MESSAGES.channelUrl)
  }
  const schemes = allowLocal ? ['https:', 'http:'] : ['https:']
  if (!schemes.includes(url.protocol) || url.hostname === '') throw new InvalidInputError(ALERT_MESSAGES.channelUrl)
  if (url.username || url.password) throw new InvalidInputError('Channel URL rejected: credentials in the URL are not allowed.')
  if (!allowLocal) {
    const reason = refusedHost(url.hostname)
    if (reason) throw new InvalidInputError(`Channel URL rejected: ${reason}.`)
  }
  return { url: url.href, hint: url.host }
}

/** Why a host is not a public destination, or null when it may be. */
export function refusedHost(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (host.startsWith('[')) return ipv6Reason(host.slice(1, -1))
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return ipv4Reason(host.split('.').map(Number))
  if (host === 'localhost' || host.endsWith('.localhost')) return `${host} is this machine`
  if (!host.includes('.')) return `${host} is not a public host name`
  if (/\.(local|internal|intranet|lan|home\.arpa|corp)$/.test(host)) return `${host} is a private network name`
  return null
}

function ipv4Reason([a, b, c]: number[]): string | null {
  if (a === undefined || b === undefined || c === undefined) return 'the address is not valid'
  if (a === 0) return 'the address is unspecified'
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'the address is private'
  if (a === 100 && b >= 64 && b <= 127) return 'the address is shared (carrier-grade NAT)'
  if (a === 127) return 'the address is loopback'
  if (a === 169 && b === 254) return 'the address is link-local (cloud metadata lives there)'
  if (a === 192 && b === 0 && c === 0) return 'the address is reserved'
  if (a === 198 && (b === 18 || b === 19)) return 'the address is reserved for benchmarking'
  if (a >= 224) return 'the address is multicast or reserved'
  return null
}

function ipv6Reason(address: string): string | null {
  const groups = expandIpv6(address)
  if (!groups) return 'the address is not valid'
  if (groups.every((group) => group === 0)) return 'the address is unspecified'
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return 'the address is loopback'
  const first = groups[0]!
  if ((first & 0xfe00) === 0xfc00) return 'the address is private (unique local)'
  if ((first & 0xffc0) === 0xfe80) return 'the address is link-local'
  if ((first & 0xff00) === 0xff00) return 'the address is multicast'
  // IPv4-mapped (::ffff:a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) addresses carry an IPv4 address: judge that one.
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
  const nat64 = first === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)
  if (mapped || nat64) return ipv4Reason([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff])
  return null
}

/** The eight 16-bit groups of an IPv6 address (as URL normalises it: hex groups, `::` at most once). */
function expandIpv6(address: string): number[] | null {
  const halves = address.split('::')
  if (halves.length > 2) return null
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? parseInt(group, 16) : NaN)))
  const head = parse(halves[0]!)
  const tail = halves.length === 2 ? parse(halves[1]!) : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  return groups.some(Number.isNaN) ? null : groups
}
