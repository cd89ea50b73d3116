import { useCallback, useEffect, useRef, useState } from 'preact/hooks'
import { ApiError } from '../api/api-error.ts'
import { useDataEpoch } from './data-epoch.ts'

export interface ApiState<T> {
  /** The latest data; kept while a new key loads so views do not flash empty. */
  readonly data: T | undefined
  readonly error: ApiError | null
  readonly loading: boolean
  readonly reload: () => void
}

/**
 * Loads `load()` whenever `key` (or the data epoch) changes; `key === null` means "do not load". Stale
 * responses are aborted, so a slow answer for an old filter never overwrites a newer one.
 */
export function useApi<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): ApiState<T> {
  const epoch = useDataEpoch()
  const [retry, setRetry] = useState(0)
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | null; loading: boolean }>({ data: undefined, error: null, loading: key !== null })
  const loadRef = useRef(load)
  loadRef.current = load

  useEffect(() => {
    if (key === null) {
      setState({ data: undefined, error: null, loading: false })
      return
    }
    const controller = new AbortController()
    setState((previous) => ({ ...previous, loading: true }))
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false })
      },
      (error: unknown) => {
        if (controller.signal.aborted) return
        const apiError = error instanceof ApiError ? error : new ApiError(0, error instanceof Error ? error.message : String(error))
        setState((previous) => ({ data: previous.data, error: apiError, loading: false }))
      },
    )
    return () => controller.abort()
  }, [key, epoch, retry])

  const reload = useCallback(() => setRetry((value) => value + 1), [])
  return { ...state, reload }
}
