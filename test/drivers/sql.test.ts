import { describe, expect, it } from 'vitest'
import { Fragment, fragment, join, raw, sql } from '../../drivers/sql.ts'
import { setValues } from '../../drivers/dialect/dialect.ts'

describe('sql tagged template', () => {
  it('turns values into placeholders with their arguments, in text order', () => {
    const status = 'open'
    expect(sql`SELECT id FROM ${raw('"app1_error_groups"')} g WHERE g.status = ${status} AND g.count > ${5}`).toEqual(
      new Fragment('SELECT id FROM "app1_error_groups" g WHERE g.status = ? AND g.count > ?', ['open', 5]),
    )
  })

  it('splices nested fragments with their arguments where they stand', () => {
    const inner = sql`g.title = ${'a'} OR g.title = ${'b'}`
    const outer = sql`${7} < g.count AND (${inner}) AND g.kind = ${'error'}`
    expect(outer).toEqual(new Fragment('? < g.count AND (g.title = ? OR g.title = ?) AND g.kind = ?', [7, 'a', 'b', 'error']))
  })

  it('joins fragments, and gives the fallback for none', () => {
    expect(join([sql`a = ${1}`, sql`b = ${null}`, sql`c IS NOT NULL`], ' AND ')).toEqual(new Fragment('a = ? AND b = ? AND c IS NOT NULL', [1, null]))
    expect(join([], ' AND ', '1 = 1')).toEqual(new Fragment('1 = 1', []))
  })

  it('keeps a value that looks like SQL an argument, and a Statement spliced with its arguments', () => {
    expect(sql`name = ${"x' OR 1=1 --"}`).toEqual(new Fragment('name = ?', ["x' OR 1=1 --"]))
    expect(sql`id IN (${fragment({ sql: 'SELECT id FROM t WHERE k = ?', args: ['v'] })})`).toEqual(new Fragment('id IN (SELECT id FROM t WHERE k = ?)', ['v']))
  })
})

describe('setValues', () => {
  it('writes a SET list with each value bound in column order, inside a larger statement', () => {
    const statement = sql`UPDATE ${raw('"t"')} SET ${setValues({ name: 'Ops', enabled: 0, note: null })} WHERE id = ${7}`
    expect({ sql: statement.sql, args: statement.args }).toEqual({ sql: 'UPDATE "t" SET name = ?, enabled = ?, note = ? WHERE id = ?', args: ['Ops', 0, null, 7] })
  })
})
