import { describe, expect, it, vi } from 'vitest'
import { DriverError } from '../../../drivers/driver-error.ts'
import { DatabaseConfigError } from '../../../drivers/index.ts'
import { InvalidInputError, MethodNotAllowedError, NotFoundError, PayloadTooLargeError, RateLimitedError, UnauthorizedError } from '../../../worker/errors.ts'
import { toErrorResponse } from '../../../worker/http/error-response.ts'

async function render(error: unknown) {
  const response = toErrorResponse(error)
  return { status: response.status, headers: response.headers, body: await response.json() }
}

describe('toErrorResponse (the one error → HTTP mapping)', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})

  it.each([
    [new InvalidInputError('Bad.'), 422, 'Bad.'],
    [new NotFoundError('Tag not found.'), 404, 'Tag not found.'],
    [new UnauthorizedError('Token.'), 401, 'Token.'],
    [new PayloadTooLargeError(2048), 413, 'Request body is too large (limit 2 KiB).'],
  ])('keeps the message of %s', async (error, status, message) => {
    const response = await render(error)
    expect(response.status).toBe(status)
    expect(response.body).toEqual({ error: message })
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('adds Allow to 405 and Retry-After to 429', async () => {
    const notAllowed = await render(new MethodNotAllowedError(['GET', 'POST'], ['GET', 'HEAD', 'POST']))
    expect(notAllowed).toMatchObject({ status: 405, body: { error: 'GET or POST required.' } })
    expect(notAllowed.headers.get('allow')).toBe('GET, HEAD, POST')
    expect((await render(new MethodNotAllowedError(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']))).body).toEqual({ error: 'GET, POST, PATCH, PUT, or DELETE required.' })
    const limited = await render(new RateLimitedError('Slow down.', 30))
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('30')
  })

  it('never shows driver text: 500 for faults, 503 when the database is unreachable or misconfigured', async () => {
    const fault = await render(new DriverError('syntax', 'neon', 'relation "app1_secret_table" does not exist'))
    expect(fault).toMatchObject({ status: 500, body: { error: 'A database error occurred. The details are in the server log.' } })
    const down = await render(new DriverError('connection', 'libsql', 'connect ECONNREFUSED 10.0.0.5:443 token=abc'))
    expect(down).toMatchObject({ status: 503, body: { error: 'The database is unavailable. Try again shortly.' } })
    const config = await render(new DatabaseConfigError('DATABASE_URL is not a valid URL.'))
    expect(config).toMatchObject({ status: 503, body: { error: 'The database is not configured correctly. See ?api=health for details.' } })
  })

  it('answers any other throwable with a generic 500, without its message or stack', async () => {
    const bug = await render(new TypeError("Cannot read properties of undefined (reading 'secret')"))
    expect(bug).toMatchObject({ status: 500, body: { error: 'Unexpected server error. The details are in the server log.' } })
    expect(JSON.stringify(bug.body)).not.toContain('secret')
    expect((await render('a string')).status).toBe(500)
  })
})
