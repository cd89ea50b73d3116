import { useState } from 'preact/hooks'
import { errorMessage } from '../api/api-error.ts'
import { invalidateData } from './data-epoch.ts'
import { showToast } from './toasts.ts'

export interface MutationHandlers<T> {
  /** After success: side effects, and the toast to show (return a string), if any. */
  readonly done?: (result: T) => string | void
  /** After failure, with the server's (or the network's) message: an inline error, or omitted for a toast. */
  readonly failed?: (message: string, error: unknown) => void
  /** The toast's prefix when `failed` is omitted ("Reindex failed: …"). */
  readonly failure?: string
  /** Whether data views refetch after success (default true). */
  readonly invalidate?: boolean
  /** Runs after success and failure alike. */
  readonly settled?: () => void
}

/**
 * The one way the dashboard writes: `run` marks the control busy (with `key`, which of several is), calls the
 * API, toasts the outcome, refetches what the write changed and reports a failure inline or as a toast —
 * instead of a try/catch/finally with its own busy flag in every form.
 *
 * @example
 * const { busy, run } = useMutation()
 * run(() => setIssueStatus(id, status, note), { done: () => `Status changed to ${status}`, failed: setError })
 */
export function useMutation<K = true>() {
  const [pending, setPending] = useState<K | null>(null)
  const run = async <T,>(work: () => Promise<T>, handlers: MutationHandlers<T> = {}, key?: K): Promise<void> => {
    setPending(key ?? (true as K))
    try {
      const result = await work()
      const message = handlers.done?.(result)
      if (message) showToast(message)
      if (handlers.invalidate !== false) invalidateData()
    } catch (failure) {
      const message = errorMessage(failure)
      if (handlers.failed) handlers.failed(message, failure)
      else showToast(`${handlers.failure ?? 'Failed'}: ${message}`, 'error')
    } finally {
      setPending(null)
      handlers.settled?.()
    }
  }
  return { busy: pending !== null, pending, run }
}
