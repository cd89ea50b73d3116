import { useState } from 'preact/hooks'
import { errorMessage } from '../api/api-error.ts'
import { deleteTag } from '../api/endpoints.ts'
import type { Tag } from '../api/types.ts'
import { plural } from '../lib/format.ts'
import { useCatalog } from '../state/catalog.tsx'
import { invalidateData } from '../state/data-epoch.ts'
import { showToast } from '../state/toasts.ts'
import { navigate } from '../state/url-state.ts'
import { TagChip } from './badges.tsx'
import { Dialog } from './dialog.tsx'
import { ErrorBanner } from './error-banner.tsx'
import { Icon } from './icon.tsx'
import { Spinner } from './spinner.tsx'
import { TagForm } from './tag-form.tsx'

/** The tag manager: every tag with its issue count and rule; create, edit, delete. */
export function TagManagerDialog({ onClose }: { onClose: () => void }) {
  const { tags } = useCatalog()
  const [editing, setEditing] = useState<Tag | 'new' | null>(null)
  const [confirming, setConfirming] = useState<number | null>(null)
  const [error, setError] = useState('')

  const remove = async (tag: Tag) => {
    setError('')
    try {
      await deleteTag(tag.id)
      showToast(`Deleted tag ${tag.name}`)
      setConfirming(null)
      invalidateData()
    } catch (failure) {
      setError(errorMessage(failure))
    }
  }

  const list = tags.data?.data ?? []
  return (
    <Dialog title="Tags" onClose={onClose} wide>
      {editing !== null ? (
        <TagForm key={editing === 'new' ? 'new' : editing.id} tag={editing === 'new' ? null : editing} onDone={() => setEditing(null)} onCancel={() => setEditing(null)} />
      ) : (
        <div class="tag-manager">
          <div class="form-actions form-actions-start">
            <button type="button" class="button button-primary" onClick={() => setEditing('new')} autoFocus>
              <Icon name="plus" />
              New tag
            </button>
          </div>
          {error && <p class="banner banner-error" role="alert">{error}</p>}
          {tags.error && <ErrorBanner error={tags.error} onRetry={tags.reload} />}
          {!tags.data && !tags.error && <Spinner label="Loading tags…" />}
          {tags.data && list.length === 0 && <p class="muted">No tags yet. Tags group issues; give one an automatic word and it tags matching issues by itself.</p>}
          {list.length > 0 && (
            <table class="simple-table">
              <thead>
                <tr><th scope="col">Tag</th><th scope="col">Automatic word</th><th scope="col">Issues</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
              </thead>
              <tbody>
                {list.map((tag) => (
                  <tr key={tag.id} data-tag-name={tag.name}>
                    <td><TagChip tag={tag} /></td>
                    <td>{tag.rules[0] ? <code>{tag.rules[0].match_word}</code> : <span class="muted">—</span>}</td>
                    <td>
                      <button type="button" class="link-button" onClick={() => { navigate({ view: 'issues', tag: String(tag.id), issue: null }); onClose() }} title="Show these issues">
                        {plural(tag.issue_count, 'issue')}
                      </button>
                    </td>
                    <td class="row-actions">
                      {confirming === tag.id ? (
                        <>
                          <span class="small">Delete “{tag.name}”?</span>
                          <button type="button" class="button button-small button-danger" onClick={() => remove(tag)}>Delete</button>
                          <button type="button" class="button button-small button-ghost" onClick={() => setConfirming(null)}>Keep</button>
                        </>
                      ) : (
                        <>
                          <button type="button" class="button button-small button-ghost" onClick={() => setEditing(tag)} aria-label={`Edit tag ${tag.name}`}><Icon name="edit" />Edit</button>
                          <button type="button" class="button button-small button-ghost" onClick={() => setConfirming(tag.id)} aria-label={`Delete tag ${tag.name}`}><Icon name="trash" />Delete</button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </Dialog>
  )
}
