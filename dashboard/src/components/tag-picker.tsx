import { useState } from 'preact/hooks'
import { TAG_DEFAULTS } from '../../../shared/constants.ts'
import { TagInputSchema } from '../../../shared/schemas/tag.ts'
import { check } from '../../../shared/validate.ts'
import { errorMessage } from '../api/api-error.ts'
import { createTag, setIssueTag } from '../api/endpoints.ts'
import type { IssueTag } from '../api/types.ts'
import { useCatalog } from '../state/catalog.tsx'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'
import { Icon } from './icon.tsx'

/** Tag toggles for one issue (`issue-tags`), plus "create tag and attach" (reference §7 inspector). */
export function TagPicker({ issueId, attached }: { issueId: number; attached: readonly IssueTag[] }) {
  const { tags } = useCatalog()
  const [busy, setBusy] = useState<number | 'new' | null>(null)
  const [name, setName] = useState('')
  const [error, setError] = useState('')
  const on = new Map(attached.map((tag) => [tag.id, tag]))

  const toggle = async (tagId: number, tagName: string) => {
    setBusy(tagId)
    setError('')
    try {
      await setIssueTag(issueId, tagId, on.has(tagId) ? 'remove' : 'add')
      showToast(on.has(tagId) ? `Removed ${tagName}` : `Tagged ${tagName}`)
      invalidateData()
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(null)
    }
  }

  const createAndAttach = async (event: Event) => {
    event.preventDefault()
    const input = { name: name.trim(), color: TAG_DEFAULTS.color, icon: TAG_DEFAULTS.icon, match_word: '' }
    const valid = check(input, TagInputSchema)
    if (!valid.ok) return setError(valid.message)
    setBusy('new')
    setError('')
    try {
      const tag = await createTag(input)
      await setIssueTag(issueId, tag.id, 'add')
      showToast(`Created and attached ${tag.name}`)
      setName('')
      invalidateData()
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(null)
    }
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
              disabled={busy !== null}
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
        <button type="submit" class="button button-small" disabled={busy !== null || !name.trim()}>
          <Icon name="plus" />
          Create &amp; attach
        </button>
      </form>
      {error && <p class="field-error" id="tag-picker-error" role="alert">{error}</p>}
    </div>
  )
}
