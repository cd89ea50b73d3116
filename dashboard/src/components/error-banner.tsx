import { ApiError } from '../api/api-error.ts'
import { Icon } from './icon.tsx'

/**
 * An error with a way out: the server's message and a Retry button. A 401 gets no banner at all: the shell
 * replaces everything with the API-key screen (issue 17 item 13: a stack of red banners whose Retry could
 * never succeed).
 */
export function ErrorBanner({ error, onRetry, context }: { error: ApiError | Error | string; onRetry?: () => void; context?: string }) {
  if (error instanceof ApiError && error.status === 401) return null
  const message = typeof error === 'string' ? error : error.message
  return (
    <div class="banner banner-error" role="alert">
      <Icon name="alert" />
      <p>
        {context && <strong>{context}: </strong>}
        {message}
      </p>
      {onRetry && (
        <button type="button" class="button button-small" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  )
}
