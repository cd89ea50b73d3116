import { booleanSetting, defineSection, integerSetting, urlSetting } from '../../config/config-section.ts'

/** `SERVICE_CONFIG` `ingest.*` (reference §4.3). */
export const INGEST_SECTION = defineSection('ingest', {
  /** The public address applications post to, when it is not this service's own `?api=ingest`. */
  url: urlSetting(),
  /** Events per application per window (a sliding window over fixed buckets). */
  rate_max_events: integerSetting(1, 10_000_000, 1000),
  rate_window_seconds: integerSetting(1, 86_400, 60),
  /** Events per client IP per window; 0 turns the per-IP cap off. */
  rate_max_events_per_ip: integerSetting(0, 10_000_000, 0),
  /** Take the client IP from the leftmost `X-Forwarded-For` instead of the connecting address. */
  trust_forwarded_for: booleanSetting(false),
})
