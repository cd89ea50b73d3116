import { coerce, define, type, unknown, type Infer, type Struct } from 'superstruct'

/** Release tracking (reference §4.4, issue 14): request bodies, limits, messages, and what the endpoints answer. */
export const RELEASE_LIMITS = {
  version: 120,
  environment: 120,
  ref: 200,
  notes: 2000,
  template: 500,
  defaultRef: 120,
  file: 300,
  /** Reference §4.4: a source map of at most 16 MiB. */
  mapBytes: 16 * 1024 * 1024,
  deploysMax: 200,
  deploysDefault: 50,
  daysMax: 3650,
  daysDefault: 30,
} as const

export const RELEASE_MESSAGES = {
  version: `version must be 1–${RELEASE_LIMITS.version} characters.`,
  environment: `environment must be 1–${RELEASE_LIMITS.environment} characters.`,
  ref: `ref must be at most ${RELEASE_LIMITS.ref} characters.`,
  notes: `notes must be at most ${RELEASE_LIMITS.notes} characters.`,
  deployedAt: 'deployed_at must be a date and time.',
  duplicate: (version: string, environment: string) => `Release ${version} already exists for ${environment}.`,
  deployId: 'A valid deploy id is required.',
  deployNotFound: 'Release not found.',
  template: `repo_url_template must be an http(s) URL of at most ${RELEASE_LIMITS.template} characters.`,
  defaultRef: `default_ref must be at most ${RELEASE_LIMITS.defaultRef} characters.`,
  issueId: 'A valid issue id is required.',
  issueNotFound: 'Issue not found.',
  mapRelease: `release must be 1–${RELEASE_LIMITS.version} characters.`,
  mapFile: `file (or url) must name a file of at most ${RELEASE_LIMITS.file} characters.`,
  mapRequired: 'map (or content) is required: a source map as a string or JSON object.',
  mapInvalid: 'The source map must be JSON containing "mappings".',
  mapTooLarge: 'The source map is larger than 16 MiB.',
  mapId: 'A valid source map id is required.',
  mapNotFound: 'Source map not found.',
} as const

const absent = (value: unknown) => value === undefined || value === null

function optionalTrimmed(max: number, message: string, min = 0): Struct<string | undefined, null> {
  return coerce(
    define<string | undefined>('text', (value) => value === undefined || (typeof value === 'string' && value.length >= min && value.length <= max) || message),
    unknown(),
    (value) => (value === null ? undefined : typeof value === 'string' ? value.trim() : value),
  )
}

/** Body of `POST ?api=deploys` (reference §4.4). `deployed_at` is checked by the domain (any parseable time). */
export const DeployInputSchema = type({
  version: coerce(
    define<string>('version', (value) => (typeof value === 'string' && value.length >= 1 && value.length <= RELEASE_LIMITS.version) || RELEASE_MESSAGES.version),
    unknown(),
    (value) => (typeof value === 'string' ? value.trim() : value),
  ),
  environment: optionalTrimmed(RELEASE_LIMITS.environment, RELEASE_MESSAGES.environment, 1),
  ref: optionalTrimmed(RELEASE_LIMITS.ref, RELEASE_MESSAGES.ref),
  notes: optionalTrimmed(RELEASE_LIMITS.notes, RELEASE_MESSAGES.notes),
  deployed_at: define<string | number | undefined>('deployed_at', (value) => absent(value) || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || RELEASE_MESSAGES.deployedAt),
})
export type DeployInput = Infer<typeof DeployInputSchema>

/** Body of `PUT|POST|PATCH ?api=release-settings`; an absent field keeps its value, an empty one clears it. */
export const ReleaseSettingsInputSchema = type({
  repo_url_template: coerce(
    define<string | undefined>(
      'template',
      (value) => value === undefined || (typeof value === 'string' && value.length <= RELEASE_LIMITS.template && (value === '' || /^https?:\/\/[^\s/]+/i.test(value))) || RELEASE_MESSAGES.template,
    ),
    unknown(),
    (value) => (value === null ? '' : typeof value === 'string' ? value.trim() : value),
  ),
  default_ref: coerce(
    define<string | undefined>('default_ref', (value) => value === undefined || (typeof value === 'string' && value.length <= RELEASE_LIMITS.defaultRef) || RELEASE_MESSAGES.defaultRef),
    unknown(),
    (value) => (value === null ? '' : typeof value === 'string' ? value.trim() : value),
  ),
})
export type ReleaseSettingsInput = Infer<typeof ReleaseSettingsInputSchema>

/** A recorded deploy as `deploys` lists it. */
export interface Deploy {
  readonly id: number
  readonly version: string
  readonly environment: string
  readonly ref: string | null
  readonly notes: string | null
  readonly deployed_at: string
  readonly created_at: string
}

export interface DeployRow extends Deploy {
  /** Distinct issues with an occurrence naming this version (reference §4.4). */
  readonly issue_count: number
}

/** A chart marker: a deploy within the window, with its day. */
export interface DeployMarker {
  readonly version: string
  readonly environment: string
  readonly ref: string | null
  readonly deployed_at: string
  readonly day: string
}

export interface ReleaseSettings {
  readonly repo_url_template: string
  readonly default_ref: string
  readonly configured: boolean
}

/** A version events named (registered by the digest), with its issues and maps. */
export interface ReleaseSummary {
  readonly version: string
  /** When events first and last named it; null for a version only deployed or given maps. */
  readonly first_seen: string | null
  readonly last_seen: string | null
  readonly issue_count: number
  readonly new_issues: number
  readonly regressed_issues: number
  readonly source_maps: number
  readonly deploys: number
  /** The latest deploy of the version, if any. */
  readonly deployed_at: string | null
}

export interface IssueRelease {
  readonly release: string
  readonly occurrences: number
  readonly first_seen: string
  readonly last_seen: string
}

export interface IssueReleases {
  readonly releases: readonly IssueRelease[]
  readonly first_release: string | null
  readonly last_release: string | null
  /** Loupe's addition: the release the issue was first seen in and the one it regressed (reoccurred) in. */
  readonly introduced_in: string | null
  readonly regressed_in: string | null
  readonly source_link: string | null
}

export interface SourceMapRow {
  readonly id: number
  readonly release: string
  readonly file: string
  readonly size: number
  readonly created_at: string
}
