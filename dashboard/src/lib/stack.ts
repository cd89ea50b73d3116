import { isLibraryPath } from '../../../shared/library-path.ts'
/**
 * Splits a stack trace into runs of application and vendor frames, so the inspector can fold the vendor
 * runs (the culprit rule of reference §2.3 treats `/vendor/` and `/node_modules/` the same way).
 */
export interface StackSegment {
  readonly vendor: boolean
  readonly lines: string[]
}


export function splitStack(stack: string): StackSegment[] {
  const segments: StackSegment[] = []
  for (const line of stack.replace(/\r\n?/g, '\n').split('\n')) {
    const vendor = isLibraryPath(line)
    const last = segments[segments.length - 1]
    if (last && last.vendor === vendor) last.lines.push(line)
    else segments.push({ vendor, lines: [line] })
  }
  // A lone vendor line is not worth a fold: merge it into its neighbours' reading order as app text.
  return segments.map((segment) => (segment.vendor && segment.lines.length < 2 ? { vendor: false, lines: segment.lines } : segment))
}

/** Pretty-prints JSON context when it parses, else returns it unchanged. */
export function prettyJson(text: string | null | undefined): string {
  if (!text) return ''
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
