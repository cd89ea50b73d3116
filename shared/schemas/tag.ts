import { type, type Infer } from 'superstruct'
import { HEX_COLOR_PATTERN, TAG_ICON_PATTERN, TAG_LIMITS } from '../constants.ts'
import { optionalPattern, optionalText, trimmedText } from './fields.ts'

export const TAG_MESSAGES = {
  name: `Tag name must contain 1–${TAG_LIMITS.nameMax} characters.`,
  color: 'Tag color must be a hex color like #64748b.',
  icon: 'Tag icon must start with a lower-case letter and contain at most 32 lower-case letters, digits, "_" or "-".',
  matchWord: `Automatic tagging word cannot exceed ${TAG_LIMITS.matchWordMax} characters.`,
  matchWordType: 'match_word must be a string.',
  duplicate: 'A tag with this name already exists.',
  invalidId: 'A valid tag id is required.',
  notFound: 'Tag not found.',
} as const

/**
 * Body of `tags` create and update (seed §4.2): `name` required (trimmed, 1–80), `color` `#rrggbb`
 * (stored lower-case), `icon` matching `^[a-z][a-z0-9_-]{0,31}$`, `match_word` at most 200 (empty: no rule).
 * Update is a full replace, so omitted fields take their defaults again (reference §3.2).
 */
export const TagInputSchema = type({
  name: trimmedText(1, TAG_LIMITS.nameMax, TAG_MESSAGES.name),
  color: optionalPattern(HEX_COLOR_PATTERN, TAG_MESSAGES.color),
  icon: optionalPattern(TAG_ICON_PATTERN, TAG_MESSAGES.icon),
  match_word: optionalText(TAG_LIMITS.matchWordMax, TAG_MESSAGES.matchWord, TAG_MESSAGES.matchWordType),
})
export type TagInput = Infer<typeof TagInputSchema>

/** A tag as `GET ?api=tags` lists it — and as create and update return it. */
export interface Tag {
  readonly id: number
  readonly name: string
  readonly color: string
  readonly icon: string
  readonly created_at: string
  readonly updated_at: string | null
  readonly created_by: string | null
  readonly updated_by: string | null
  readonly issue_count: number
  readonly rules: readonly TagRule[]
}

export interface TagRule {
  readonly id: number
  readonly match_word: string
  readonly enabled: boolean
}

/** A tag on an issue, with how it got there. */
export interface IssueTag {
  readonly id: number
  readonly name: string
  readonly color: string
  readonly icon: string
  readonly source: 'manual' | 'rule' | 'ingest' | 'tracker'
}
