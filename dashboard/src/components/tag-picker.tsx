import { useState } from 'preact/hooks'
import { TAG_DEFAULTS } from '../../../shared/constants.ts'
import { TagInputSchema } from '../../../shared/schemas/tag.ts'
import { check } from '../../../shared/validate.ts'
import { createTag, setIssueTag } from '../api/endpoints.ts'
import type { IssueTag } from '../api/types.ts'
import { useCatalog } from '../state/catalog.tsx'
import { Icon } from './icon.tsx'
import { useMutation } from '../state/use-mutation.ts'

/** Tag toggles for one issue (`issue-tags`), plus "create tag and attach" (reference §7 inspector). */
export function TagPicker({ issueId, attached }: { issueId: number; attached: readonly IssueTag[] }) {
  const { tags } = useCatalog()
  const { pending, run } = useMutation<number | 'new'>()
  const [name, setName] = useState('')
  const [error, setError] = useState('')
  const on = new Map(attached.map((tag) => [tag.id, tag]))

  const toggle = async (tagId: number, tagName: string) => {
    if (pending !== null) return
    setError('')
    const removing = on.has(tagId)
    await run(() => setIssueTag(issueId, tagId, removing ? 'remove' : 'add'), { done: () => (removing ? `Removed ${tagName}` : `Tagged ${tagName}`), failed: setError }, tagId)
  }

  const createAndAttach = async (event: Event) => {
    event.preventDefault()
    if (pending !== null) return
    const input = { name: name.trim(), color: TAG_DEFAULTS.color, icon: TAG_DEFAULTS.icon, match_word: '' }
    const valid = check(input, TagInputSchema)
    if (!valid.ok) return setError(valid.message)
    setError('')
    await run(
      async () => {
        const tag = await createTag(input)
        await setIssueTag(issueId, tag.id, 'add')
        return tag
      },
      {
        done: (tag) => {
          setName('')
          return `Created and attached ${tag.name}`
        },
        failed: setError,
      },
      'new',
    )
  }

  const list = tags.data?.data ?? []
  return (
    <div class="tag-picker">
      <div class="tag-toggles" role="group" aria-label="Tags">
        {list.length === 0 && <p class="muted small">No tags yet.</p>}
        {list.map((tag) => {
          const attachedTag = on.get(tag.id)
          return (
            <button
              key={tag.id}
              type="button"
              class={attachedTag ? 'tag-toggle on' : 'tag-toggle'}
              style={{ '--tag-color': tag.color }}
              aria-pressed={!!attachedTag}
              // aria-disabled, not disabled: disabling the focused toggle would drop focus to <body> (issue 17 item 12).
              aria-disabled={pending !== null}
              title={attachedTag ? `Attached (${attachedTag.source}). Click to remove.` : 'Click to attach'}
              onClick={() => toggle(tag.id, tag.name)}
            >
              <Icon name={tag.icon} size={12} />
              {tag.name}
              {attachedTag?.source === 'rule' && <span class="tag-source">rule</span>}
            </button>
          )
        })}
      </div>
      <form class="inline-form" onSubmit={createAndAttach}>
        <label for="new-tag-name" class="visually-hidden">New tag name</label>
        <input id="new-tag-name" type="text" placeholder="New tag name" value={name} maxLength={80} onInput={(event) => setName(event.currentTarget.value)} aria-describedby={error ? 'tag-picker-error' : undefined} />
        <button type="submit" class="button button-small" aria-disabled={pending !== null || !name.trim()}>
          <Icon name="plus" />
          Create &amp; attach
        </button>
      </form>
      {error && <p class="field-error" id="tag-picker-error" role="alert">{error}</p>}
    </div>
  )
}
