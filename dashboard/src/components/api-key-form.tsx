import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import { checkToken } from '../api/client.ts'
import { errorMessage } from '../api/api-error.ts'
import { getToken, setToken } from '../state/token.ts'
import { Field, fieldProps } from './field.tsx'

/**
 * The API key field (`SERVICE_TOKEN`). The key is checked against the server first and saved (localStorage,
 * sent as `X-Service-Token`) only when the server accepts it; a refused key is neither saved nor sent again
 * (issue 17 item 13). `onSaved` runs after a successful save.
 */
export function ApiKeyForm({ onSaved, children }: { onSaved: () => void; children?: (busy: boolean) => ComponentChildren }) {
  const [value, setValue] = useState(getToken() ?? '')
  const [show, setShow] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')

  const save = async (event: Event) => {
    event.preventDefault()
    const key = value.trim()
    if (!key) {
      setError('Enter the API key (the value of SERVICE_TOKEN).')
      return
    }
    setBusy(true)
    setError('')
    try {
      if (await checkToken(key)) {
        setToken(key)
        onSaved()
      } else {
        setError('The server refused this key. It was not saved — check the value of SERVICE_TOKEN and try again.')
      }
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={save} class="form" noValidate>
      <Field id="api-key" label="API key" error={error} hint="Checked with the server, then stored only in this browser (localStorage) and sent as the X-Service-Token header.">
        <div class="input-with-button">
          <input
            {...fieldProps('api-key', error, 'hint')}
            type={show ? 'text' : 'password'}
            autocomplete="off"
            spellcheck={false}
            value={value}
            onInput={(event) => setValue(event.currentTarget.value)}
          />
          <button type="button" class="button button-small button-ghost" aria-pressed={show} onClick={() => setShow(!show)}>
            {show ? 'Hide' : 'Show'}
          </button>
        </div>
      </Field>
      <div class="form-actions">
        {children?.(busy)}
        <button type="submit" class="button button-primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Checking…' : 'Save key'}
        </button>
      </div>
    </form>
  )
}
