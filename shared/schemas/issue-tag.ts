import { define, type, type Infer } from 'superstruct'
import { toPositiveInteger } from './fields.ts'

export const ISSUE_TAG_MESSAGES = {
  required: 'group_id and tag_id are required.',
  action: 'action must be add or remove.',
} as const

/** `group_id`/`tag_id`: integers ≥ 1 (numeric strings accepted); missing or below 1 is the seed's 422. */
const positiveId = define<number>('id', (value) => (toPositiveInteger(value) !== null ? true : ISSUE_TAG_MESSAGES.required))

const action = define<'add' | 'remove' | undefined>('action', (value) =>
  value === undefined || value === null || value === 'add' || value === 'remove' ? true : ISSUE_TAG_MESSAGES.action,
)

/** Body of `POST ?api=issue-tags` (seed §4.3). */
export const IssueTagInputSchema = type({ group_id: positiveId, tag_id: positiveId, action })
export type IssueTagInput = Infer<typeof IssueTagInputSchema>
