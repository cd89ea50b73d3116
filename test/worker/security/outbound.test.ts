import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { outboundFetch, outboundRefusal } from '../../../worker/security/outbound.ts'

const STRICT = { allowLocalTargets: false }
const LOCAL = { allowLocalTargets: true, timeoutMs: 300 }

describe('outboundRefusal', () => {
  it.each([
    'https://hooks.slack.com/services/x',
    'https://discord.com/api/webhooks/1/abc',
    'https://8.8.8.8/',
    'https://[2606:4700:4700::1111]/',
    'https://example.com:8443/hook',
  ])('lets %s through', (url) => {
    expect(outboundRefusal(new URL(url), STRICT)).toBeNull()
  })

  it.each([
    ['http://hooks.slack.com/x', 'only https:// URLs can be called'],
    ['ftp://example.com/x', 'only https:// URLs can be called'],
    ['https://user:pass@example.com/', 'credentials in the URL are not allowed'],
    ['https://localhost/', 'localhost is a local address'],
    ['https://api.localhost/', 'api.localhost is a local address'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal is an internal address'],
    ['https://127.0.0.1/', '127.0.0.1 is not a public address'],
    ['https://127.1/', '127.0.0.1 is not a public address'],
    ['https://2130706433/', '127.0.0.1 is not a public address'],
    ['https://0x7f.0.0.1/', '127.0.0.1 is not a public address'],
    ['https://10.1.2.3/', '10.1.2.3 is not a public address'],
    ['https://172.16.0.1/', '172.16.0.1 is not a public address'],
    ['https://172.31.255.255/', '172.31.255.255 is not a public address'],
    ['https://192.168.1.1/', '192.168.1.1 is not a public address'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address'],
    ['https://100.64.0.1/', '100.64.0.1 is not a public address'],
    ['https://0.0.0.0/', '0.0.0.0 is not a public address'],
    ['https://224.0.0.1/', '224.0.0.1 is not a public address'],
    ['https://[::1]/', '[::1] is not a public address'],
    ['https://[::]/', '[::] is not a public address'],
    ['https://[fe80::1]/', '[fe80::1] is not a public address'],
    ['https://[fd00::1]/', '[fd00::1] is not a public address'],
    ['https://[::ffff:127.0.0.1]/', '[::ffff:7f00:1] is not a public address'],
    ['https://[::ffff:10.0.0.1]/', '[::ffff:a00:1] is not a public address'],
    ['https://[64:ff9b::a9fe:a9fe]/', '[64:ff9b::a9fe:a9fe] is not a public address'],
  ])('refuses %s: %s', (url, reason) => {
    expect(outboundRefusal(new URL(url), STRICT)).toBe(reason)
  })

  it('admits http and local addresses only with the development switch on', () => {
    expect(outboundRefusal(new URL('http://127.0.0.1:9999/hook'), { allowLocalTargets: true })).toBeNull()
    expect(outboundRefusal(new URL('file:///etc/passwd'), { allowLocalTargets: true })).toBe('only http(s) URLs can be called')
  })
})

describe('outboundFetch', () => {
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: 'http://127.0.0.1:1/private' }).end()
      } else if (request.url === '/slow') {
        setTimeout(() => response.end('late'), 2000)
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok')
      }
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('calls an allowed URL', async () => {
    const response = await outboundFetch(`${base}/hook`, { method: 'POST', body: '{}' }, LOCAL)
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('ok')
  })

  it('does not follow redirects: the 3xx is the answer', async () => {
    const response = await outboundFetch(`${base}/redirect`, {}, LOCAL)
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toBe('http://127.0.0.1:1/private')
  })

  it('gives up at the deadline with an operational error', async () => {
    const started = Date.now()
    await expect(outboundFetch(`${base}/slow`, {}, LOCAL)).rejects.toMatchObject({ kind: 'operational', message: 'no answer within 0.3 s' })
    expect(Date.now() - started).toBeLessThan(1900)
  })

  it('refuses a local target without the development switch, before any request is made', async () => {
    await expect(outboundFetch(`${base}/hook`, {}, { allowLocalTargets: false, timeoutMs: 1000 })).rejects.toMatchObject({
      kind: 'operational',
      message: 'only https:// URLs can be called',
    })
  })
})
