/**
 * The hostile request generator of test/api/fuzz.test.ts: a seeded PRNG (mulberry32), so a failure names its
 * seed and index and replays exactly. Each request is one endpoint with one or more things wrong — wrong
 * method, wrong types, missing or repeated fields, oversize values and bodies, broken encodings (invalid
 * UTF-8, NUL, lone surrogates, bad percent-escapes), deep JSON, traversal, unknown ids — and sometimes a
 * missing or wrong token or a foreign Origin.
 */

export interface FuzzRequest {
  readonly index: number
  readonly method: string
  readonly api: string
  /** Raw query pairs, appended in order (repeats allowed); `raw` pairs are written without encoding. */
  readonly query: readonly (readonly [string, string, 'raw'?])[]
  readonly headers: Record<string, string>
  readonly body?: string | Uint8Array<ArrayBuffer>
  /** Sent with `SERVICE_TOKEN` set, so the guard is exercised. */
  readonly withToken: boolean
}

/** Every endpoint with the methods it serves and the parameters it reads (docs/api.md, docs/api-ingestion.md). */
export const FUZZ_ENDPOINTS: Record<string, { readonly methods: readonly string[]; readonly query: readonly string[]; readonly fields: readonly string[] }> = {
  health: { methods: ['GET'], query: [], fields: [] },
  applications: { methods: ['GET', 'POST'], query: [], fields: ['name', 'id', 'database'] },
  tags: { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], query: ['id'], fields: ['id', 'name', 'color', 'icon', 'match_word'] },
  'issue-tags': { methods: ['POST'], query: [], fields: ['issue_id', 'tag_ids', 'ids', 'tag_id', 'action'] },
  issues: { methods: ['GET', 'POST'], query: ['q', 'page', 'limit', 'severity', 'status', 'date', 'source', 'module', 'tag', 'sort', 'log_type', 'origin', 'kind'], fields: ['title', 'severity', 'description', 'module_id', 'tags', 'environment'] },
  errors: { methods: ['GET', 'POST'], query: ['q', 'page', 'limit', 'severity', 'status', 'date', 'source', 'module', 'tag', 'sort'], fields: ['title', 'severity'] },
  groups: { methods: ['GET'], query: ['q', 'page', 'limit', 'severity', 'status', 'date', 'source', 'sort'], fields: [] },
  error: { methods: ['GET'], query: ['id', 'page', 'limit', 'include_context', 'skip_vendor'], fields: [] },
  group: { methods: ['GET'], query: ['id', 'page', 'limit', 'include_context', 'skip_vendor'], fields: [] },
  'issue-status': { methods: ['POST'], query: [], fields: ['id', 'status', 'note'] },
  'bulk-issues': { methods: ['POST'], query: [], fields: ['ids', 'action', 'status', 'tag_id', 'note'] },
  'merge-issues': { methods: ['POST'], query: [], fields: ['target', 'ids'] },
  'assign-issue': { methods: ['POST'], query: [], fields: ['id', 'assigned_to_id', 'assigned_to_label'] },
  'assignable-users': { methods: ['GET'], query: [], fields: [] },
  modules: { methods: ['GET', 'POST'], query: [], fields: ['name', 'slug', 'color'] },
  'import-incoming': { methods: ['GET', 'POST'], query: ['file', 'limit', 'job'], fields: ['retry'] },
  'ingestion-settings': { methods: ['GET', 'POST', 'PUT', 'PATCH'], query: [], fields: ['severities'] },
  summary: { methods: ['GET'], query: ['days'], fields: [] },
  sources: { methods: ['GET'], query: ['page', 'limit', 'q'], fields: [] },
  source: { methods: ['GET'], query: ['occurrence', 'id', 'context'], fields: [] },
  reindex: { methods: ['POST'], query: [], fields: [] },
  'log-deletion-preview': { methods: ['GET'], query: ['date', 'source_id'], fields: [] },
  'delete-logs': { methods: ['POST'], query: [], fields: ['date', 'source_id', 'confirmation'] },
  'processed-retention': { methods: ['GET', 'POST'], query: [], fields: ['processed_max_age_days', 'processed_max_files'] },
  plugins: { methods: ['GET', 'POST', 'PUT', 'PATCH'], query: [], fields: ['id', 'enabled'] },
  'tracker-settings': {
    methods: ['GET', 'PUT', 'PATCH', 'POST'],
    query: [],
    fields: ['provider', 'enabled', 'api_key', 'webhook_secret', 'labels', 'assigned_to_me', 'assignees', 'team_key', 'repository', 'status_writeback', 'status_writeback_comment'],
  },
  'tracker-test': { methods: ['POST'], query: [], fields: [] },
  'tracker-sync': { methods: ['POST'], query: [], fields: [] },
  'tracker-issue': { methods: ['GET', 'POST'], query: ['id'], fields: ['id'] },
  'tracker-webhook': { methods: ['POST'], query: [], fields: ['action', 'type', 'data'] },
  'alert-channels': { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], query: ['id'], fields: ['id', 'name', 'type', 'url', 'enabled'] },
  'alert-rules': {
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    query: ['id'],
    fields: ['id', 'name', 'channel_id', 'trigger_type', 'severities', 'module_id', 'min_count', 'spike_factor', 'cooldown_minutes', 'enabled'],
  },
  'alert-test': { methods: ['POST'], query: [], fields: ['id'] },
  'alert-preview': { methods: ['POST'], query: [], fields: ['trigger_type', 'severities', 'module_id', 'min_count', 'spike_factor'] },
  'alert-events': { methods: ['GET'], query: ['limit'], fields: [] },
  'access-analytics': { methods: ['GET'], query: ['days'], fields: [] },
  deploys: { methods: ['GET', 'POST', 'DELETE'], query: ['id', 'limit', 'days'], fields: ['id', 'version', 'environment', 'ref', 'notes', 'deployed_at'] },
  releases: { methods: ['GET'], query: ['limit'], fields: [] },
  'release-settings': { methods: ['GET', 'POST', 'PUT', 'PATCH'], query: [], fields: ['repo_url_template', 'default_ref'] },
  'issue-releases': { methods: ['GET'], query: ['id'], fields: [] },
  'source-maps': { methods: ['GET', 'POST', 'DELETE'], query: ['id', 'release'], fields: ['id', 'release', 'file', 'url', 'map', 'content'] },
  connectors: {
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    query: ['id'],
    fields: ['id', 'name', 'type', 'config', 'credentials', 'enabled', 'module_id', 'sync_interval_minutes'],
  },
  'connectors-test': { methods: ['POST'], query: ['id'], fields: ['id'] },
  'connectors-preview': { methods: ['POST'], query: ['id'], fields: ['id'] },
  'connectors-sync': { methods: ['POST'], query: ['id'], fields: ['id', 'snapshot', 'snapshots'] },
  'connectors-runs': { methods: ['GET'], query: ['limit', 'connector_id'], fields: [] },
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND', 'PURGE', 'get']

