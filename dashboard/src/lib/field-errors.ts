import { ApiError } from '../api/api-error.ts'

/**
 * Puts an API validation message next to the field it is about. The API answers one sentence per failure
 * (docs/api.md); each form lists which sentence beginnings belong to which field, and anything unmatched is
 * shown at the top of the form.
 */
export type FieldRules<F extends string> = readonly (readonly [RegExp, F])[]
export type FormErrors<F extends string> = Partial<Record<F | 'form', string>>

export function errorsFor<F extends string>(message: string, rules: FieldRules<F>): FormErrors<F> {
  for (const [pattern, field] of rules) if (pattern.test(message)) return { [field]: message } as FormErrors<F>
  return { form: message } as FormErrors<F>
}

export function errorsFromFailure<F extends string>(error: unknown, rules: FieldRules<F>): FormErrors<F> {
  if (error instanceof ApiError && error.status === 422) return errorsFor(error.message, rules)
  return { form: error instanceof Error ? error.message : String(error) } as FormErrors<F>
}
