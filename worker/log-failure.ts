/**
 * The one server-side failure log line: `loupe: <what failed>: Name[code]: message <- cause <- cause`, the
 * `cause` chain followed four deep (a driver error names the client's error it wraps). Details go here and
 * never into responses (design.md §4).
 */
export function logFailure(what: string, error: unknown): void {
  console.error(`loupe: ${what}: ${describeFailure(error)}`)
}

/** `Name[code]: message <- cause …` of an error and its causes. */
export function describeFailure(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof Error) {
      const code = 'code' in current ? current.code : undefined
      parts.push(`${current.name}${code ? `[${String(code)}]` : ''}: ${current.message}`)
      current = current.cause
    } else {
      parts.push(String(current))
      break
    }
  }
  return parts.join(' <- ')
}
