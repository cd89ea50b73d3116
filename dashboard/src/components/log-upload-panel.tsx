import { useState } from 'preact/hooks'
import { errorMessage } from '../api/api-error.ts'
import { uploadLog } from '../api/endpoints.ts'
import type { ImportResult } from '../api/types.ts'
import { formatBytes } from '../lib/format.ts'
import { followImport } from '../lib/follow-import.ts'
import { combineFileResults, describeFileResult, describeImport } from '../lib/import-summary.ts'
import { useCatalog } from '../state/catalog.tsx'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'
import { Field, fieldProps } from './field.tsx'
import { Icon } from './icon.tsx'
import { ProcessLogsButton } from './process-logs-button.tsx'

interface Outcome {
  readonly name: string
  readonly result?: ImportResult
  readonly error?: string
  readonly progress?: string
}

/**
 * Uploads log files (`POST ?api=import-incoming&file=<module>/<name>`, the file as the raw body). The
 * folder before the name becomes the issue's module, as with files dropped into `incoming/<module>/`.
 */
export function LogUploadPanel() {
  const { modules } = useCatalog()
  const [files, setFiles] = useState<File[]>([])
  const [folder, setFolder] = useState('')
  const [busy, setBusy] = useState(false)
  const [outcomes, setOutcomes] = useState<Outcome[]>([])

  const upload = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    const results: Outcome[] = []
    const prefix = folder.trim().replace(/^\/+|\/+$/g, '')
    for (const file of files) {
      try {
        const first = await uploadLog(prefix ? `${prefix}/${file.name}` : file.name, file)
        if (first.job) setOutcomes([...results, { name: file.name, progress: 'continuing in the background…' }])
        const final = await followImport(first, (job) => setOutcomes([...results, { name: file.name, progress: `importing in the background: ${job.files_done}/${job.files_total} files` }]))
        // A background job's result covers only its own part of each file: the request's part is added back.
        const fileResults = final === first ? (first.file_results ?? []) : combineFileResults(first.file_results ?? [], final.file_results ?? [])
        results.push({ name: file.name, result: { ...final, file_results: fileResults } })
      } catch (failure) {
        results.push({ name: file.name, error: errorMessage(failure) })
      }
      setOutcomes([...results])
    }
    const failed = results.filter((outcome) => outcome.error).length
    showToast(failed ? `${failed} of ${results.length} uploads failed` : `Uploaded ${results.length === 1 ? results[0]!.name : `${results.length} files`}`, failed ? 'error' : 'success')
    setBusy(false)
    setFiles([])
    ;(event.target as HTMLFormElement).reset()
    invalidateData()
  }

  return (
    <section class="panel settings-panel" aria-labelledby="upload-heading">
      <h2 id="upload-heading" class="panel-title">Upload log files</h2>
      <p class="muted">Laravel, Horizon, nginx access and error, Apache error, console and JSON-lines logs are recognised by their content. Files are archived, so raw events stay viewable.</p>
      <form class="form" onSubmit={upload}>
        <div class="form-grid">
          <Field id="upload-file" label="Log files" hint="Names ending in .log, .log.N, .jsonl or .ndjson.">
            <input {...fieldProps('upload-file', undefined, 'hint')} type="file" multiple onChange={(event) => setFiles([...(event.currentTarget.files ?? [])])} />
          </Field>
          <Field id="upload-module" label="Module folder (optional)" hint="e.g. billing — creates or reuses that module.">
            <input {...fieldProps('upload-module', undefined, 'hint')} type="text" list="upload-module-options" value={folder} onInput={(event) => setFolder(event.currentTarget.value)} />
            <datalist id="upload-module-options">
              {(modules.data?.data ?? []).map((module) => <option key={module.id} value={module.slug}>{module.name}</option>)}
            </datalist>
          </Field>
        </div>
        {files.length > 0 && <p class="small muted">{files.map((file) => `${file.name} (${formatBytes(file.size)})`).join(', ')}</p>}
        <div class="form-actions form-actions-start">
          <button type="submit" class="button button-primary" disabled={busy || files.length === 0}>
            <Icon name="upload" />
            {busy ? 'Uploading…' : 'Upload and import'}
          </button>
          <ProcessLogsButton />
        </div>
      </form>
      {outcomes.length > 0 && (
        <ul class="upload-results" aria-live="polite" data-testid="upload-results">
          {outcomes.map((outcome, index) => (
            <li key={index} class={outcome.error ? 'field-error' : ''}>
              <strong>{outcome.name}</strong>: {outcome.error ?? outcome.progress ?? describeImport(outcome.result!)}
              {(outcome.result?.file_results ?? []).length > 0 && (
                <ul class="upload-file-results small muted" data-testid="upload-file-results">
                  {outcome.result!.file_results.map((file) => (
                    <li key={file.path}>
                      <code>{file.path}</code> {describeFileResult(file)}
                    </li>
                  ))}
                </ul>
              )}
              {outcome.result?.errors?.map((message) => <div key={message} class="field-error small">{message}</div>)}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
