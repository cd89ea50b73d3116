import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'

/**
 * Migration 0018 (application), MySQL 8 / MariaDB spelling of the SQLite migration of the same number. The
 * channel keeps `source_files.channel`'s type and the table's collation, so a channel compares alike in both
 * tables; the foreign key's index is the (group_id) one. MySQL fires no trigger for a cascaded delete, which
 * is why deletions clear `group_channels` with their own statement (delete-occurrences.ts).
 */
export const application0018: Migration = {
  version: 18,
  name: 'group-channels',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS \`${p}group_channels\` (
      channel VARCHAR(255) NOT NULL,
      group_id BIGINT NOT NULL,
      PRIMARY KEY (channel, group_id),
      KEY \`${p}group_channels_group\` (group_id),
      FOREIGN KEY (group_id) REFERENCES \`${p}error_groups\` (id) ON DELETE CASCADE
    ) ${TABLE_OPTIONS}`,
    `CREATE TRIGGER IF NOT EXISTS \`${p}group_sources_channel\` AFTER INSERT ON \`${p}group_sources\` FOR EACH ROW
      INSERT IGNORE INTO \`${p}group_channels\` (channel, group_id)
        SELECT s.channel, NEW.group_id FROM \`${p}source_files\` s WHERE s.id = NEW.source_file_id AND s.channel IS NOT NULL`,
    `INSERT IGNORE INTO \`${p}group_channels\` (channel, group_id)
      SELECT DISTINCT s.channel, gs.group_id FROM \`${p}group_sources\` gs JOIN \`${p}source_files\` s ON s.id = gs.source_file_id WHERE s.channel IS NOT NULL`,
  ],
}
