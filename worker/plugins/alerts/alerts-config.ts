import { booleanSetting, defineSection, integerSetting, type ConfigSection } from '../../config/config-section.ts'

const fields = {
  /**
   * Let channels post to http:// and to private, loopback and link-local addresses (design.md §6: for local
   * development and tests only; health warns while it is on).
   */
  allow_local_targets: booleanSetting(false),
  /** Per delivery attempt (reference §4.2: 10 s). */
  timeout_ms: integerSetting(100, 10_000, 10_000),
  /** The first retry of a 5xx or timed-out delivery waits this long, the second four times as long. */
  retry_backoff_ms: integerSetting(0, 10_000, 1000),
}

const base = defineSection('alerts', fields)
export type AlertsSettings = ReturnType<typeof base.read>

export const ALERTS_LOCAL_TARGETS_WARNING =
  'SERVICE_CONFIG alerts.allow_local_targets is on: alert channels may post to http:// and private addresses. Use it for local development and tests only.'

/** `SERVICE_CONFIG` `alerts.*`, with a health warning while local targets are allowed. */
export const ALERTS_SECTION: ConfigSection<AlertsSettings> = {
  ...base,
  read(lookup, warnings) {
    const settings = base.read(lookup, warnings)
    if (settings.allow_local_targets) warnings.push(ALERTS_LOCAL_TARGETS_WARNING)
    return settings
  },
}
