import type { SqlValue, Statement } from '../../../drivers/driver.ts'
import type { AppScope } from '../../apps/app-scope.ts'

/**
 * `group_channels` (migration 0018) rows of some issues. A trigger adds a row for every pair inserted into
 * `group_sources`, so the writes that rebuild `group_sources` only clear the issues' rows first
 * (`clearChannelsStatement`, delete-occurrences.ts); a file whose channel changes leaves `group_sources` alone
 * and rebuilds its issues' rows from it (`rebuildChannelsStatements`, register-incoming.ts). `issues` is a
 * subquery naming the issues, with `args` for its placeholders; it must not read `group_channels` (MySQL
 * refuses a DELETE whose subquery reads the target table).
 */
export function clearChannelsStatement(scope: AppScope, issues: string, args: readonly SqlValue[]): Statement {
  return { sql: `DELETE FROM ${scope.t.groupChannels} WHERE group_id IN ${issues}`, args }
}

export function rebuildChannelsStatements(scope: AppScope, issues: string, args: readonly SqlValue[]): Statement[] {
  const { t } = scope
  return [
    clearChannelsStatement(scope, issues, args),
    {
      sql: `INSERT INTO ${t.groupChannels} (channel, group_id)
        SELECT DISTINCT s.channel, gs.group_id FROM ${t.groupSources} gs JOIN ${t.sourceFiles} s ON s.id = gs.source_file_id
        WHERE gs.group_id IN ${issues} AND s.channel IS NOT NULL`,
      args,
    },
  ]
}
