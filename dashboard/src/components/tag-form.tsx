import { useState } from 'preact/hooks'
import { TAG_DEFAULTS } from '../../../shared/constants.ts'
import { TagInputSchema, type TagInput } from '../../../shared/schemas/tag.ts'
import { check } from '../../../shared/validate.ts'
import { createTag, updateTag } from '../api/endpoints.ts'
import type { Tag } from '../api/types.ts'
import { errorsFor, errorsFromFailure, type FieldRules, type FormErrors } from '../lib/field-errors.ts'
import { plural } from '../lib/format.ts'
import { Field, fieldProps } from './field.tsx'
import { Icon, TAG_ICONS } from './icon.tsx'
import { useMutation } from '../state/use-mutation.ts'

type TagField = 'name' | 'color' | 'icon' | 'match_word'
/** Which API message belongs to which field (docs/api.md "tags" errors). */
const RULES: FieldRules<TagField> = [
  [/^Tag name|^A tag with this name|^name /, 'name'],
  [/^Tag color|^color /, 'color'],
  [/^Tag icon|^icon /, 'icon'],
  [/^Automatic tagging word|^match_word/, 'match_word'],
]

/** Create or edit one tag: name, colour, icon and the automatic-tagging word (its rule). */
export function TagForm({ tag, onDone, onCancel }: { tag: Tag | null; onDone: () => void; onCancel: () => void }) {
  const [form, setForm] = useState<TagInput>({
    name: tag?.name ?? '',
    color: tag?.color ?? TAG_DEFAULTS.color,
    icon: tag?.icon ?? TAG_DEFAULTS.icon,
    match_word: tag?.rules[0]?.match_word ?? '',
  })
  const [errors, setErrors] = useState<FormErrors<TagField>>({})
  const { busy, run } = useMutation()
  const set = (patch: Partial<TagInput>) => setForm({ ...form, ...patch })

  const submit = async (event: Event) => {
    event.preventDefault()
    const valid = check(form, TagInputSchema)
    if (!valid.ok) return setErrors(errorsFor(valid.message, RULES))
    setErrors({})
    await run(() => (tag ? updateTag(tag.id, form) : createTag(form)), {
      done: (saved) => {
        onDone()
        return tag ? `Saved tag ${saved.name}` : `Created tag ${saved.name}${form.match_word?.trim() ? ` — on ${plural(saved.issue_count, 'issue')}` : ''}`
      },
      failed: (_, failure) => setErrors(errorsFromFailure(failure, RULES)),
    })
  }

  return (
    <form class="form tag-form" onSubmit={submit} noValidate aria-label={tag ? `Edit tag ${tag.name}` : 'New tag'}>
      {errors.form && <p class="banner banner-error" role="alert">{errors.form}</p>}
      <div class="form-grid">
        <Field id="tag-name" label="Name" error={errors.name}>
          <input {...fieldProps('tag-name', errors.name)} type="text" value={form.name} onInput={(event) => set({ name: event.currentTarget.value })} />
        </Field>
        <Field id="tag-color" label="Colour" error={errors.color}>
          <div class="color-input">
            <input type="color" aria-label="Pick colour" value={/^#[0-9a-f]{6}$/i.test(form.color ?? '') ? form.color : TAG_DEFAULTS.color} onInput={(event) => set({ color: event.currentTarget.value })} />
            <input {...fieldProps('tag-color', errors.color)} type="text" value={form.color} onInput={(event) => set({ color: event.currentTarget.value })} />
          </div>
        </Field>
      </div>
      <Field id="tag-icon" label="Icon" error={errors.icon}>
        <div class="icon-choices">
          <input {...fieldProps('tag-icon', errors.icon)} type="text" value={form.icon} onInput={(event) => set({ icon: event.currentTarget.value })} />
          <div role="group" aria-label="Icon suggestions" class="icon-grid">
            {TAG_ICONS.map((name) => (
              <button key={name} type="button" class={form.icon === name ? 'icon-choice active' : 'icon-choice'} aria-pressed={form.icon === name} aria-label={name} title={name} onClick={() => set({ icon: name })}>
                <Icon name={name} />
              </button>
            ))}
          </div>
        </div>
      </Field>
      <Field id="tag-word" label="Automatic tagging word" error={errors.match_word} hint="Issues whose title, message or exception contain this word (any case) get the tag automatically. Empty: no rule.">
        <input {...fieldProps('tag-word', errors.match_word, 'hint')} type="text" value={form.match_word} onInput={(event) => set({ match_word: event.currentTarget.value })} />
      </Field>
      <div class="form-actions">
        <button type="button" class="button button-ghost" onClick={onCancel}>Cancel</button>
        <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Saving…' : tag ? 'Save tag' : 'Create tag'}</button>
      </div>
    </form>
  )
}
