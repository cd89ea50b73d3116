/**
 * Just enough of SQLite's tokenizer for the Hrana server to do what libSQL's server (sqld) does before it
 * prepares SQL, which the `libsql` package cannot tell us: split a string into statements (its `prepare`
 * silently ignores everything after the first one), name each statement's verb (sqld reports
 * `affected_row_count` only for INSERT/UPDATE/DELETE and `last_insert_rowid` only for INSERT) and list its
 * parameters numbered as `sqlite3_bind_parameter_name()` does (sqld binds by those names).
 */

/** One SQL statement found in a string. */
export interface SqlStatement {
  /** The statement's text, without the `;` that ends it. */
  readonly sql: string
  /** `SELECT`, `INSERT`, `CREATE`, … upper-cased; for `WITH …` the verb of the main statement. */
  readonly verb: string
  /** Starts with `EXPLAIN` (sqld then tolerates unbound parameters). */
  readonly isExplain: boolean
  /** Parameter names by index - 1, prefix included (`:a`, `?3`); `undefined` for a bare `?`. */
  readonly params: readonly (string | undefined)[]
}

const MAIN_VERBS = new Set(['SELECT', 'VALUES', 'INSERT', 'REPLACE', 'UPDATE', 'DELETE'])
const QUOTE_CLOSE: Readonly<Record<string, string>> = { "'": "'", '"': '"', '`': '`', '[': ']' }

/**
 * Splits `text` into statements where `sqlite3_complete()` would: at `;` outside quotes, comments and
 * `CREATE TRIGGER … BEGIN … END` bodies. Empty statements (only whitespace, comments or `;`) are dropped,
 * as `sqlite3_prepare` skips them.
 */
export function splitStatements(text: string): SqlStatement[] {
  const statements: SqlStatement[] = []
  let start = 0
  let hasTokens = false
  let depth = 0
  let words: string[] = [] // depth-0 keywords, collected until the main verb shows up
  let params: (string | undefined)[] = []
  let trigger: 'none' | 'head' | 'body' | 'ended' = 'none'
  let caseDepth = 0

  const finish = (end: number): void => {
    if (hasTokens) statements.push({ sql: text.slice(start, end).trim(), ...verbOf(words), params })
    start = end + 1
    hasTokens = false
    depth = 0
    words = []
    params = []
    trigger = 'none'
    caseDepth = 0
  }

  let i = 0
  while (i < text.length) {
    const c = text[i] as string
    if (/\s/.test(c)) {
      i++
    } else if (c === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i)
      i = end < 0 ? text.length : end + 1
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? text.length : end + 2
    } else if (c === ';') {
      if (trigger !== 'body') finish(i)
      i++
    } else {
      hasTokens = true
      const close = QUOTE_CLOSE[c]
      if (close !== undefined) {
        // A doubled closing quote is an escaped quote, so scanning on until a lone one is right either way.
        let end = text.indexOf(close, i + 1)
        while (end >= 0 && close !== ']' && text[end + 1] === close) end = text.indexOf(close, end + 2)
        i = end < 0 ? text.length : end + 1
      } else if (c === '?' || ((c === ':' || c === '@' || c === '$') && isIdChar(text[i + 1]))) {
        const isChar = c === '?' ? (d: string | undefined) => d !== undefined && d >= '0' && d <= '9' : isIdChar
        let end = i + 1
        while (end < text.length && isChar(text[end])) end++
        addParam(params, text.slice(i, end))
        i = end
      } else if (isIdChar(c)) {
        let end = i + 1
        while (end < text.length && isIdChar(text[end])) end++
        const word = text.slice(i, end).toUpperCase()
        i = end
        if (depth === 0 && !words.some((w) => MAIN_VERBS.has(w))) words.push(word)
        if (trigger === 'none' && isTriggerHead(words)) trigger = 'head'
        else if (trigger === 'head' && word === 'BEGIN') trigger = 'body'
        else if (trigger === 'body' && word === 'CASE') caseDepth++
        else if (trigger === 'body' && word === 'END') {
          if (caseDepth > 0) caseDepth--
          else trigger = 'ended'
        }
      } else {
        if (c === '(') depth++
        else if (c === ')') depth--
        i++
      }
    }
  }
  finish(text.length)
  return statements
}

/** True for INSERT, REPLACE, UPDATE and DELETE: sqld's `is_iud`. */
export function isWrite(statement: SqlStatement): boolean {
  return !statement.isExplain && ['INSERT', 'REPLACE', 'UPDATE', 'DELETE'].includes(statement.verb)
}

/** True for INSERT and REPLACE: sqld's `is_insert`, the only statements that report `last_insert_rowid`. */
export function isInsert(statement: SqlStatement): boolean {
  return !statement.isExplain && (statement.verb === 'INSERT' || statement.verb === 'REPLACE')
}

function verbOf(words: readonly string[]): { verb: string; isExplain: boolean } {
  const isExplain = words[0] === 'EXPLAIN'
  const lead = isExplain ? (words[1] === 'QUERY' ? 3 : 1) : 0
  let verb = words[lead] ?? ''
  if (verb === 'WITH') verb = words.slice(lead + 1).find((w) => MAIN_VERBS.has(w)) ?? verb
  return { verb, isExplain }
}

function isTriggerHead(words: readonly string[]): boolean {
  if (words[0] !== 'CREATE') return false
  return words[1] === 'TRIGGER' || ((words[1] === 'TEMP' || words[1] === 'TEMPORARY') && words[2] === 'TRIGGER')
}

/** SQLite's numbering: `?NNN` takes index NNN, a new name or a bare `?` the next index after the largest so far. */
function addParam(params: (string | undefined)[], token: string): void {
  if (token === '?') {
    params.push(undefined)
  } else if (token.startsWith('?')) {
    const index = Number(token.slice(1)) // ?0 is a prepare error, left to SQLite
    while (params.length < index) params.push(undefined)
    if (index >= 1 && params[index - 1] === undefined) params[index - 1] = token // an index keeps its first name
  } else if (!params.includes(token)) {
    params.push(token)
  }
}

function isIdChar(c: string | undefined): boolean {
  return c !== undefined && (/[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80)
}
