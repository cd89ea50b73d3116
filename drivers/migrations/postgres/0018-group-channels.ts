import type { Migration } from '../migration.ts'

/**
 * Migration 0018 (application), PostgreSQL spelling of the SQLite migration of the same number. The trigger is
 * per statement, over the inserted rows as a transition table: one INSERT per digest batch, not one per pair.
 */
export const application0018: Migration = {
  version: 18,
  name: 'group-channels',
  statements: (p) => [
    `CREATE TABLE IF NOT EXISTS "${p}group_channels" (
      channel TEXT NOT NULL,
      group_id BIGINT NOT NULL REFERENCES "${p}error_groups" (id) ON DELETE CASCADE,
      PRIMARY KEY (channel, group_id)
    )`,
    `CREATE INDEX IF NOT EXISTS "${p}group_channels_group" ON "${p}group_channels" (group_id)`,
    `CREATE OR REPLACE FUNCTION "${p}group_sources_channel"() RETURNS trigger LANGUAGE plpgsql AS $loupe$
      BEGIN
        INSERT INTO "${p}group_channels" (channel, group_id)
          SELECT DISTINCT s.channel, n.group_id FROM inserted n JOIN "${p}source_files" s ON s.id = n.source_file_id WHERE s.channel IS NOT NULL
          ON CONFLICT DO NOTHING;
        RETURN NULL;
      END
      $loupe$`,
    `DROP TRIGGER IF EXISTS "${p}group_sources_channel" ON "${p}group_sources"`,
    `CREATE TRIGGER "${p}group_sources_channel" AFTER INSERT ON "${p}group_sources" REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION "${p}group_sources_channel"()`,
    `INSERT INTO "${p}group_channels" (channel, group_id)
      SELECT DISTINCT s.channel, gs.group_id FROM "${p}group_sources" gs JOIN "${p}source_files" s ON s.id = gs.source_file_id WHERE s.channel IS NOT NULL
      ON CONFLICT DO NOTHING`,
  ],
}
