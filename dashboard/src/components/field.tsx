import type { ComponentChildren } from 'preact'

/**
 * A labelled form field with its error underneath. The control gets `id`, `aria-invalid` and
 * `aria-describedby` from the caller via `fieldProps()`, so screen readers read the error with the field.
 */
export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ComponentChildren }) {
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={id}>{label}</label>
      {children}
      {hint && !error && <p class="field-hint" id={`${id}-hint`}>{hint}</p>}
      {error && (
        <p class="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

export function fieldProps(id: string, error?: string, hint?: string) {
  return {
    id,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  }
}
