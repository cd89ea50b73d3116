import { isLibraryPath } from '../../shared/library-path.ts'

/**
 * `skip_vendor`: drops stack lines that point into third-party code. The reference drops `/vendor/`
 * lines; Loupe drops every line the culprit-frame rule counts as library code (reference §2.3 step 6),
 * Windows paths included.
 */
export function withoutVendorFrames(stack: string | null): string | null {
  if (stack === null) return null
  return stack
    .split('\n')
    .filter((line) => !isLibraryPath(line))
    .join('\n')
}
