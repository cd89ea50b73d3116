import { readLocal, writeLocal } from './local-store.ts'

/**
 * Light/dark: "system" follows `prefers-color-scheme`; an explicit choice is stored and set as
 * `data-theme` on <html> (public/theme-init.js applies it before first paint).
 */
export type ThemePreference = 'system' | 'light' | 'dark'
const KEY = 'loupe.theme'

export function getThemePreference(): ThemePreference {
  const stored = readLocal(KEY)
  return stored === 'light' || stored === 'dark' ? stored : 'system'
}

export function setThemePreference(preference: ThemePreference): void {
  writeLocal(KEY, preference === 'system' ? null : preference)
  if (preference === 'system') document.documentElement.removeAttribute('data-theme')
  else document.documentElement.setAttribute('data-theme', preference)
  window.dispatchEvent(new Event('loupe-theme'))
}

/** The theme actually shown right now. */
export function effectiveTheme(): 'light' | 'dark' {
  const preference = getThemePreference()
  if (preference !== 'system') return preference
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}
