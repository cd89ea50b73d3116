import { type, type Infer } from 'superstruct'
import { oneOfOr, positiveId } from './fields.ts'

export const ISSUE_TAG_MESSAGES = {
  required: 'group_id and tag_id are required.',
  action: 'action must be add or remove.',
} as const

/**
 * Body of `POST ?api=issue-tags` (seed §4.3): `group_id`/`tag_id` integers ≥ 1 (numeric strings accepted;
 * missing or below 1 is the seed's 422), `action` add (default) or remove.
 */
export const IssueTagInputSchema = type({
  group_id: positiveId(ISSUE_TAG_MESSAGES.required),
  tag_id: positiveId(ISSUE_TAG_MESSAGES.required),
  action: oneOfOr(['add', 'remove'] as const, 'add', ISSUE_TAG_MESSAGES.action, (text) => text),
})
export type IssueTagInput = Infer<typeof IssueTagInputSchema>
