import { describe, expect, it } from 'vitest'
import type { Driver, QueryResult, Statement } from '../../drivers/driver.ts'
import { namedBatch } from '../../drivers/named-batch.ts'
import { readRow, RowShapeError } from '../../drivers/read-row.ts'

/** A driver that answers each statement of a batch with its own SQL text as the one row. */
function echoDriver(seen: Statement[][]): Driver {
  const answer = (statement: Statement): QueryResult => ({ rows: [{ sql: statement.sql }], rowsAffected: 1 })
  return {
    name: 'd1',
    dialect: undefined as never,
    version: async () => 'test',
    execute: async (statement) => answer(statement) as never,
    batch: async (statements) => {
      seen.push([...statements])
      return statements.map(answer)
    },
  }
}

describe('namedBatch', () => {
  it('runs named statements, lists and skipped nulls as one batch in the order written, and answers by name', async () => {
    const seen: Statement[][] = []
    const results = await namedBatch(echoDriver(seen), {
      lock: { sql: 'lock' },
      writes: [{ sql: 'w1' }, { sql: 'w2' }],
      optional: null,
      read: { sql: 'read' },
    })
    expect(seen).toEqual([[{ sql: 'lock' }, { sql: 'w1' }, { sql: 'w2' }, { sql: 'read' }]])
    expect(results.read.rows).toEqual([{ sql: 'read' }])
    expect(results.writes.map((result) => result.rows[0]!.sql)).toEqual(['w1', 'w2'])
    expect(results.optional).toBeUndefined()
    expect(results.lock.rows[0]!.sql).toBe('lock')
  })
})

describe('namedBatch readBack', () => {
  it('passes the read-back parts as a statement count from the end, skipping parts left out', async () => {
    const options: unknown[] = []
    const driver: Driver = { ...echoDriver([]), batch: async (statements, batchOptions) => (options.push(batchOptions), statements.map((s) => ({ rows: [{ sql: s.sql }], rowsAffected: 0 }))) }
    const results = await namedBatch(driver, { write: { sql: 'w' }, gone: null, reads: [{ sql: 'r1' }, { sql: 'r2' }], last: { sql: 'r3' } }, { readBack: ['gone', 'reads', 'last'] })
    expect(options).toEqual([{ mode: undefined, readBack: 3 }])
    expect(results.last.rows).toEqual([{ sql: 'r3' }])
  })

  it('refuses read-back names that are not the last parts', async () => {
    await expect(namedBatch(echoDriver([]), { read: { sql: 'r' }, write: { sql: 'w' } }, { readBack: ['read'] })).rejects.toThrow('namedBatch: readBack read must name the last parts')
  })
})

describe('readRow', () => {
  it('decodes numbers from numbers and digit strings, strings, nullables, enumerations and JSON', () => {
    expect(readRow({ id: '42', n: 7, s: 'x', o: null, e: 'open', j: '{"a":1}' }, { id: 'number', n: 'number', s: 'string', o: 'string?', e: ['open', 'fixed'], j: 'json?' }, 'thing')).toEqual({
      id: 42, n: 7, s: 'x', o: null, e: 'open', j: { a: 1 },
    })
    expect(readRow({}, { missing: 'number?' }, 'thing')).toEqual({ missing: null })
  })

  it.each([
    [{ id: 'x' }, { id: 'number' }, 'thing: column id is "x", expected number'],
    [{ id: null }, { id: 'number' }, 'thing: column id is null, expected number'],
    [{ name: 5 }, { name: 'string' }, 'thing: column name is 5, expected string'],
    [{ status: 'gone' }, { status: ['open', 'fixed'] }, 'thing: column status is "gone", expected one of open, fixed'],
    [{ j: '{' }, { j: 'json?' }, 'thing: column j is not JSON'],
  ] as const)('fails loudly on %j read as %j', (row, shape, message) => {
    expect(() => readRow(row, shape, 'thing')).toThrow(new RowShapeError(message))
  })

  it('fails when there is no row', () => {
    expect(() => readRow(undefined, { id: 'number' }, 'thing')).toThrow('thing: no row')
  })
})
