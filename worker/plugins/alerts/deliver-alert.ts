import type { AlertChannelType, AlertPayload } from '../../../shared/schemas/alerts.ts'
import { AppError } from '../../errors.ts'
import { channelBody } from './alert-message.ts'
import type { AlertsSettings } from './alerts-config.ts'
import { checkChannelTarget } from './channel-target.ts'

export interface Delivery {
  readonly ok: boolean
  /** `HTTP 204`, `HTTP 503`, `timed out after 10 s`, `refused: …` — never the URL (it is a secret). */
  readonly detail: string
  readonly attempts: number
}

/** Attempts per delivery: the first and two retries, for 5xx answers and timeouts only. */
const ATTEMPTS = 3

/**
 * Posts one alert (reference §4.2): a 2xx answer is delivered, anything else is `HTTP <status>`. Each attempt
 * has the configured timeout (10 s); a 5xx or a timeout is retried after `retry_backoff_ms`, then four times
 * that; a 4xx is final. The target is checked again first (settings may have changed since the channel was
 * saved), and redirects are never followed (a 3xx is a failure) so a public URL cannot bounce the request
 * into a private network (design.md §6).
 */
export async function deliverAlert(type: AlertChannelType, url: string, payload: AlertPayload, settings: AlertsSettings, sleep = wait): Promise<Delivery> {
  try {
    checkChannelTarget(url, settings.allow_local_targets)
  } catch (error) {
    return { ok: false, detail: `refused: ${error instanceof AppError ? error.message : 'invalid URL'}`, attempts: 0 }
  }
  const body = channelBody(type, payload)
  let detail = ''
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    if (attempt > 1) await sleep(settings.retry_backoff_ms * 4 ** (attempt - 2))
    let retryable: boolean
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Loupe-Alerts/1' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(settings.timeout_ms),
      })
      await response.body?.cancel()
      if (response.status >= 200 && response.status < 300) return { ok: true, detail: `HTTP ${response.status}`, attempts: attempt }
      detail = `HTTP ${response.status}`
      retryable = response.status >= 500
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
      detail = timedOut ? `timed out after ${settings.timeout_ms / 1000} s` : 'connection failed'
      retryable = true
    }
    if (!retryable) return { ok: false, detail, attempts: attempt }
  }
  return { ok: false, detail: `${detail} (${ATTEMPTS} attempts)`, attempts: ATTEMPTS }
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
