/**
 * Synthetic Laravel logs for the bench: `events` events spread over `issues` distinct issues (distinct
 * normalised titles) and 30 days, ERROR and WARNING (the default allow-list), each with a short stack.
 * Times only move forward, as in a real log file (which is written as things happen).
 */
export function generateLaravelLog(options: { events: number; issues: number; offset?: number; seed?: number }): Uint8Array {
  const lines: string[] = []
  const start = Date.UTC(2026, 9, 1)
  const random = mulberry32(options.seed ?? 1)
  for (let i = 0; i < options.events; i++) {
    const issue = (options.offset ?? 0) + Math.floor(random() * options.issues)
    const time = new Date(start + Math.floor(((i + random()) / options.events) * 30 * 86_400_000)).toISOString().slice(0, 19).replace('T', ' ')
    const level = issue % 4 === 0 ? 'WARNING' : 'ERROR'
    lines.push(
      `[${time}] production.${level}: RuntimeException: Checkout failure in module ${letters(issue)} for order ${Math.floor(random() * 1e6)} {"userId":${i % 97}}`,
      '[stacktrace]',
      `#0 /app/vendor/laravel/framework/src/Illuminate/Pipeline/Pipeline.php(${100 + (issue % 50)}): handle()`,
      `#1 /app/app/Services/Checkout${letters(issue % 40)}.php(${10 + (issue % 90)}): process()`,
    )
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`)
}

/** A small seeded PRNG with 32-bit integer arithmetic (a plain LCG in doubles loses its low bits). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** 0 → "aaaa", 1 → "aaab", … (letters only: normalisation keeps them, so titles stay distinct). */
function letters(n: number): string {
  let out = ''
  for (let i = 0; i < 4; i++) {
    out = String.fromCharCode(97 + (n % 26)) + out
    n = Math.floor(n / 26)
  }
  return out
}
