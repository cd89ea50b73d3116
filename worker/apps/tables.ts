import type { Dialect } from '../../drivers/index.ts'

/** Quoted, namespaced names of one application's tables, ready to splice into SQL. */
export interface Tables {
  readonly modules: string
  readonly sourceFiles: string
  readonly groups: string
  readonly occurrences: string
  /** Occurrences per issue per day (derived from occurrences). */
  readonly groupDays: string
  /** Which source files an issue has occurrences in (derived from occurrences). */
  readonly groupSources: string
  /** Which channels an issue has occurrences in: `groupSources` folded by the files' channel (migration 0018). */
  readonly groupChannels: string
  /** Each issue's trigram signature of its searched text (SQLite 0021, MySQL 0023; search-signature.ts). */
  readonly searchSignatures: string
  /** Each issue's searched text, lowered, under a trigram index (PostgreSQL only, migration 0022). */
  readonly searchText: string
  /** Occurrences per day and severity, folded in by occurrence id (migration 0004, `daily-counts.ts`). */
  readonly dailyCounts: string
  /** How far each id-folded rollup has read (`daily_counts`: the last occurrence id folded in). */
  readonly rollups: string
  readonly history: string
  readonly tags: string
  readonly tagRules: string
  readonly groupTags: string
  readonly settings: string
  /** Import state per archived file: checkpoint, identity, maintained occurrence count (migration 0002). */
  readonly fileImports: string
  /** Background import jobs and their progress (migration 0002). */
  readonly importJobs: string
  /** Scratch rows naming the issues and files one deletion batch touched (migration 0002). */
  readonly affectedRefs: string
  /** SHA-256 of each archived file's content: the same bytes under another name are already imported (migration 0005). */
  readonly fileContents: string
  /** Files and objects whose import threw, with attempts; set aside after `ingestion.max_file_attempts` (migration 0005). */
  readonly importFailures: string
  /** Events accepted by HTTP or Sentry ingest, waiting for (or kept a day after) the digest (migration 0006). */
  readonly ingestEvents: string
  /** Sliding-window rate counters of ingest, per application and per client IP (migration 0006). */
  readonly ingestRate: string
  /** Alerting (migration 0007): channels (sealed URLs), rules, and the alerts each scan produced. */
  readonly alertChannels: string
  readonly alertRules: string
  readonly alertEvents: string
  /** Issue-tracker integration (migration 0010): the tracker issue each Loupe issue is tied to. */
  readonly trackerLinks: string
  /** Every access-log line counted per file, day, status class, method, path or agent (migration 0009, `access-rollup.ts`). */
  readonly accessRollup: string
  /** Occurrences per issue, key and value, capped with `(other)` (migration 0014, `issue-value-rollup.ts`). */
  readonly issueValues: string
  /** Release tracking (migration 0008): recorded deploys, versions events named, source-map metadata, each issue's first and regressed release. */
  readonly deploys: string
  readonly releases: string
  readonly sourceMaps: string
  readonly groupReleases: string
  readonly releaseGroups: string
  /** Connectors (migration 0011): remote sources, the remote files each mirrors, and their synchronization runs. */
  readonly connectors: string
  readonly sourceStreams: string
  readonly connectorRuns: string
  /** Merged issues (migration 0015): each merged fingerprint and the fingerprint of the issue it groups into now. */
  readonly issueAliases: string
  /** Issues and occurrences per module, severity, status and log type, kept by triggers (migration 0016). */
  readonly issueRollup: string
}

const cache = new Map<string, Tables>()

/**
 * Table-name prefix of an application: `app1_`, `app2_`, … for namespaces in the default database; none in
 * an application's own database (`APP_DATABASES`), which holds that application alone.
 */
export function tablePrefix(namespace: number, dedicated = false): string {
  return dedicated ? '' : `app${namespace}_`
}

export function tablesFor(prefix: string, dialect: Dialect): Tables {
  const key = `${dialect.name}:${prefix}`
  let tables = cache.get(key)
  if (!tables) {
    const q = (name: string) => dialect.quote(`${prefix}${name}`)
    tables = {
      modules: q('modules'),
      sourceFiles: q('source_files'),
      groups: q('error_groups'),
      occurrences: q('occurrences'),
      groupDays: q('group_days'),
      groupSources: q('group_sources'),
      groupChannels: q('group_channels'),
      searchSignatures: q('search_signatures'),
      searchText: q('search_text'),
      dailyCounts: q('daily_counts'),
      rollups: q('rollups'),
      history: q('issue_status_history'),
      tags: q('tags'),
      tagRules: q('tag_rules'),
      groupTags: q('error_group_tags'),
      settings: q('app_settings'),
      fileImports: q('file_imports'),
      importJobs: q('import_jobs'),
      affectedRefs: q('affected_refs'),
      fileContents: q('file_contents'),
      importFailures: q('import_failures'),
      ingestEvents: q('ingest_events'),
      ingestRate: q('ingest_rate'),
      alertChannels: q('alert_channels'),
      alertRules: q('alert_rules'),
      alertEvents: q('alert_events'),
      trackerLinks: q('tracker_links'),
      accessRollup: q('access_rollup'),
      issueValues: q('issue_values'),
      deploys: q('deploys'),
      releases: q('releases'),
      sourceMaps: q('source_maps'),
      groupReleases: q('group_releases'),
      releaseGroups: q('release_groups'),
      connectors: q('connectors'),
      sourceStreams: q('source_streams'),
      connectorRuns: q('connector_runs'),
      issueAliases: q('issue_aliases'),
      issueRollup: q('issue_rollup'),
    }
    cache.set(key, tables)
  }
  return tables
}
