import { describe, expect, it } from 'vitest'
import { checkChannelTarget, refusedHost } from '../../../../worker/plugins/alerts/channel-target.ts'

describe('refusedHost (design.md §6)', () => {
  it.each([
    ['0.0.0.0', 'the address is unspecified'],
    ['10.0.0.1', 'the address is private'],
    ['172.16.0.1', 'the address is private'],
    ['172.31.255.255', 'the address is private'],
    ['192.168.0.10', 'the address is private'],
    ['100.64.0.1', 'the address is shared (carrier-grade NAT)'],
    ['127.0.0.53', 'the address is loopback'],
    ['169.254.169.254', 'the address is link-local (cloud metadata lives there)'],
    ['192.0.0.8', 'the address is reserved'],
    ['198.18.0.1', 'the address is reserved for benchmarking'],
    ['224.0.0.1', 'the address is multicast or reserved'],
    ['255.255.255.255', 'the address is multicast or reserved'],
    ['[::]', 'the address is unspecified'],
    ['[::1]', 'the address is loopback'],
    ['[fc00::1]', 'the address is private (unique local)'],
    ['[fe80::1]', 'the address is link-local'],
    ['[ff02::1]', 'the address is multicast'],
    ['[::ffff:a9fe:a9fe]', 'the address is link-local (cloud metadata lives there)'],
    ['[64:ff9b::a00:1]', 'the address is private'],
    ['localhost', 'localhost is this machine'],
    ['api.localhost', 'api.localhost is this machine'],
    ['printer.local', 'printer.local is a private network name'],
    ['metadata.google.internal', 'metadata.google.internal is a private network name'],
    ['router.home.arpa', 'router.home.arpa is a private network name'],
    ['kubernetes', 'kubernetes is not a public host name'],
  ])('refuses %s: %s', (host, reason) => {
    expect(refusedHost(host)).toBe(reason)
  })

  it.each(['hooks.slack.com', 'discord.com', '8.8.8.8', '172.32.0.1', '100.128.0.1', '[2606:4700::1111]', 'example.com.'])('allows %s', (host) => {
    expect(refusedHost(host)).toBeNull()
  })
})

describe('checkChannelTarget', () => {
  it('normalises the URL and gives its host (with port) as the hint', () => {
    expect(checkChannelTarget('  https://Hooks.Slack.com:8443/services/T/B/x?y=1  ', false)).toEqual({ url: 'https://hooks.slack.com:8443/services/T/B/x?y=1', hint: 'hooks.slack.com:8443' })
  })

  it('sees through the numeric spellings WHATWG URLs normalise to an IPv4 address', () => {
    for (const url of ['https://2130706433/', 'https://0x7f.1/', 'https://0177.0.0.1/', 'https://127.1/']) {
      expect(() => checkChannelTarget(url, false), url).toThrow('Channel URL rejected: the address is loopback.')
    }
  })

  it('allows http and local addresses only when local targets are allowed', () => {
    expect(() => checkChannelTarget('http://127.0.0.1:9000/hook', false)).toThrow('Channel URL must be a valid https:// URL.')
    expect(checkChannelTarget('http://127.0.0.1:9000/hook', true)).toEqual({ url: 'http://127.0.0.1:9000/hook', hint: '127.0.0.1:9000' })
    expect(() => checkChannelTarget('file:///etc/passwd', true)).toThrow('Channel URL must be a valid https:// URL.')
  })
})