/** Strings that break naive code: SQL and LIKE metacharacters, traversal, encodings, sizes, numbers. */
const HOSTILE_STRINGS = [
  '', ' ', '0', '-1', '1.5', '1e309', 'NaN', 'Infinity', '-0', '00000000000000000000001', '9'.repeat(40), '9007199254740993',
  "' OR '1'='1", '"; DROP TABLE x; --', '%', '_', '%%__%%', '\\', '\\%', '[a-z]*', '*', '?', 'null', 'undefined', 'true',
  '../../../etc/passwd', '..\\..\\windows\\win.ini', '/etc/passwd', 'a/../../b.log', '%2e%2e%2fx.log', 'C:\\x.log', '.log', 'x.log\u0000.txt',
  'a\u0000b', '\ud800', '\udfff\ud800', '\u202e\u0301', '😀'.repeat(50), 'é'.repeat(300), 'x'.repeat(5000), 'x'.repeat(70_000),
  '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '\r\nX-Injected: 1', '2024-02-30', '2024-13-01', '0000-00-00', '2024-01-01T00:00:00Z',
  'ERROR', 'error', 'EMERGENCY', 'open', 'fixed', 'wont_fix', 'newest', 'oldest', 'occurrences', 'default', 'DELETE LOGS', 'delete logs',
]

