import { useState } from 'preact/hooks'
import { ApplicationInputSchema, slugify } from '../../../shared/schemas/application.ts'
import { check } from '../../../shared/validate.ts'
import { createApplication } from '../api/endpoints.ts'
import { errorsFor, errorsFromFailure, type FieldRules, type FormErrors } from '../lib/field-errors.ts'
import { Field, fieldProps } from './field.tsx'
import { useMutation } from '../state/use-mutation.ts'

type AppField = 'name' | 'id'
const RULES: FieldRules<AppField> = [
  [/^Application name/, 'name'],
  [/^Application id|^The application id|^An application with id/, 'id'],
]

/** Creates an application (`applications` POST); its id defaults to the slug of its name. */
export function ApplicationForm({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('')
  const [id, setId] = useState('')
  const [errors, setErrors] = useState<FormErrors<AppField>>({})
  const { busy, run } = useMutation()

  const submit = async (event: Event) => {
    event.preventDefault()
    const input = { name, ...(id.trim() ? { id: id.trim() } : {}) }
    const valid = check(input, ApplicationInputSchema)
    if (!valid.ok) return setErrors(errorsFor(valid.message, RULES))
    setErrors({})
    await run(() => createApplication(input), {
      done: (app) => {
        setName('')
        setId('')
        onCreated(app.id)
        return `Created application ${app.name}`
      },
      failed: (_, failure) => setErrors(errorsFromFailure(failure, RULES)),
      invalidate: false,
    })
  }

  return (
    <form class="form" onSubmit={submit} noValidate aria-label="New application">
      {errors.form && <p class="banner banner-error" role="alert">{errors.form}</p>}
      <div class="form-grid">
        <Field id="app-name" label="Name" error={errors.name}>
          <input {...fieldProps('app-name', errors.name)} type="text" value={name} onInput={(event) => setName(event.currentTarget.value)} />
        </Field>
        <Field id="app-id" label="Id (optional)" error={errors.id} hint={`Used in URLs and the API (?app=). Default: ${slugify(name) || 'from the name'}`}>
          <input {...fieldProps('app-id', errors.id, 'hint')} type="text" value={id} placeholder={slugify(name)} onInput={(event) => setId(event.currentTarget.value)} />
        </Field>
      </div>
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Creating…' : 'Create application'}</button>
      </div>
    </form>
  )
}
