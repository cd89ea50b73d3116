import { parseCron } from './cron.ts'

export interface LocalCronOptions {
  /** The worker's origin, e.g. http://127.0.0.1:8787. */
  readonly url: string
  readonly crons: readonly string[]
  readonly now?: () => Date
  readonly log?: (line: string) => void
}

/**
 * Fires the worker's scheduled handler on its cron schedule while `wrangler dev` runs, through the
 * `/cdn-cgi/handler/scheduled?cron=…` route that wrangler serves for manual triggers — so imports resumed by
 * cron, retention and schema upkeep behave locally as they do in production. Checks once per minute, on the
 * minute (UTC). Returns a stop function.
 */
export function startLocalCron(options: LocalCronOptions): () => void {
  const now = options.now ?? (() => new Date())
  const log = options.log ?? ((line) => console.log(line))
  const schedules = options.crons.map(parseCron)
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const tick = async () => {
    const at = now()
    for (const schedule of schedules) {
      if (!schedule.matches(at)) continue
      try {
        const response = await fetch(`${options.url}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(schedule.expression)}`)
        await response.arrayBuffer()
        log(`cron ${schedule.expression}: scheduled handler ${response.ok ? 'ran' : `failed (HTTP ${response.status})`}`)
      } catch (error) {
        log(`cron ${schedule.expression}: could not reach the worker (${(error as Error).message})`)
      }
    }
    schedule()
  }
  const schedule = () => {
    if (stopped) return
    const at = now().getTime()
    // The next whole minute, plus a little so the clock reads that minute when the timer fires.
    const wait = 60_000 - (at % 60_000) + 50
    timer = setTimeout(() => void tick(), wait)
  }
  schedule()
  return () => {
    stopped = true
    if (timer) clearTimeout(timer)
  }
}
