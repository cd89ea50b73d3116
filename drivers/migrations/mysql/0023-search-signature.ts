import type { Migration } from '../migration.ts'
import { TABLE_OPTIONS } from './0001-issues.ts'
import { ddlSkippedWhen } from './0012-read-indexes.ts'

const WORDS = [0, 1, 2, 3, 4]
const TEXT = ['title', 'sample_message', 'exception_class', 'source_frame']

/**
 * Migration 0023 (application), MySQL 8 / MariaDB: the trigram signatures SQLite gained in migration 0021
 * (worker/issues/search-signature.ts), so `q` scans these narrow rows and tests only the issues they admit
 * instead of lowering every issue's text (issue 18: `q` grew 4.8× from the small corpus to `--scale` on
 * PlanetScale, where no trigram index exists; docs/performance.md "Tenth pass").
 *
 * 0021 left MySQL out because its `lower()` folds Unicode. A signature is sound wherever `lower()` maps each
 * character to ONE character, and to an ASCII one only from ASCII, KELVIN SIGN or I WITH DOT ABOVE — what
 * `fold` assumes. The suite asserts this of the engine over every code point, under the columns' collation and
 * the connection's (test/worker/issues/search-signature.test.ts).
 *
 * Where a writer stores it. On SQLite a writer adds an UPDATE of `search_signatures` to its batch; here each
 * statement is a PlanetScale request, and an import batch already takes the ten design.md allows. So the issue
 * row carries the signature (`signature_w0` … `signature_w4`, dialect `searchSignature: 'issue-columns'`),
 * written by the same statement as the text — the import's sample upsert, a manual issue's INSERT — and
 * triggers keep the narrow `search_signatures` rows that `q` scans:
 * - AFTER INSERT: the row's columns are copied (-1, "unknown", which admits every needle, when its writer
 *   wrote none);
 * - AFTER UPDATE: new signature columns are copied — only a signing writer changes them, always with the text
 *   they were computed from; new searched text with the columns as they were (a writer that does not know
 *   them: a merge, a tracker mirror) makes the copy unknown, while the row keeps the last signature written.
 * Writers that store a signature by itself (the backfill, a tracker mirror) update `search_signatures`
 * directly, as on SQLite. A deleted issue takes its row along by the foreign key. Two row triggers, none
 * BEFORE UPDATE: every import batch updates its issues' counts, and each trigger costs per row.
 *
 * The columns come in ONE `ALTER TABLE`, only while missing (MySQL has no `ADD COLUMN IF NOT EXISTS`); every
 * other step is idempotent. The triggers write only `search_signatures`, which no statement that writes
 * `error_groups` reads (MySQL error 1442). Like those of 0016–0019 they need an engine that runs triggers
 * (docs/deviations.md: hosted PlanetScale).
 */
export const application0023: Migration = {
  version: 23,
  name: 'mysql-search-signature',
  statements: (p) => {
    const S = `\`${p}search_signatures\``
    const G = `\`${p}error_groups\``
    const words = WORDS.map((word) => `w${word}`).join(', ')
    const copied = WORDS.map((word) => `NEW.signature_w${word}`).join(', ')
    const textChanged = TEXT.map((column) => `NOT (NEW.${column} <=> OLD.${column})`).join(' OR ')
    const signatureKept = WORDS.map((word) => `NEW.signature_w${word} = OLD.signature_w${word}`).join(' AND ')
    const present = `(SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${p}error_groups' AND COLUMN_NAME = 'signature_w0') > 0`
    return [
      ...ddlSkippedWhen(present, `ALTER TABLE ${G} ${WORDS.map((word) => `ADD COLUMN signature_w${word} BIGINT NOT NULL DEFAULT -1`).join(', ')}`),
      `CREATE TABLE IF NOT EXISTS ${S} (
        id BIGINT NOT NULL PRIMARY KEY,
        ${WORDS.map((word) => `w${word} BIGINT NOT NULL`).join(', ')},
        FOREIGN KEY (id) REFERENCES ${G} (id) ON DELETE CASCADE
      ) ${TABLE_OPTIONS}`,
      `CREATE TRIGGER IF NOT EXISTS \`${p}search_signature_new\` AFTER INSERT ON ${G} FOR EACH ROW
        INSERT INTO ${S} (id, ${words}) VALUES (NEW.id, ${copied})
          ON DUPLICATE KEY UPDATE ${WORDS.map((word) => `w${word} = NEW.signature_w${word}`).join(', ')}`,
      `CREATE TRIGGER IF NOT EXISTS \`${p}search_signature_copied\` AFTER UPDATE ON ${G} FOR EACH ROW
        IF NOT (${signatureKept}) THEN
          UPDATE ${S} SET ${WORDS.map((word) => `w${word} = NEW.signature_w${word}`).join(', ')} WHERE id = NEW.id;
        ELSEIF ${textChanged} THEN
          UPDATE ${S} SET ${WORDS.map((word) => `w${word} = -1`).join(', ')} WHERE id = NEW.id;
        END IF`,
      // After the triggers: an issue inserted meanwhile has its row already, and IGNORE keeps it.
      `INSERT IGNORE INTO ${S} (id, ${words}) SELECT id, ${WORDS.map((word) => `signature_w${word}`).join(', ')} FROM ${G}`,
    ]
  },
}
