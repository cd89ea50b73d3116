import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wrapDriver } from '../../../drivers/wrap-driver.ts'
import { LOCAL_ACTOR } from '../../../worker/actor.ts'
import { parseLog } from '../../../worker/digest/parse-log.ts'
import { toEventRecords } from '../../../worker/digest/persist/event-record.ts'
import { persistEvents } from '../../../worker/digest/persist/persist-events.ts'
import { createManualIssue } from '../../../worker/issues/create-issue.ts'
import { backfillSearchSignatures } from '../../../worker/issues/search-signature-backfill.ts'
import { ISSUE_SIGNATURE_COLUMNS, needleMask, SIGNATURE_COLUMNS, textSignature, type SearchedText } from '../../../worker/issues/search-signature.ts'
import { mirrorStatements } from '../../../worker/plugins/tracker/tracker-mirror.ts'
import { TARGETS } from '../../drivers/driver-targets.ts'
import { migratedScope, type MigratedScope } from '../digest/persist/migrated-scope.ts'
import { recordedSearch } from './recorded-search.ts'

const HALF = 2 ** 26
/** Whether a stored signature holds every bit of a mask (the SQL's `(~word & mask) = 0`), in exact 26-bit halves. */
function holds(signature: readonly number[], mask: readonly number[]): boolean {
  return mask.every((word, index) => {
    const stored = signature[index]!
    if (stored === -1) return true
    const high = (value: number) => Math.floor(value / HALF)
    return (high(word) & ~high(stored)) === 0 && (word % HALF & ~(stored % HALF)) === 0
  })
}

