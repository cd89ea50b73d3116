import { useEffect, useState } from 'preact/hooks'

/** Short confirmations ("Status changed to Fixed") announced through an aria-live region. */
export interface Toast {
  readonly id: number
  readonly message: string
  readonly tone: 'success' | 'error'
}

let toasts: Toast[] = []
let nextId = 1
const listeners = new Set<(list: Toast[]) => void>()

function emit(): void {
  for (const listener of listeners) listener(toasts)
}

export function showToast(message: string, tone: Toast['tone'] = 'success'): void {
  const toast = { id: nextId++, message, tone }
  toasts = [...toasts.slice(-3), toast]
  emit()
  setTimeout(() => dismissToast(toast.id), tone === 'error' ? 8000 : 4000)
}

export function dismissToast(id: number): void {
  toasts = toasts.filter((toast) => toast.id !== id)
  emit()
}

export function useToasts(): Toast[] {
  const [list, setList] = useState(toasts)
  useEffect(() => {
    listeners.add(setList)
    return () => void listeners.delete(setList)
  }, [])
  return list
}
