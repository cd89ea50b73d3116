import { useEffect, useRef, useState } from 'preact/hooks'
import { navigate } from '../state/url-state.ts'
import { Icon } from './icon.tsx'

/**
 * The search field (`q`). Typing updates the URL after a short pause and shares one history entry per burst
 * of typing; `/` anywhere outside a field focuses it (reference §7 "keyboard focus shortcut").
 */
export function SearchBox({ value }: { value: string }) {
  const [text, setText] = useState(value)
  const input = useRef<HTMLInputElement>(null)
  const timer = useRef<number | undefined>(undefined)
  /** The last `q` this box itself put in the URL; any other change came from back/forward or a link. */
  const committed = useRef(value)

  useEffect(() => {
    if (value === committed.current) return
    window.clearTimeout(timer.current)
    committed.current = value
    setText(value)
  }, [value])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return
      const target = event.target as HTMLElement | null
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return
      if (document.querySelector('dialog[open]')) return
      event.preventDefault()
      input.current?.focus()
      input.current?.select()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const commit = (next: string, mode: 'typing' | 'push') => {
    window.clearTimeout(timer.current)
    committed.current = next
    navigate({ q: next, view: 'issues' }, mode)
  }

  return (
    <form
      class="search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault()
        commit(text, 'typing')
      }}
    >
      <label for="search-input" class="visually-hidden">
        Search issues
      </label>
      <Icon name="search" />
      <input
        ref={input}
        id="search-input"
        type="search"
        placeholder="Search issues  ( / )"
        autocomplete="off"
        spellcheck={false}
        value={text}
        onInput={(event) => {
          const next = event.currentTarget.value
          setText(next)
          window.clearTimeout(timer.current)
          timer.current = window.setTimeout(() => commit(next, 'typing'), 300)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && text) {
            event.stopPropagation()
            setText('')
            commit('', 'push')
          }
        }}
      />
      {!text && <kbd class="search-hint" aria-hidden="true">/</kbd>}
    </form>
  )
}
