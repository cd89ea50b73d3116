/**
 * An application instrumented with the real `@sentry/node`, unchanged: run by test/e2e/sentry-sdks.test.ts
 * with `LOUPE_DSN` set to the DSN Loupe's ingest settings hand out. It reports a caught exception, a
 * message, and an unhandled promise rejection (the SDK's own handler captures that one), then flushes.
 */
import * as Sentry from '@sentry/node'

Sentry.init({ dsn: process.env.LOUPE_DSN, release: 'shop@3.1.0', environment: 'staging', serverName: 'api-2' })
Sentry.setUser({ id: 'u-42', email: 'grace@example.com' })
Sentry.setTag('region', 'eu-west')
Sentry.addBreadcrumb({ category: 'checkout', message: 'opened basket' })

function applyCoupon(code: string): never {
  throw new TypeError(`Coupon ${code} has expired`)
}

try {
  applyCoupon('WINTER')
} catch (error) {
  Sentry.captureException(error)
}
Sentry.captureMessage('Payment provider slow to answer', 'warning')
void Promise.reject(new Error('Refund worker crashed'))
await new Promise((resolve) => setTimeout(resolve, 500))
const flushed = await Sentry.flush(10_000)
process.exit(flushed ? 0 : 1)
