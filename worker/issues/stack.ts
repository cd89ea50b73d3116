/**
 * `skip_vendor`: drops stack lines that point into third-party code. The reference drops `/vendor/`
 * lines; Loupe also drops `/node_modules/` ones, matching the culprit-frame rule (reference §2.3 step 6).
 */
export function withoutVendorFrames(stack: string | null): string | null {
  if (stack === null) return null
  return stack
    .split('\n')
    .filter((line) => !line.includes('/vendor/') && !line.includes('/node_modules/'))
    .join('\n')
}
