import { describe, expect, it } from 'vitest'
import { isSameOrigin } from '../../../worker/http/guard.ts'

const request = (url: string, origin?: string, host?: string) =>
  new Request(url, { method: 'POST', headers: { ...(origin !== undefined ? { origin } : {}), ...(host ? { host } : {}) } })

describe('isSameOrigin (seed §5, design.md §6)', () => {
  it.each([
    ['no Origin header', 'http://a.test/', undefined, null, true],
    ['same host', 'http://a.test/', 'http://a.test', null, true],
    ['host case differs', 'http://a.test/', 'http://A.TEST', null, true],
    ['scheme differs', 'http://a.test:8787/', 'https://a.test:8787', null, true],
    ['only one side states a port', 'http://a.test/', 'http://a.test:3000', null, true],
    ['both state different ports', 'http://a.test:8080/', 'http://a.test:3000', null, false],
    ['foreign host', 'http://a.test/', 'http://evil.test', null, false],
    ['subdomain is foreign', 'http://a.test/', 'http://x.a.test', null, false],
    ['opaque null origin', 'http://a.test/', 'null', null, false],
    ['SERVICE_URL host', 'http://internal:8787/', 'https://logs.example.com', 'https://logs.example.com', true],
    ['IPv6 literal', 'http://[::1]:8787/', 'http://[::1]:8787', null, true],
  ])('%s', (_label, url, origin, serviceUrl, expected) => {
    expect(isSameOrigin(request(url, origin), serviceUrl)).toBe(expected)
  })
})
