import { booleanSetting, defineSection, integerSetting, type ConfigSection } from '../config/config-section.ts'

const MiB = 1024 * 1024

const fields = {
  /**
   * Let connectors fetch http:// URLs and private, loopback and link-local addresses (design.md §6: for local
   * development and tests only; health warns while it is on).
   */
  allow_local_targets: booleanSetting(false),
  /** Deadline of one request to a remote source. */
  timeout_ms: integerSetting(100, 60_000, 15_000),
  /** Size of one ranged fetch (reference §6: the missing tail is fetched in 8 MiB chunks). */
  chunk_bytes: integerSetting(1024, 64 * MiB, 8 * MiB),
}

const base = defineSection('connectors', fields)
export type ConnectorsSettings = ReturnType<typeof base.read>

export const CONNECTORS_LOCAL_TARGETS_WARNING =
  'SERVICE_CONFIG connectors.allow_local_targets is on: connectors may fetch http:// URLs and private addresses. Use it for local development and tests only.'

/** `SERVICE_CONFIG` `connectors.*` (docs/connectors.md), with a health warning while local targets are allowed. */
export const CONNECTORS_SECTION: ConfigSection<ConnectorsSettings> = {
  ...base,
  read(lookup, warnings) {
    const settings = base.read(lookup, warnings)
    if (settings.allow_local_targets) warnings.push(CONNECTORS_LOCAL_TARGETS_WARNING)
    return settings
  },
}
