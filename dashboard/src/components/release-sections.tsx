import { useState } from 'preact/hooks'
import type { DeployRow, ReleaseSettings, SourceMapRow } from '../../../shared/schemas/releases.ts'
import { createDeploy, deleteDeploy, deleteSourceMap, saveReleaseSettings } from '../api/endpoints.ts'
import { useMutation } from '../state/use-mutation.ts'
import { Field, fieldProps } from './field.tsx'

/** The recorded deploys, newest first, each with its issue count; "Record deploy" adds one. */
export function DeploysSection({ deploys }: { deploys: readonly DeployRow[] }) {
  const [version, setVersion] = useState('')
  const [environment, setEnvironment] = useState('production')
  const [ref, setRef] = useState('')
  const [error, setError] = useState<string>()
  const { pending, run } = useMutation<string>()
  const record = (event: Event) => {
    event.preventDefault()
    setError(undefined)
    run(() => createDeploy({ version, environment, ...(ref ? { ref } : {}) }), { done: (deploy) => (setVersion(''), setRef(''), `Recorded ${deploy.version} (${deploy.environment})`), failed: setError }, 'record')
  }
  const remove = (deploy: DeployRow) => run(() => deleteDeploy(deploy.id), { done: () => `Deleted the deploy of ${deploy.version}`, failure: 'Could not delete' }, `delete-${deploy.id}`)
  return (
    <section class="panel settings-panel" aria-labelledby="deploys-heading" data-testid="deploys">
      <h2 id="deploys-heading" class="panel-title">Deploys</h2>
      {deploys.length === 0 ? (
        <p class="muted">No deploy recorded. Deploys show as markers on the overview's trend chart.</p>
      ) : (
        <ul class="plugin-list">
          {deploys.map((deploy) => (
            <li key={deploy.id} class="plugin-item" data-deploy={deploy.version}>
              <div class="plugin-text">
                <strong>{deploy.version}</strong> <span class="badge badge-muted">{deploy.environment}</span>
                <p class="muted small">
                  {deploy.deployed_at} UTC{deploy.ref ? ` · ${deploy.ref}` : ''} · {deploy.issue_count} {deploy.issue_count === 1 ? 'issue' : 'issues'}
                </p>
              </div>
              <div class="row-actions">
                <button type="button" class="button button-small button-ghost" disabled={pending !== null} onClick={() => void remove(deploy)}>Delete</button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form class="alert-form" onSubmit={record} aria-label="Record deploy">
        <Field id="deploy-version" label="Version" error={error}>
          <input {...fieldProps('deploy-version', error)} value={version} maxLength={120} required placeholder="shop@2.4.1" onInput={(event) => setVersion(event.currentTarget.value)} />
        </Field>
        <Field id="deploy-environment" label="Environment">
          <input {...fieldProps('deploy-environment')} value={environment} maxLength={120} required onInput={(event) => setEnvironment(event.currentTarget.value)} />
        </Field>
        <Field id="deploy-ref" label="Ref (optional)">
          <input {...fieldProps('deploy-ref')} value={ref} maxLength={200} placeholder="commit or tag" onInput={(event) => setRef(event.currentTarget.value)} />
        </Field>
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={pending !== null}>{pending === 'record' ? 'Recording…' : 'Record deploy'}</button>
        </div>
      </form>
    </section>
  )
}

/** The code-host link template (`{ref}`, `{path}`, `{line}`) behind the inspector's "View source". */
export function ReleaseSettingsSection({ settings }: { settings: ReleaseSettings }) {
  const [template, setTemplate] = useState(settings.repo_url_template)
  const [ref, setRef] = useState(settings.default_ref)
  const [error, setError] = useState<string>()
  const { busy, run } = useMutation()
  const save = (event: Event) => {
    event.preventDefault()
    setError(undefined)
    run(() => saveReleaseSettings({ repo_url_template: template, default_ref: ref }), { done: () => 'Saved the code-host link', failed: setError })
  }
  return (
    <section class="panel settings-panel" aria-labelledby="code-host-heading" data-testid="release-settings">
      <h2 id="code-host-heading" class="panel-title">Code host</h2>
      <form class="alert-form" onSubmit={save} aria-label="Code-host link">
        <Field id="release-template" label="Source URL template" error={error} hint="{ref}, {path} and {line} are filled in, e.g. https://github.com/acme/app/blob/{ref}/{path}#L{line}">
          <input {...fieldProps('release-template', error, 'hint')} type="url" value={template} maxLength={500} onInput={(event) => setTemplate(event.currentTarget.value)} />
        </Field>
        <Field id="release-ref" label="Default ref" hint="Used for {ref}; main when empty.">
          <input {...fieldProps('release-ref', undefined, 'hint')} value={ref} maxLength={120} onInput={(event) => setRef(event.currentTarget.value)} />
        </Field>
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : 'Save'}</button>
        </div>
      </form>
    </section>
  )
}

/** A source map's **Delete…**, behind an inline confirmation (frames of its release stop resolving). */
export function SourceMapActions({ map }: { map: SourceMapRow }) {
  const [confirming, setConfirming] = useState(false)
  const { busy, run } = useMutation()
  const remove = () => run(() => deleteSourceMap(map.id), { done: () => `Deleted ${map.file} (${map.release})`, failure: 'Could not delete', settled: () => setConfirming(false) })
  return (
    <div class="row-actions">
      {confirming ? (
        <span class="inline-confirm" role="group" aria-label={`Confirm deleting ${map.file}`}>
          <button type="button" class="button button-small button-danger" disabled={busy} onClick={() => void remove()}>Delete map</button>
          <button type="button" class="button button-small button-ghost" onClick={() => setConfirming(false)}>Cancel</button>
        </span>
      ) : (
        <button type="button" class="button button-small button-ghost" onClick={() => setConfirming(true)}>Delete…</button>
      )}
    </div>
  )
}
