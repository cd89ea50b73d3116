import { useEffect } from 'preact/hooks'
import { getToken } from '../state/token.ts'
import { ApiKeyForm } from './api-key-form.tsx'
import { Brand } from './brand.tsx'

/**
 * What the dashboard shows instead of everything else once the server answers 401 (issue 17 item 13): one
 * clear screen with the key field, instead of a red banner with a useless Retry on every panel. `onSaved`
 * runs once the server accepted the key.
 */
export function ApiKeyScreen({ onSaved }: { onSaved: () => void }) {
  const hadToken = getToken() !== null
  useEffect(() => document.getElementById('api-key')?.focus(), [])
  return (
    <main id="main" class="key-screen" tabIndex={-1}>
      <div class="key-card panel">
        <Brand />
        <h1>This server needs an API key</h1>
        <p class="muted" data-testid="key-screen-reason">
          {hadToken ? 'The server refused the key saved in this browser.' : 'This Loupe server only answers requests that carry its API key.'} Enter the value of{' '}
          <code>SERVICE_TOKEN</code> (or <code>auth.token</code>) it was started with.
        </p>
        <ApiKeyForm onSaved={onSaved} />
      </div>
    </main>
  )
}
