import type { ApiError } from '../api/api-error.ts'
import { Icon } from './icon.tsx'

/** An error with a way out: the server's message and a Retry button (401s also open the key dialog). */
export function ErrorBanner({ error, onRetry, context }: { error: ApiError | Error | string; onRetry?: () => void; context?: string }) {
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
