/**
 * localStorage that never throws: private windows and storage-disabled browsers raise on access, and the
 * dashboard must still work there (it just forgets the token and theme on reload).
 */
export function readLocal(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writeLocal(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, value)
  } catch {
    // Storage unavailable: the value lives only as long as the page.
  }
}
