import type { Migration } from '../migration.ts'

/**
 * Migration 0018 (application): `group_channels`, one row per (channel, issue) for every issue that occurred in
 * a file of that channel — `group_sources` folded by the files' `channel`. A `source=` value names a channel
 * (or a path substring), and a channel is a file's base name, so the same log sent from several servers or
 * module folders (`web1/laravel.log`, `web2/laravel.log`, …) is one channel of many files. Counting the
 * distinct issues over their `group_sources` ranges, or probing each issue, grew with the pairs (20 files,
 * 100,000 issues: 130–153 ms in-process). When the files a value names are exactly one channel's, the total
 * is this table's range instead (5 ms; worker/issues/issue-total.ts, docs/performance.md "Day rows, channel
 * rows and probing pages").
 *
 * Kept in step with `group_sources` by a trigger on its inserts — the digest, merges and a deletion's rebuild
 * all add pairs there, and a trigger adds no statement to a PlanetScale batch, whose design.md §5 budget (10
 * requests per 1,000 events) the digest already spends — plus two explicit statements: a deletion clears its
 * issues' rows before rebuilding their `group_sources` (delete-occurrences.ts), and a file whose channel
 * changes rebuilds its issues' rows (register-incoming.ts). Files without a channel have no rows. The key leads
 * with the channel (the count's range); the (group_id) index serves the cascade from a deleted issue and the
 * rebuilds.
 */
export const application0018: Migration = {
  version: 18,
  name: 'group-channels',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}group_channels" (
      channel TEXT NOT NULL,
      group_id INTEGER NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      PRIMARY KEY (channel, group_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS "${p}group_channels_group" ON "${p}group_channels" (group_id)`,
    `CREATE TRIGGER IF NOT EXISTS "${p}group_sources_channel" AFTER INSERT ON "${p}group_sources" BEGIN
      INSERT OR IGNORE INTO "${p}group_channels" (channel, group_id)
        SELECT s.channel, new.group_id FROM "${p}source_files" s WHERE s.id = new.source_file_id AND s.channel IS NOT NULL;
    END`,
    `INSERT OR IGNORE INTO "${p}group_channels" (channel, group_id)
      SELECT DISTINCT s.channel, gs.group_id FROM "${p}group_sources" gs JOIN "${p}source_files" s ON s.id = gs.source_file_id WHERE s.channel IS NOT NULL`,
  ],
}
