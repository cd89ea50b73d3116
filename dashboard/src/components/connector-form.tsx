import { useState } from 'preact/hooks'
import { CONNECTOR_TYPES, type Connector, type ConnectorType } from '../../../shared/schemas/connectors.ts'
import { createConnector, updateConnector } from '../api/endpoints.ts'
import { useMutation } from '../state/use-mutation.ts'
import { Field, fieldProps } from './field.tsx'

const TYPE_LABELS: Record<ConnectorType, string> = { http: 'HTTP(S) log files', s3: 'S3-compatible bucket' }

/**
 * Add a connector or edit one, with the fields of its type. Credentials are write-only: left empty on an edit,
 * the stored ones are kept.
 */
export function ConnectorForm({ connector, onDone }: { connector?: Connector; onDone: () => void }) {
  const config = connector?.config ?? {}
  const [name, setName] = useState(connector?.name ?? '')
  const [type, setType] = useState<ConnectorType>(connector?.type ?? 'http')
  const [urls, setUrls] = useState(((config.urls as string[] | undefined) ?? []).join('\n'))
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [authorization, setAuthorization] = useState('')
  const [endpoint, setEndpoint] = useState(String(config.endpoint ?? ''))
  const [region, setRegion] = useState(String(config.region ?? 'auto'))
  const [bucket, setBucket] = useState(String(config.bucket ?? ''))
  const [prefix, setPrefix] = useState(String(config.prefix ?? ''))
  const [pathStyle, setPathStyle] = useState(config.path_style !== false)
  const [accessKey, setAccessKey] = useState('')
  const [secretKey, setSecretKey] = useState('')
  const [interval, setInterval] = useState(connector?.sync_interval_minutes ? String(connector.sync_interval_minutes) : '')
  const [error, setError] = useState<string>()
  const { busy, run } = useMutation()
  const id = connector ? `connector-${connector.id}` : 'connector-new'

  const credentials = (): Record<string, unknown> | undefined => {
    if (type === 's3') return accessKey || secretKey ? { access_key_id: accessKey, secret_access_key: secretKey } : undefined
    const given: Record<string, unknown> = {}
    if (authorization) given.headers = { Authorization: authorization }
    if (username || password) Object.assign(given, { username, password })
    return Object.keys(given).length > 0 ? given : undefined
  }
  const submit = (event: Event) => {
    event.preventDefault()
    setError(undefined)
    const body: Record<string, unknown> = {
      name,
      type,
      config: type === 'http' ? { urls: urls.split('\n').map((line) => line.trim()).filter(Boolean) } : { endpoint, region, bucket, prefix, path_style: pathStyle },
      sync_interval_minutes: interval.trim() === '' ? null : Number(interval),
    }
    const secret = credentials()
    if (secret) body.credentials = secret
    run(() => (connector ? updateConnector(connector.id, body) : createConnector(body)), {
      done: (saved) => {
        onDone()
        return `${connector ? 'Saved' : 'Added'} ${saved.name}`
      },
      failed: setError,
    })
  }
  const keep = connector?.has_credentials ? `Leave empty to keep the stored credentials (${connector.credentials_hint}).` : undefined
  return (
    <form class="alert-form connector-form" onSubmit={submit} aria-label={connector ? `Edit ${connector.name}` : 'New connector'}>
      <Field id={`${id}-name`} label="Name">
        <input {...fieldProps(`${id}-name`)} value={name} maxLength={100} required onInput={(event) => setName(event.currentTarget.value)} />
      </Field>
      <Field id={`${id}-type`} label="Type">
        <select id={`${id}-type`} value={type} onChange={(event) => setType(event.currentTarget.value as ConnectorType)}>
          {CONNECTOR_TYPES.map((value) => (
            <option key={value} value={value}>{TYPE_LABELS[value]}</option>
          ))}
        </select>
      </Field>
      {type === 'http' ? (
        <>
          <Field id={`${id}-urls`} label="Log file URLs" hint="One per line, up to 100. https:// only; private and internal addresses are refused.">
            <textarea {...fieldProps(`${id}-urls`, undefined, 'hint')} rows={3} value={urls} required placeholder="https://web1.example.com/logs/laravel.log" onInput={(event) => setUrls(event.currentTarget.value)} />
          </Field>
          <Field id={`${id}-authorization`} label="Authorization header (optional)" hint={keep}>
            <input {...fieldProps(`${id}-authorization`, undefined, keep ? 'hint' : undefined)} type="password" autoComplete="off" value={authorization} placeholder="Bearer …" onInput={(event) => setAuthorization(event.currentTarget.value)} />
          </Field>
          <div class="field-row">
            <Field id={`${id}-username`} label="Basic auth user (optional)">
              <input {...fieldProps(`${id}-username`)} autoComplete="off" value={username} onInput={(event) => setUsername(event.currentTarget.value)} />
            </Field>
            <Field id={`${id}-password`} label="Basic auth password">
              <input {...fieldProps(`${id}-password`)} type="password" autoComplete="off" value={password} onInput={(event) => setPassword(event.currentTarget.value)} />
            </Field>
          </div>
        </>
      ) : (
        <>
          <Field id={`${id}-endpoint`} label="Endpoint" hint="The service's origin, e.g. https://<account>.r2.cloudflarestorage.com">
            <input {...fieldProps(`${id}-endpoint`, undefined, 'hint')} type="url" value={endpoint} required onInput={(event) => setEndpoint(event.currentTarget.value)} />
          </Field>
          <div class="field-row">
            <Field id={`${id}-bucket`} label="Bucket">
              <input {...fieldProps(`${id}-bucket`)} value={bucket} required onInput={(event) => setBucket(event.currentTarget.value)} />
            </Field>
            <Field id={`${id}-region`} label="Region">
              <input {...fieldProps(`${id}-region`)} value={region} onInput={(event) => setRegion(event.currentTarget.value)} />
            </Field>
            <Field id={`${id}-prefix`} label="Prefix">
              <input {...fieldProps(`${id}-prefix`)} value={prefix} placeholder="logs/" onInput={(event) => setPrefix(event.currentTarget.value)} />
            </Field>
          </div>
          <label class="checkbox">
            <input type="checkbox" checked={pathStyle} onChange={(event) => setPathStyle(event.currentTarget.checked)} /> Path-style addressing
          </label>
          <div class="field-row">
            <Field id={`${id}-access-key`} label="Access key id" hint={keep}>
              <input {...fieldProps(`${id}-access-key`, undefined, keep ? 'hint' : undefined)} autoComplete="off" value={accessKey} required={!connector?.has_credentials} onInput={(event) => setAccessKey(event.currentTarget.value)} />
            </Field>
            <Field id={`${id}-secret-key`} label="Secret access key">
              <input {...fieldProps(`${id}-secret-key`)} type="password" autoComplete="off" value={secretKey} required={!connector?.has_credentials} onInput={(event) => setSecretKey(event.currentTarget.value)} />
            </Field>
          </div>
        </>
      )}
      <Field id={`${id}-interval`} label="Sync every (minutes, optional)" error={error} hint="Empty: only when you confirm a sync. The cron trigger runs every 15 minutes.">
        <input {...fieldProps(`${id}-interval`, error, 'hint')} type="number" min={1} max={10080} value={interval} onInput={(event) => setInterval(event.currentTarget.value)} />
      </Field>
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : connector ? 'Save connector' : 'Add connector'}</button>
        <button type="button" class="button button-ghost" onClick={onDone} disabled={busy}>Cancel</button>
      </div>
    </form>
  )
}
