/**
 * The SQL scanner behind the Hrana server: where statements end, which verb each has, and how SQLite numbers
 * parameters (`sqlite3_bind_parameter_name`), checked where it matters against SQLite itself.
 */
import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import { isInsert, isWrite, splitStatements } from '../../../tools/servers/hrana-sql.ts'

describe('splitStatements', () => {
  it.each([
    ['SELECT 1; SELECT 2', ['SELECT', 'SELECT']],
    ["SELECT ';' AS a, \"b;\", [c;], `d;`, 'it''s;' -- e;\n; /* f; */", ['SELECT']],
    ['  -- only a comment\n ;; /* and another */ ', []],
    ['CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET x = CASE WHEN 1 THEN 2 END; DELETE FROM u; END; SELECT 1', ['CREATE', 'SELECT']],
    ['CREATE TEMP TRIGGER tr AFTER DELETE ON t WHEN (SELECT 1) BEGIN SELECT 1; END', ['CREATE']],
    ['WITH a(x) AS (SELECT 1), b AS (DELETE FROM t) INSERT INTO t SELECT x FROM a', ['INSERT']],
    ['with recursive c(n) as (select 1 union all select n + 1 from c) update t set n = (select max(n) from c)', ['UPDATE']],
    ['REPLACE INTO t VALUES (1); EXPLAIN QUERY PLAN DELETE FROM t; CREATE TABLE u AS SELECT 1', ['REPLACE', 'DELETE', 'CREATE']],
  ])('splits %j into statements with verbs %j', (sql, verbs) => {
    expect(splitStatements(sql).map((s) => s.verb)).toEqual(verbs)
  })

  it('keeps each statement’s text without its semicolon', () => {
    expect(splitStatements('BEGIN ;\n INSERT INTO t VALUES (1);').map((s) => s.sql)).toEqual(['BEGIN', 'INSERT INTO t VALUES (1)'])
  })

  it('tells writes and inserts apart, ignoring EXPLAIN', () => {
    const kinds = splitStatements('INSERT INTO t VALUES (1); UPDATE t SET x = 1; SELECT 1; EXPLAIN INSERT INTO t VALUES (1); CREATE TABLE v (x)')
      .map((s) => [isWrite(s), isInsert(s)])
    expect(kinds).toEqual([[true, true], [true, false], [false, false], [false, false], [false, false]])
  })

  it.each([
    ['SELECT ?, :a, ?5, :a, @b, $c, ?', [1, 2, 5, 2, 6, 7, 8], [undefined, ':a', undefined, undefined, '?5', '@b', '$c', undefined]],
    ['SELECT :a, ?1, ?, ?2', [1, 1, 2, 2], [':a', '?2']],
    ['SELECT ?2, ?, :x', [2, 3, 4], [undefined, '?2', undefined, ':x']],
    ['SELECT \'?\', "?", [?], ? /* ? */ FROM (SELECT 1 AS "?") -- ?', ['?', 1, 1, 1], [undefined]],
  ])('numbers and names the parameters of %j as SQLite does', (sql, indexes, names) => {
    const params = splitStatements(sql)[0]?.params ?? []
    expect(params).toEqual(names)
    // Bound to their own index numbers, the placeholders show which index SQLite gave each of them.
    const db = new Database(':memory:')
    db.defaultSafeIntegers(false)
    expect(db.prepare(sql).raw().get(params.map((_, i) => i + 1))).toEqual(indexes)
    db.close()
  })
})