/** Query values that are not even valid percent-encoding or UTF-8 once decoded. */
const RAW_QUERY_VALUES = ['%', '%zz', '%ff%fe', '%c0%af', '%ed%a0%80', '%00', '%e2%82', '%%%', '%u0041', '+%2B+', '%0d%0aX:1']

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class FuzzGenerator {
  private readonly random: () => number
  constructor(
    readonly seed: number,
    /** Ids that exist in the fuzzed application (issues, tags, occurrences, sources), so some requests hit real rows. */
    private readonly known: { readonly app: string; readonly issueIds: readonly number[]; readonly tagIds: readonly number[]; readonly occurrenceIds: readonly number[]; readonly sourceIds: readonly number[] },
  ) {
    this.random = mulberry32(seed)
  }

  private chance(p: number): boolean {
    return this.random() < p
  }

  private int(max: number): number {
    return Math.floor(this.random() * max)
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!
  }

  private id(): number | string {
    const known = [...this.known.issueIds, ...this.known.tagIds, ...this.known.occurrenceIds, ...this.known.sourceIds]
    return this.pick<number | string>([...known, ...known, 0, -1, 2 ** 31, 2 ** 53 + 2, 1.5, '1', ' 2 ', '1e3', '0x10', 'abc'])
  }

  /** Any JSON value, biased to wrong types for a field. */
  private value(depth = 0): unknown {
    switch (this.int(depth > 2 ? 7 : 10)) {
      case 0: return null
      case 1: return this.chance(0.5)
      case 2: return this.pick([0, -1, 1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 42])
      case 3: return this.id()
      case 4: case 5: return this.pick(HOSTILE_STRINGS)
      case 6: return this.pick(['open', 'ERROR', 'tag', '#ff0000', 'a b', 'Checkout failed'])
      case 7: return Array.from({ length: this.int(5) }, () => this.value(depth + 1))
      case 8: return Object.fromEntries(Array.from({ length: this.int(4) }, () => [this.pick(['id', 'name', '__proto__', 'constructor', 'a']), this.value(depth + 1)]))
      default: return this.pick([[], {}, [[]], { '': '' }])
    }
  }

  private body(fields: readonly string[]): string | Uint8Array<ArrayBuffer> | undefined {
    const kind = this.int(14)
    if (kind === 0) return undefined
    if (kind === 1) return this.pick(['{', '{"a":', '[1,', 'nul', '{"a":1}}', '\u0000', '{"a":"\\u"}', "{'a':1}", '{"a":1,}', 'NaN'])
    if (kind === 2) return this.pick(['[]', '"text"', '42', 'null', 'true', '[{"id":1}]'])
    if (kind === 3) return new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]) // {"a":"<invalid UTF-8>"}
    if (kind === 4) return '\ufeff' + JSON.stringify({ [this.pick(fields.length ? fields : ['a'])]: this.value() }) // BOM
    if (kind === 5) return '['.repeat(2000 + this.int(20_000)) + ']'.repeat(this.int(3))
    if (kind === 6) return `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3001)}`
    if (kind === 7) return JSON.stringify({ [this.pick(fields.length ? fields : ['a'])]: 'x'.repeat(1024 * 1024 + this.int(1000)) }) // over the 1 MiB limit
    if (kind === 8) return JSON.stringify({ ids: Array.from({ length: 5000 }, (_, i) => i), tag_ids: Array.from({ length: 3000 }, () => this.id()) })
    // Known fields with hostile values, some missing, some duplicated through raw JSON text.
    const object: Record<string, unknown> = {}
    for (const field of fields) if (this.chance(0.7)) object[field] = this.value()
    if (this.chance(0.2)) object[this.pick(HOSTILE_STRINGS)] = this.value()
    const text = JSON.stringify(object)
    if (kind === 9 && fields.length) return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"${this.pick(fields)}":${JSON.stringify(this.value())}}`
    return text
  }

  next(index: number): FuzzRequest {
    const known = Object.keys(FUZZ_ENDPOINTS)
    const api = this.chance(0.06) ? this.pick(['', 'TAGS', 'tags/', 'tags%00', '../tags', 'x'.repeat(300), 'ingest', 'tracker-webhook', 'issues?x', '😀', 'constructor', '__proto__']) : this.pick(known)
    const spec = Object.hasOwn(FUZZ_ENDPOINTS, api) ? FUZZ_ENDPOINTS[api]! : { methods: ['GET'], query: ['id'], fields: ['id'] }
    const method = this.chance(0.7) ? this.pick(spec.methods) : this.pick(METHODS)
    const query: [string, string, 'raw'?][] = []
    const appChoice = this.int(20)
    if (appChoice < 15) query.push(['app', this.known.app])
    else if (appChoice < 19) query.push(['app', this.pick(['', 'nope', 'default', '../default', 'x'.repeat(100), 'a\u0000b', 'APP', ' default '])])
    if (this.chance(0.05)) query.push(['app', this.known.app])
    for (const name of [...spec.query, 'id']) {
      if (!this.chance(0.4)) continue
      if (this.chance(0.15)) query.push([name, this.pick(RAW_QUERY_VALUES), 'raw'])
      else query.push([name, String(this.chance(0.3) ? this.id() : this.pick(HOSTILE_STRINGS))])
      if (this.chance(0.1)) query.push([name, String(this.id())])
    }
    const headers: Record<string, string> = {}
    const writes = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'
    let body: string | Uint8Array<ArrayBuffer> | undefined
    if (writes) {
      body = this.body(spec.fields)
      // Uploads are real imports: keep them small so the run stays fast.
      if (api === 'import-incoming' && query.some(([name]) => name === 'file') && typeof body === 'string' && body.length > 2048) body = body.slice(0, 2048)
      if (this.chance(0.3)) headers['content-type'] = this.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'garbage'])
      if (this.chance(0.05)) headers['content-encoding'] = this.pick(['gzip', 'br', 'deflate', 'identity, gzip'])
    }
    if (this.chance(0.08)) headers.origin = this.pick(['https://evil.example', 'null', 'http://loupe.test', 'http://LOUPE.TEST:80', 'file://', '://'])
    const withToken = this.chance(0.1)
    if (withToken) {
      const token = this.int(4)
      if (token === 0) headers['x-service-token'] = 'T'
      else if (token === 1) headers.authorization = this.pick(['Bearer T', 'Bearer', 'Basic VDpU', 'bearer  T ', 'Bearer \tT', 'Bearer T,T'])
      else if (token === 2) headers['x-service-token'] = this.pick(['', 't', 'T '.repeat(1000), 'TT'])
    }
    return { index, method, api, query, headers, body, withToken }
  }
}

/** The request line of a fuzz request, for failure messages (bodies cut short). */
export function describeFuzzRequest(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : typeof request.body === 'string' ? ` body=${JSON.stringify(request.body.slice(0, 120))}${request.body.length > 120 ? `…(${request.body.length})` : ''}` : ` body=<${request.body.length} bytes>`
  const query = request.query.map(([name, value]) => `${name}=${JSON.stringify(value.slice(0, 40))}`).join(' ')
  return `#${request.index} ${request.method} ${JSON.stringify(request.api)} ${query}${request.withToken ? ' [token set]' : ''} ${JSON.stringify(request.headers).slice(0, 120)}${body}`
}

/**
 * Percent-encodes a query value the way a careless client would send it: lone surrogates (which
 * `encodeURIComponent` refuses) go out as the bytes of their WTF-8 encoding, e.g. `%ED%A0%80`.
 */
export function encodeQueryValue(value: string): string {
  let out = ''
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    const isHigh = code >= 0xd800 && code <= 0xdbff
    const next = value.charCodeAt(i + 1)
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(value.slice(i, i + 2))
      i++
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase()
    } else {
      out += encodeURIComponent(value[i]!)
    }
  }
  return out
}
