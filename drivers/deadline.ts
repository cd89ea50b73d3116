import type { DriverName } from './driver.ts'
import { DriverError } from './driver-error.ts'

/** What a stalled database call fails with (design.md §4: a JSON 503, never a hang). */
export function deadlineError(driver: DriverName, timeoutMs: number): DriverError {
  return new DriverError('timeout', driver, `The database did not answer within ${timeoutMs} ms.`)
}

/**
 * Runs one driver call under a deadline (issue 10: a stalled database must not hang requests). `work`
 * receives a signal that aborts when time is up, to pass to the client's HTTP request so the connection is
 * given up too; and the call settles with a `timeout` DriverError at the deadline even where the client
 * cannot be aborted (D1's binding). Nothing is retried after a timeout: the outcome of a write in flight is
 * unknown, and every batch is atomic on the server, so it is either wholly applied or not at all.
 * `timeoutMs` undefined or 0 means no deadline.
 */
export async function withDeadline<T>(driver: DriverName, timeoutMs: number | undefined, work: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!timeoutMs) return work(undefined)
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      // Reject first so the race settles with the timeout, not with the abort error it provokes.
      const error = deadlineError(driver, timeoutMs)
      reject(error)
      controller.abort(error)
    }, timeoutMs)
  })
  const running = work(controller.signal)
  // The loser of the race may still fail later (an aborted fetch); that failure is expected and dropped.
  running.catch(() => {})
  try {
    return await Promise.race([running, expired])
  } finally {
    clearTimeout(timer)
  }
}

/** A fetch whose requests also abort with `signal`; the client's own signal, if any, still applies. */
export function fetchWithSignal(signal: AbortSignal | undefined, base: typeof fetch = fetch): typeof fetch {
  if (!signal) return base
  return (input, init) => base(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal })
}