/** A small deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let value = Math.imul(state ^ (state >>> 15), 1 | state)
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}

// ASCII of both cases, digits, punctuation, the two characters whose Unicode lower case is ASCII, accented
// letters, a CJK character and an astral one (a surrogate pair).
const ALPHABET = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .:/\\_-()[]{}\'"', '\u212a', '\u0130', 'é', 'É', 'ß', '中', '😀']

function randomText(next: () => number, length: number): string {
  let text = ''
  for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)]
  return text
}

/** `text` with its ASCII letters' case flipped at random: what SQLite's `lower()` makes equal. */
function recase(next: () => number, text: string): string {
  return [...text].map((c) => (/[a-z]/i.test(c) && next() < 0.5 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('')
}

describe('search signature', () => {
  it('every needle found in a column of the text (ASCII case aside) has its mask in the text\'s signature', () => {
    const next = random(18)
    for (let round = 0; round < 3000; round++) {
      const columns = [randomText(next, 1 + Math.floor(next() * 300)), randomText(next, Math.floor(next() * 60)), randomText(next, Math.floor(next() * 20))]
      const text: SearchedText = { title: columns[0]!, message: columns[1]!, exceptionClass: null, sourceFrame: columns[2]! }
      const signature = textSignature(text)
      const column = [...columns[Math.floor(next() * 3)]!]
      const start = Math.floor(next() * column.length)
      const needle = recase(next, column.slice(start, start + 3 + Math.floor(next() * 30)).join(''))
      const mask = needleMask(needle)
      if (mask === null) expect([...needle].length).toBeLessThan(3)
      else expect(holds(signature, mask), JSON.stringify({ text, needle })).toBe(true)
    }
  })

  it('folds ASCII case, KELVIN SIGN and I WITH DOT ABOVE to their letters; a needle under three characters has no mask', () => {
    expect(needleMask('DeadLock')).toEqual(needleMask('deadlock'))
    expect(needleMask('\u212aelvin')).toEqual(needleMask('kelvin'))
    expect(needleMask('\u0130d')).toEqual(needleMask('id'))
    // Every other non-ASCII character is one class: equal under any lower().
    expect(needleMask('aÉb')).toEqual(needleMask('aéb'))
    expect(needleMask('a😀b')).toEqual(needleMask('a中b'))
    expect(needleMask('ab')).toBeNull()
    expect(needleMask('a😀')).toBeNull()
    expect(needleMask('abc')).not.toBeNull()
    // No trigram spans two columns.
    expect(holds(textSignature({ title: 'dead', message: 'lock', exceptionClass: null, sourceFrame: null }), needleMask('deadlock')!)).toBe(false)
  })

  it('words stay below 2^52: exact as JavaScript numbers and as SQLite integers', () => {
    const next = random(7)
    for (let round = 0; round < 200; round++) {
      const words = textSignature({ title: randomText(next, 2000), message: null, exceptionClass: null, sourceFrame: null })
      expect(words).toHaveLength(SIGNATURE_COLUMNS.length)
      for (const word of words) expect(Number.isSafeInteger(word) && word >= 0 && word < 2 ** 52).toBe(true)
    }
  })

  it('admits few texts that do not hold the needle: 2,000 log messages, a word none of them holds', () => {
    const next = random(3)
    const words = ['order', 'payment', 'failed', 'timeout', 'user', 'request', 'id', 'cache', 'queue', 'retry', 'connection', 'refused', 'GET', '/api/v1/orders', 'Exception', 'at', 'line']
    let admitted = 0
    for (let i = 0; i < 2000; i++) {
      let message = ''
      while (message.length < 200) message += `${words[Math.floor(next() * words.length)]} ${Math.floor(next() * 100000)} `
      const signature = textSignature({ title: message.slice(0, 80), message, exceptionClass: 'App\\Exceptions\\OrderException', sourceFrame: 'app/Services/OrderService.php:42' })
      if (holds(signature, needleMask('deadlock')!)) admitted++
    }
    expect(admitted).toBeLessThan(100)
  })
})

/** The engines whose schema keeps signatures: SQLite (migration 0021) and MySQL (0023); PostgreSQL keeps a search text. */
const signatureTargets = TARGETS.filter((target) => target !== 'neon')

describe.each(signatureTargets)('search signatures on %s (migrations 0021, 0023)', { timeout: 60_000 }, (target) => {
  const mysql = target === 'planetscale'
  let m: MigratedScope
  let fileId: number
  const now = '2026-10-01 00:00:00'
  const stored = async (where: string, args: (string | number)[] = []) => {
    const { t } = m.scope
    const rows = await m.rows<Record<string, unknown>>(
      `SELECT g.title, g.sample_message, g.exception_class, g.source_frame, ${SIGNATURE_COLUMNS.map((column) => `ss.${column}`).join(', ')}
        FROM ${t.groups} g JOIN ${t.searchSignatures} ss ON ss.id = g.id WHERE ${where} ORDER BY g.id`,
      args,
    )
    return rows.map((row) => ({
      text: { title: row.title as string | null, message: row.sample_message as string | null, exceptionClass: row.exception_class as string | null, sourceFrame: row.source_frame as string | null },
      words: SIGNATURE_COLUMNS.map((column) => Number(row[column])),
    }))
  }
  const setWords = (fingerprint: string, words: readonly number[]) =>
    m.scope.db.execute({
      sql: `UPDATE ${m.scope.t.searchSignatures} SET ${SIGNATURE_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE id = (SELECT id FROM ${m.scope.t.groups} WHERE fingerprint = ?)`,
      args: [...words, fingerprint],
    })
  const UNKNOWN = [-1, -1, -1, -1, -1]
  const found = async (q: string) => (await recordedSearch(m, { q }, 'newest')).page.items.map((item) => item.title)

  beforeAll(async () => {
    m = await migratedScope(target, 'sig')
    const { t } = m.scope
    await m.scope.db.batch([
      { sql: `INSERT INTO ${t.sourceFiles} (path, size, created_at) VALUES ('processed/x/laravel.log', 0, ?)`, args: [now] },
      { sql: `INSERT INTO ${t.fileImports} (source_file_id, updated_at) SELECT id, ? FROM ${t.sourceFiles}`, args: [now] },
    ])
    fileId = Number((await m.rows<{ id: number }>(`SELECT id FROM ${t.sourceFiles}`))[0]!.id)
  })
  afterAll(() => m.close())

  it('the engine\'s lower() folds as the signature\'s folding assumes', async () => {
    expect(m.scope.db.dialect.searchSignature).toBe(mysql ? 'issue-columns' : 'statement')
    if (!mysql) {
      // SQLite: ASCII only.
      expect(await m.rows(`SELECT lower(?) AS folded`, ['AÉ\u212a\u0130ZÀ'])).toEqual([{ folded: 'aÉ\u212a\u0130zÀ' }])
      return
    }
    // MySQL folds Unicode: every code point past ASCII lowers to ONE character, and to an ASCII one only for
    // I WITH DOT ABOVE (→ i) and KELVIN SIGN (→ k) — under the issue columns' collation (the haystack) and the
    // connection's (the needle, a parameter). Any other mapping would let a needle match text whose trigrams
    // its signature does not hold.
    const { t } = m.scope
    const [collation] = await m.rows<{ c: string }>(
      `SELECT COLLATION_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = 'title'`,
      [t.groups.replaceAll('`', '')],
    )
    expect(collation!.c).toBe('utf8mb4_unicode_ci')
    const asColumn = `CONVERT(CHAR(cp USING utf32) USING utf8mb4) COLLATE ${collation!.c}`
    const asParameter = `CONVERT(CHAR(cp USING utf32) USING utf8mb4)`
    const rows = await m.rows<{ cp: number; column_lower: string; parameter_lower: string }>(
      // Code points as three base-128 digits: a recursion of 128 steps (MariaDB stops one at 1,000 by default).
      `WITH RECURSIVE d (v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM d WHERE v < 127),
          n (cp) AS (SELECT a.v * 16384 + b.v * 128 + c.v FROM d a, d b, d c WHERE a.v < 68)
        SELECT cp, HEX(LOWER(${asColumn})) AS column_lower, HEX(LOWER(${asParameter})) AS parameter_lower FROM n
        WHERE cp >= 128 AND cp NOT BETWEEN 55296 AND 57343 AND (CHAR_LENGTH(LOWER(${asColumn})) <> 1 OR ASCII(LOWER(${asColumn})) < 128
          OR CHAR_LENGTH(LOWER(${asParameter})) <> 1 OR ASCII(LOWER(${asParameter})) < 128)`,
    )
    expect(rows.map((row) => ({ ...row, cp: Number(row.cp) }))).toEqual([
      { cp: 0x130, column_lower: '69', parameter_lower: '69' },
      { cp: 0x212a, column_lower: '6B', parameter_lower: '6B' },
    ])
  })

  it('the digest stores each issue\'s signature and rewrites it with the sample; q finds the issue by any part of its text', async () => {
    const log = (message: string, second: number) => `[2026-10-01 00:00:0${second}] production.ERROR: ${message} {"exception":"[object] (App\\\\Exceptions\\\\LedgerMismatch(code: 0): ${message} at /app/Ledger.php:77)"}\n`
    const persist = async (text: string, offset: number, batch: string) => {
      const parsed = parseLog(new TextEncoder().encode(text), { fileName: 'laravel.log', baseOffset: offset, isEndOfFile: true, fileModifiedAt: now, now })
      await persistEvents(m.scope, await toEventRecords(parsed.events, { moduleId: null, channel: 'laravel.log' }), { sourceFileId: fileId, importBatch: batch, now })
    }
    const first = log('Ledger total 1041 does not balance', 1)
    await persist(first, 0, 'run-1')
    const [row] = await stored(`g.exception_class IS NOT NULL`)
    expect(row!.text.exceptionClass).toContain('LedgerMismatch')
    expect(row!.words).toEqual(textSignature(row!.text))
    expect(await found('DOES NOT bal')).toEqual([row!.text.title])
    expect(await found('ledgermismatch')).toEqual([row!.text.title])
    // A later sample (same fingerprint: the number is normalised away) rewrites text and signature together.
    await persist(log('Ledger total 977 does not balance', 2), new TextEncoder().encode(first).length, 'run-2')
    const [after] = await stored(`g.exception_class IS NOT NULL`)
    expect(after!.text.message).toContain('977')
    expect(after!.words).toEqual(textSignature(after!.text))
    expect(await found('total 977')).toEqual([after!.text.title])
    expect(await found('total 1041')).toEqual([])
  })

  it('a manual issue and a tracker mirror store theirs', async () => {
    const manual = await createManualIssue(m.scope, { title: 'Quarterly VAT report is late', description: 'Finance asked twice', kind: 'task', severity: 'INFO', status: 'open', source_frame: 'reports/vat.ts:12' } as never, LOCAL_ACTOR, now)
    expect(manual.issue.title).toBe('Quarterly VAT report is late')
    const [manualRow] = await stored(`g.title = 'Quarterly VAT report is late'`)
    expect(manualRow!.words).toEqual(textSignature(manualRow!.text))
    const mirror = await mirrorStatements(m.scope, 'linear', 'Linear', [{
      id: 'lin-1', identifier: 'ENG-42', title: 'Checkout button unresponsive', description: 'Reported by support on Safari', url: 'https://linear.app/x/issue/ENG-42',
      severity: 'ERROR', status: 'open', state: 'Todo', labels: [], assignee: null, container: 'ENG', createdAt: '2026-09-30T10:00:00Z', updatedAt: '2026-09-30T11:00:00Z', context: {},
    }], new Date('2026-10-01T00:00:00Z'))
    await m.scope.db.batch(mirror.writes)
    const [mirrorRow] = await stored(`g.source_frame = 'ENG-42'`)
    expect(mirrorRow!.words).toEqual(textSignature(mirrorRow!.text))
    expect(await found('on safari')).toEqual(['Checkout button unresponsive'])
    expect(await found('vat.ts')).toEqual(['Quarterly VAT report is late'])
  })

  it('in SQL, every issue the exact test matches is admitted: 400 random texts, 3,000 needles of any case', async () => {
    const { t, db } = m.scope
    const d = db.dialect
    const next = random(23)
    // The texts' own alphabet plus Greek sigmas, whose case mappings differ by position and engine.
    const letters = [...ALPHABET, 'Σ', 'ς', 'σ']
    const pick = (length: number) => Array.from({ length }, () => letters[Math.floor(next() * letters.length)]).join('')
    const texts = Array.from({ length: 400 }, () => [pick(1 + Math.floor(next() * 120)), pick(Math.floor(next() * 60)), pick(Math.floor(next() * 12)), pick(Math.floor(next() * 20))])
    await db.batch(texts.map((columns, i) => ({
      sql: `INSERT INTO ${t.groups} (fingerprint, severity, title, sample_message, exception_class, source_frame, count, first_seen, last_seen, created_at) VALUES (?, 'ERROR', ?, ?, ?, ?, 1, ?, ?, ?)`,
      args: [`rnd-${i}`, columns[0]!, columns[1] || null, columns[2] || null, columns[3] || null, now, now, now],
    })))
    // The backfill computes their signatures (the writers' own path for unknown rows).
    expect(await backfillSearchSignatures(m.scope)).toBe(400)
    const needles: string[] = []
    while (needles.length < 3000) {
      const column = [...texts[Math.floor(next() * texts.length)]![Math.floor(next() * 4)]!]
      const start = Math.floor(next() * column.length)
      const piece = column.slice(start, start + 3 + Math.floor(next() * 12)).join('')
      // Some change case by JavaScript's Unicode rules (`ß` → `SS`, `İ` → `i̇`): the engine's lower() decides.
      const needle = next() < 0.4 ? piece.toUpperCase() : next() < 0.5 ? piece.toLowerCase() : piece
      if (needleMask(needle)) needles.push(needle)
    }
    const exact = ['title', 'sample_message', 'exception_class', 'source_frame'].map((column) => d.containsCi(`g.${column}`, 'n.needle')).join(' OR ')
    const matches = await m.rows<{ needle: string; fingerprint: string }>(
      `SELECT n.needle, g.fingerprint FROM ${d.jsonRecords({ needle: 'text' }, 'n')} JOIN ${t.groups} g ON g.fingerprint LIKE 'rnd-%' AND (${exact})`,
      [JSON.stringify(needles.map((needle) => ({ needle })))],
    )
    const signatures = new Map((await stored(`g.fingerprint LIKE 'rnd-%'`)).map((row, i) => [`rnd-${i}`, row.words]))
    expect(signatures.size).toBe(400)
    const missed = matches.filter((match) => !holds(signatures.get(match.fingerprint)!, needleMask(match.needle)!))
    expect(missed).toEqual([])
    // And the needles do match: most find their own text.
    expect(new Set(matches.map((match) => match.needle)).size).toBeGreaterThan(2000)
    await db.execute({ sql: `DELETE FROM ${t.groups} WHERE fingerprint LIKE 'rnd-%'` })
  })

  it('q reads the signature rows, then the issues they admit by key (MySQL: never every issue\'s text)', async () => {
    const { t } = m.scope
    // 20,000 issues of log-like text whose signatures do not admit `deadlock`, and two that hold it.
    // Numbers 0 … 19,999: a cross join of digits on MySQL (its recursion stops at 1,000 steps by default), a
    // recursive CTE on SQLite (D1 caps a compound SELECT's terms).
    const digits = `(SELECT 0 AS v UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)`
    const numbers = mysql
      ? `(SELECT a.v * 10000 + b.v * 1000 + c.v * 100 + d.v * 10 + e.v AS i FROM ${digits} a, ${digits} b, ${digits} c, ${digits} d, ${digits} e WHERE a.v < 2)`
      : `(WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19999) SELECT i FROM n)`
    const concat = (...parts: string[]) => (mysql ? `CONCAT(${parts.join(', ')})` : parts.join(' || '))
    await m.rows(`INSERT INTO ${t.groups} (fingerprint, severity, title, sample_message, count, first_seen, last_seen, created_at)
      SELECT ${concat(`'bulk-'`, 'x.i')}, 'ERROR', ${concat(`'Checkout failure in module '`, 'x.i')}, ${concat(`'order '`, 'x.i', `' for user '`, '(x.i % 97)')}, 1, ?, ?, ?
      FROM ${numbers} x`, [now, now, now])
    const bulk = textSignature({ title: 'Checkout failure in module 0', message: 'order 0 for user 0', exceptionClass: null, sourceFrame: null })
    await m.rows(`UPDATE ${t.searchSignatures} SET ${SIGNATURE_COLUMNS.map((column, word) => `${column} = ${bulk[word]}`).join(', ')}
      WHERE id IN (SELECT id FROM ${t.groups} WHERE fingerprint LIKE 'bulk-%')`)
    for (const [fingerprint, title] of [['dl-1', 'Deadlock found when trying to get lock'], ['dl-2', 'Serialization failure: deadlock detected']] as const) {
      await m.rows(`INSERT INTO ${t.groups} (fingerprint, severity, title, count, first_seen, last_seen, created_at) VALUES (?, 'ERROR', ?, 1, ?, ?, ?)`, [fingerprint, title, now, now, now])
    }
    expect(await backfillSearchSignatures(m.scope)).toBe(2)
    if (mysql) for (const table of [t.groups, t.searchSignatures]) await m.rows(`ANALYZE TABLE ${table}`)
    expect((await found('DEADLOCK')).sort()).toEqual(['Deadlock found when trying to get lock', 'Serialization failure: deadlock detected'])
    if (mysql) {
      // The page reads the distinct id list first (signature scan, modules' and files' issues), then each issue
      // by its key: no scan of the issues, and the text of only the two it admits is tested.
      const { statements } = await recordedSearch(m, { q: 'deadlock' }, 'newest')
      expect(statements).toHaveLength(1)
      const { rows } = await m.scope.db.execute({ sql: `EXPLAIN ${statements[0]!.sql}`, args: statements[0]!.args })
      const plan = rows as { select_type: string; table: string; type: string; key: string | null }[]
      const text = JSON.stringify(plan)
      const issues = plan.filter((row) => row.table === 'g')
      expect(issues.map((row) => [row.type, row.key]), text).toEqual([['eq_ref', 'PRIMARY'], ['eq_ref', 'PRIMARY']])
      expect(plan.filter((row) => row.table === 'gsig').map((row) => row.type), text).toEqual(['ALL'])
      // The list is read before the issues: in the page's ids, the derived list precedes `g`.
      const ids = plan.filter((row) => row.select_type === 'DERIVED' && (row.table === 'g' || row.table.startsWith('<derived')))
      expect(ids[0]!.table, text).toMatch(/^<derived/)
    }
    await m.rows(`DELETE FROM ${t.groups} WHERE fingerprint LIKE 'bulk-%' OR fingerprint LIKE 'dl-%'`)
  })

  if (mysql) {
    it('MySQL: the issue row carries the signature its writer stores with the text; triggers copy it, or make it unknown', async () => {
      const { t, db } = m.scope
      const G = t.groups
      const columns = (fingerprint: string) => m.rows<Record<string, unknown>>(`SELECT ${ISSUE_SIGNATURE_COLUMNS.join(', ')} FROM ${G} WHERE fingerprint = ?`, [fingerprint])
        .then((rows) => ISSUE_SIGNATURE_COLUMNS.map((column) => Number(rows[0]![column])))
      const first = textSignature({ title: 'Ledger drift', message: null, exceptionClass: null, sourceFrame: null })
      await db.execute({
        sql: `INSERT INTO ${G} (fingerprint, severity, title, count, first_seen, last_seen, created_at, ${ISSUE_SIGNATURE_COLUMNS.join(', ')}) VALUES ('row', 'ERROR', 'Ledger drift', 1, ?, ?, ?, ?, ?, ?, ?, ?)`,
        args: [now, now, now, ...first],
      })
      expect((await stored(`g.fingerprint = 'row'`))[0]!.words).toEqual(first)
      // New text with its new signature, in one statement (the import's upsert): copied.
      const second = textSignature({ title: 'Ledger drift', message: 'balance off by 12', exceptionClass: null, sourceFrame: null })
      await db.execute({ sql: `UPDATE ${G} SET sample_message = 'balance off by 12', ${ISSUE_SIGNATURE_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE fingerprint = 'row'`, args: second })
      expect((await stored(`g.fingerprint = 'row'`))[0]!.words).toEqual(second)
      // Counts only: nothing moves.
      await db.execute({ sql: `UPDATE ${G} SET count = count + 1 WHERE fingerprint = 'row'` })
      expect((await stored(`g.fingerprint = 'row'`))[0]!.words).toEqual(second)
      // New text from a writer that knows nothing of signatures (a merge): the copy is unknown; the row keeps the
      // last signature written.
      await db.execute({ sql: `UPDATE ${G} SET title = 'Ledger drift again' WHERE fingerprint = 'row'` })
      expect((await stored(`g.fingerprint = 'row'`))[0]!.words).toEqual(UNKNOWN)
      expect(await columns('row')).toEqual(second)
      // The backfill stores the copy alone, and a later count update keeps it.
      expect(await backfillSearchSignatures(m.scope)).toBe(1)
      const third = textSignature({ title: 'Ledger drift again', message: 'balance off by 12', exceptionClass: null, sourceFrame: null })
      expect((await stored(`g.fingerprint = 'row'`))[0]!.words).toEqual(third)
      await db.execute({ sql: `UPDATE ${G} SET count = count + 1 WHERE fingerprint = 'row'` })
      expect((await stored(`g.fingerprint = 'row'`))[0]!.words).toEqual(third)
      // New text with a signature equal to the row's (a signing writer whose new text sets the same bits): unknown,
      // as the trigger cannot tell a writer that signed from one that did not.
      await db.execute({ sql: `UPDATE ${G} SET sample_message = 'balance off by 13', ${ISSUE_SIGNATURE_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE fingerprint = 'row'`, args: second })
      expect((await stored(`g.fingerprint = 'row'`))[0]!.words).toEqual(UNKNOWN)
      await db.execute({ sql: `DELETE FROM ${G} WHERE fingerprint = 'row'` })
    })
  }

  it('the signature decides which issues are tested: one that does not admit the needle is not found, an unknown one (-1) is', async () => {
    const { t } = m.scope
    await m.scope.db.execute({ sql: `INSERT INTO ${t.groups} (fingerprint, severity, title, count, first_seen, last_seen, created_at) VALUES ('forged', 'ERROR', 'Forged deadlock', 1, ?, ?, ?)`, args: [now, now, now] })
    expect(await found('deadlock')).toEqual(['Forged deadlock'])
    await setWords('forged', [0, 0, 0, 0, 0])
    expect(await found('deadlock')).toEqual([])
    // A two-character needle has no trigram: every issue is tested.
    expect(await found('dl')).toEqual(['Forged deadlock'])
    await m.scope.db.execute({ sql: `DELETE FROM ${t.groups} WHERE fingerprint = 'forged'` })
  })

  it('triggers: a new issue starts unknown, a text change makes it unknown, a deleted issue takes its row along', async () => {
    const { t } = m.scope
    const G = t.groups
    await m.scope.db.execute({ sql: `INSERT INTO ${G} (fingerprint, severity, title, count, first_seen, last_seen, created_at) VALUES ('trig', 'ERROR', 'abc', 1, ?, ?, ?)`, args: [now, now, now] })
    expect((await stored(`g.fingerprint = 'trig'`))[0]!.words).toEqual(UNKNOWN)
    const words = textSignature({ title: 'abc', message: null, exceptionClass: null, sourceFrame: null })
    await setWords('trig', words)
    // Columns outside the searched text, and the same text again: the signature stays.
    await m.scope.db.execute({ sql: `UPDATE ${G} SET count = 2, status = 'fixed', title = 'abc' WHERE fingerprint = 'trig'` })
    expect((await stored(`g.fingerprint = 'trig'`))[0]!.words).toEqual(words)
    // New text, even one that sets the same trigram bits (a message under three characters has none): unknown,
    // until a writer stores the new text's signature.
    await m.scope.db.execute({ sql: `UPDATE ${G} SET sample_message = 'ab' WHERE fingerprint = 'trig'` })
    expect((await stored(`g.fingerprint = 'trig'`))[0]!.words).toEqual(UNKNOWN)
    await setWords('trig', words)
    const id = Number((await m.rows<{ id: number }>(`SELECT id FROM ${G} WHERE fingerprint = 'trig'`))[0]!.id)
    await m.scope.db.execute({ sql: `DELETE FROM ${G} WHERE fingerprint = 'trig'` })
    expect(await m.rows(`SELECT id FROM ${t.searchSignatures} WHERE id = ?`, [id])).toEqual([])
    // MySQL: the foreign key refuses a signature without its issue (and takes it along on delete, above).
    if (mysql) {
      await expect(m.scope.db.execute({ sql: `INSERT INTO ${t.searchSignatures} (id, ${SIGNATURE_COLUMNS.join(', ')}) VALUES (?, 0, 0, 0, 0, 0)`, args: [id] })).rejects.toThrow(/foreign key/i)
    }
    // An issue that takes a deleted issue's id never inherits its signature.
    if (!mysql) await m.scope.db.execute({ sql: `INSERT INTO ${t.searchSignatures} (id, ${SIGNATURE_COLUMNS.join(', ')}) VALUES (?, ${SIGNATURE_COLUMNS.map(() => '?').join(', ')})`, args: [id, ...words] })
    await m.scope.db.execute({ sql: `INSERT INTO ${G} (id, fingerprint, severity, title, count, first_seen, last_seen, created_at) VALUES (?, 'reuse', 'ERROR', 'xyz', 1, ?, ?, ?)`, args: [id, now, now, now] })
    expect((await stored(`g.fingerprint = 'reuse'`))[0]!.words).toEqual(UNKNOWN)
    await m.scope.db.execute({ sql: `DELETE FROM ${G} WHERE fingerprint = 'reuse'` })
  })

  it('the backfill keeps each write under D1\'s 1 MB bound string, and leaves an issue too large for one unknown', async () => {
    const { t } = m.scope
    const G = t.groups
    const sizes = [400_000, 400_000, 400_000, 950_000, 10]
    await m.scope.db.batch(sizes.map((size, i) => ({
      sql: `INSERT INTO ${G} (fingerprint, severity, title, sample_message, count, first_seen, last_seen, created_at) VALUES (?, 'ERROR', ?, ?, 1, ?, ?, ?)`,
      args: [`big-${i}`, `Big issue ${i}`, `${'x'.repeat(size - 10)} needle ${i}`, now, now, now],
    })))
    const written: number[] = []
    const recording = wrapDriver(m.scope.db, async (call, proceed) => {
      const [statement] = call.statements
      if (statement!.sql.trimStart().startsWith('UPDATE')) written.push(new TextEncoder().encode(String(statement!.args![0])).length)
      return proceed()
    })
    expect(await backfillSearchSignatures({ ...m.scope, db: recording })).toBe(5)
    // Two 400 KB issues fill a write; the third starts the next; the 950 KB one is left out.
    expect(written).toHaveLength(2)
    for (const bytes of written) expect(bytes).toBeLessThan(1_000_000)
    const rows = await stored(`g.fingerprint LIKE 'big-%'`)
    rows.forEach((row, i) => expect(row.words, `big-${i}`).toEqual(i === 3 ? [-1, -1, -1, -1, -1] : textSignature(row.text)))
    expect(await found('needle 2')).toEqual(['Big issue 2'])
    expect(await found('needle 3')).toEqual(['Big issue 3'])
    await m.scope.db.execute({ sql: `DELETE FROM ${G} WHERE fingerprint LIKE 'big-%'` })
  })

  it('the scheduled backfill computes unknown signatures, and skips an issue whose text changed since it was read', async () => {
    const { t } = m.scope
    const G = t.groups
    const rows = Array.from({ length: 5 }, (_, i) => ({
      sql: `INSERT INTO ${G} (fingerprint, severity, title, sample_message, exception_class, source_frame, count, first_seen, last_seen, created_at) VALUES (?, 'ERROR', ?, ?, ?, ?, 1, ?, ?, ?)`,
      args: [`old-${i}`, `Legacy issue ${i}`, i === 2 ? null : `Stack overflow in worker ${i} 😀`, i % 2 ? 'RuntimeError' : null, `src/legacy${i}.py:1`, now, now, now],
    }))
    await m.scope.db.batch(rows)
    expect((await stored(`g.fingerprint LIKE 'old-%'`)).map((row) => row.words[0])).toEqual([-1, -1, -1, -1, -1])
    // While the backfill computes, another writer changes one issue's text (leaving it unknown).
    const racing = wrapDriver(m.scope.db, async (call, proceed) => {
      const result = await proceed()
      if (call.kind === 'execute' && call.statements[0]!.sql.trimStart().startsWith('SELECT')) {
        await m.scope.db.execute({ sql: `UPDATE ${G} SET title = 'Renamed legacy issue' WHERE fingerprint = 'old-3'` })
      }
      return result
    })
    expect(await backfillSearchSignatures({ ...m.scope, db: racing })).toBe(5)
    const after = await stored(`g.fingerprint LIKE 'old-%'`)
    for (const [i, row] of after.entries()) {
      if (i === 3) expect(row.words).toEqual([-1, -1, -1, -1, -1])
      else expect(row.words).toEqual(textSignature(row.text))
    }
    // The next run computes it from its new text; then none is left.
    expect(await backfillSearchSignatures(m.scope)).toBe(1)
    const renamed = (await stored(`g.fingerprint = 'old-3'`))[0]!
    expect(renamed.text.title).toBe('Renamed legacy issue')
    expect(renamed.words).toEqual(textSignature(renamed.text))
    expect(await backfillSearchSignatures(m.scope)).toBe(0)
    expect(await found('overflow in worker 4')).toEqual(['Legacy issue 4'])
    expect((await found('runtimeerr')).sort()).toEqual(['Legacy issue 1', 'Renamed legacy issue'])
  })
})
