import { useState } from 'preact/hooks'
import { getToken, setToken } from '../state/token.ts'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'
import { Dialog } from './dialog.tsx'
import { Field, fieldProps } from './field.tsx'

/**
 * The API key (`SERVICE_TOKEN`). It is kept in this browser's localStorage and sent as `X-Service-Token`;
 * a 401 from any call opens this dialog with `reason` set.
 */
export function ApiKeyDialog({ onClose, reason }: { onClose: () => void; reason: 'unauthorized' | 'manual' }) {
  const [value, setValue] = useState(getToken() ?? '')
  const [show, setShow] = useState(false)
  const hadToken = getToken() !== null

  const save = (event: Event) => {
    event.preventDefault()
    setToken(value)
    showToast(value.trim() ? 'API key saved in this browser' : 'API key removed from this browser')
    onClose()
    invalidateData()
  }

  return (
    <Dialog title="API key" onClose={onClose}>
      <form onSubmit={save} class="form">
        {reason === 'unauthorized' && (
          <div class="banner banner-warning" role="alert">
            <p>
              {hadToken ? 'The server rejected the saved API key.' : 'This Loupe server requires an API key.'} Enter the value of <code>SERVICE_TOKEN</code>.
            </p>
          </div>
        )}
        <Field id="api-key" label="API key" hint="Stored only in this browser (localStorage) and sent as the X-Service-Token header.">
          <div class="input-with-button">
            <input
              {...fieldProps('api-key', undefined, 'hint')}
              aria-describedby="api-key-hint"
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
          {hadToken && (
            <button type="button" class="button button-ghost" onClick={() => { setToken(null); setValue(''); showToast('API key removed from this browser'); invalidateData() }}>
              Forget key
            </button>
          )}
          <button type="button" class="button button-ghost" onClick={onClose}>Cancel</button>
          <button type="submit" class="button button-primary">Save key</button>
        </div>
      </form>
    </Dialog>
  )
}
