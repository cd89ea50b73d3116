import { useEffect, useState } from 'preact/hooks'

/**
 * A counter every data hook depends on. Any write (status change, tag, upload…) bumps it, so every view
 * refetches what it shows — simpler and more reliable than patching caches by hand, and the API is fast.
 */
let epoch = 0
const listeners = new Set<(value: number) => void>()

export function invalidateData(): void {
  epoch += 1
  for (const listener of listeners) listener(epoch)
}

export function useDataEpoch(): number {
  const [value, setValue] = useState(epoch)
  useEffect(() => {
    listeners.add(setValue)
    return () => void listeners.delete(setValue)
  }, [])
  return value
}
