import { type, type Infer } from 'superstruct'
import { HEX_COLOR_PATTERN } from '../constants.ts'
import { optionalPattern, optionalText, trimmedText } from './fields.ts'

export const MODULE_MESSAGES = {
  name: 'Module name must contain 1–100 characters.',
  slug: 'Module slug must contain 1–64 letters, digits or dashes.',
  slugType: 'slug must be a string.',
  color: 'Module color must be a hex color like #6366f1.',
  duplicate: 'A module with that name or slug already exists.',
} as const

/** Body of `POST ?api=modules` (reference §3.3): `{name, slug?, color?}`. */
export const ModuleInputSchema = type({
  name: trimmedText(1, 100, MODULE_MESSAGES.name),
  slug: optionalText(200, MODULE_MESSAGES.slug, MODULE_MESSAGES.slugType),
  color: optionalPattern(HEX_COLOR_PATTERN, MODULE_MESSAGES.color),
})
export type ModuleInput = Infer<typeof ModuleInputSchema>

export interface Module {
  readonly id: number
  readonly name: string
  readonly slug: string
  readonly color: string
  readonly created_at: string
  readonly issue_count: number
}
