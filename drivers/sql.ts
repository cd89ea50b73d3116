import type { SqlValue, Statement } from './driver.ts'

/**
 * A piece of SQL with the arguments of its placeholders, in the order the placeholders appear — a Statement
 * that can also be spliced into another (Kysely's `sql` is the model). Building SQL from fragments keeps each
 * argument next to its `?`: nothing counts placeholders by hand, and a builder that places a clause
 * elsewhere on another engine (an UPDATE's SET before or after its FROM) carries its arguments along.
 */
export class Fragment implements Statement {
  constructor(
    readonly sql: string,
    readonly args: readonly SqlValue[] = [],
  ) {}
}

/** Text spliced as written — identifiers, table names, dialect expressions — never a user's value. */
export class Raw {
  constructor(readonly text: string) {}
}

export function raw(text: string): Raw {
  return new Raw(text)
}

export type SqlPart = SqlValue | Fragment | Raw

/**
 * `sql\`… ${value} …\``: a value becomes `?` with its argument, a Fragment is spliced with its arguments,
 * `raw(text)` is spliced as text.
 *
 * @example
 * const byStatus = sql`g.status = ${status}`
 * const statement = sql`SELECT id FROM ${raw(t.groups)} g WHERE ${byStatus} AND g.count > ${min}`
 */
export function sql(strings: TemplateStringsArray, ...parts: readonly SqlPart[]): Fragment {
  let text = strings[0]!
  const args: SqlValue[] = []
  parts.forEach((part, index) => {
    if (part instanceof Fragment) {
      text += part.sql
      args.push(...part.args)
    } else if (part instanceof Raw) text += part.text
    else {
      text += '?'
      args.push(part)
    }
    text += strings[index + 1]!
  })
  return new Fragment(text, args)
}

/** Fragments joined by `separator` (` AND `, `, `), arguments in order; `empty` when there are none. */
export function join(fragments: readonly Fragment[], separator: string, empty = ''): Fragment {
  if (fragments.length === 0) return new Fragment(empty)
  return new Fragment(fragments.map((fragment) => fragment.sql).join(separator), fragments.flatMap((fragment) => fragment.args))
}

/** A Statement as a Fragment (to splice SQL built elsewhere). */
export function fragment(statement: Statement): Fragment {
  return statement instanceof Fragment ? statement : new Fragment(statement.sql, statement.args ?? [])
}
