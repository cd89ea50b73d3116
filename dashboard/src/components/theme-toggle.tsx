import { useState } from 'preact/hooks'
import { getThemePreference, setThemePreference, type ThemePreference } from '../state/theme.ts'
import { Icon } from './icon.tsx'

const NEXT: Record<ThemePreference, ThemePreference> = { system: 'light', light: 'dark', dark: 'system' }
const ICON: Record<ThemePreference, string> = { system: 'monitor', light: 'sun', dark: 'moon' }

/** Cycles system → light → dark; the choice is stored in this browser (state/theme.ts). */
export function ThemeToggle() {
  const [preference, setPreference] = useState(getThemePreference())
  const label = `Theme: ${preference} (switch to ${NEXT[preference]})`
  return (
    <button
      type="button"
      class="icon-button"
      aria-label={label}
      title={label}
      data-theme-preference={preference}
      onClick={() => {
        const next = NEXT[preference]
        setThemePreference(next)
        setPreference(next)
      }}
    >
      <Icon name={ICON[preference]} />
    </button>
  )
}
