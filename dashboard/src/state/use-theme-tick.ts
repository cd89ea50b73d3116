import { useEffect, useState } from 'preact/hooks'

/**
 * A number that changes whenever the shown theme may have changed — the user's choice (the `loupe-theme`
 * event of theme.ts) or the system's `prefers-color-scheme`. Charts read their colours from CSS variables
 * once, when drawn, so they list it among their effect's dependencies to be drawn again.
 */
export function useThemeTick(): number {
  const [tick, setTick] = useState(0)
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)')
    const bump = () => setTick((value) => value + 1)
    media.addEventListener('change', bump)
    window.addEventListener('loupe-theme', bump)
    return () => {
      media.removeEventListener('change', bump)
      window.removeEventListener('loupe-theme', bump)
    }
  }, [])
  return tick
}
