import { useState } from 'preact/hooks'
import { MODULE_DEFAULT_COLOR } from '../../../shared/constants.ts'
import { ModuleInputSchema } from '../../../shared/schemas/module.ts'
import { check } from '../../../shared/validate.ts'
import { createModule } from '../api/endpoints.ts'
import { errorsFor, errorsFromFailure, type FieldRules, type FormErrors } from '../lib/field-errors.ts'
import { Field, fieldProps } from './field.tsx'
import { useMutation } from '../state/use-mutation.ts'

type ModuleField = 'name' | 'slug' | 'color'
const RULES: FieldRules<ModuleField> = [
  [/^Module name|^A module with that name/, 'name'],
  [/^Module slug|^slug /, 'slug'],
  [/^Module color/, 'color'],
]

/** Creates a module in the current application (`modules` POST). */
export function ModuleForm() {
  const [form, setForm] = useState({ name: '', slug: '', color: MODULE_DEFAULT_COLOR })
  const [errors, setErrors] = useState<FormErrors<ModuleField>>({})
  const { busy, run } = useMutation()

  const submit = async (event: Event) => {
    event.preventDefault()
    const input = { name: form.name, color: form.color, ...(form.slug.trim() ? { slug: form.slug.trim() } : {}) }
    const valid = check(input, ModuleInputSchema)
    if (!valid.ok) return setErrors(errorsFor(valid.message, RULES))
    setErrors({})
    await run(() => createModule(input), {
      done: (module) => {
        setForm({ name: '', slug: '', color: MODULE_DEFAULT_COLOR })
        return `Created module ${module.name}`
      },
      failed: (_, failure) => setErrors(errorsFromFailure(failure, RULES)),
    })
  }

  return (
    <form class="form" onSubmit={submit} noValidate aria-label="New module">
      {errors.form && <p class="banner banner-error" role="alert">{errors.form}</p>}
      <div class="form-grid form-grid-3">
        <Field id="module-name" label="Name" error={errors.name}>
          <input {...fieldProps('module-name', errors.name)} type="text" value={form.name} onInput={(event) => setForm({ ...form, name: event.currentTarget.value })} />
        </Field>
        <Field id="module-slug" label="Slug (optional)" error={errors.slug}>
          <input {...fieldProps('module-slug', errors.slug)} type="text" value={form.slug} onInput={(event) => setForm({ ...form, slug: event.currentTarget.value })} />
        </Field>
        <Field id="module-color" label="Colour" error={errors.color}>
          <div class="color-input">
            <input type="color" aria-label="Pick colour" value={/^#[0-9a-f]{6}$/i.test(form.color) ? form.color : MODULE_DEFAULT_COLOR} onInput={(event) => setForm({ ...form, color: event.currentTarget.value })} />
            <input {...fieldProps('module-color', errors.color)} type="text" value={form.color} onInput={(event) => setForm({ ...form, color: event.currentTarget.value })} />
          </div>
        </Field>
      </div>
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Creating…' : 'Create module'}</button>
      </div>
    </form>
  )
}
