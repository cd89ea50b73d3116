import { consoleParser } from './parsers/console.ts'
import { horizonConsoleParser } from './parsers/horizon-console.ts'
import { jsonLinesParser } from './parsers/json-lines.ts'
import { laravelHorizonParser, laravelParser } from './parsers/laravel.ts'
import { nginxAccessParser } from './parsers/nginx-access.ts'
import type { LogParser } from './parsers/parser.ts'

/** How much of a file's start decides its parser (reference §2.2: the first 64 KiB). */
export const SAMPLE_BYTES = 65_536

/**
 * The built-in parsers in the reference's order (§2.2): Laravel-framed horizon files, horizon console output,
 * nginx access logs, Laravel; then JSON lines (ours, not the reference's); the console parser claims
 * everything and must stay last.
 */
export const PARSERS: readonly LogParser[] = [
  laravelHorizonParser,
  horizonConsoleParser,
  nginxAccessParser,
  laravelParser,
  jsonLinesParser,
  consoleParser,
]

/**
 * Chooses the parser for a file from its name (or object key; only the last segment counts) and a sample of
 * its first 64 KiB. A leading UTF-8 byte-order mark is ignored.
 * @example selectParser('incoming/shop/laravel-2026-08-20.log', sample).logType // 'laravel'
 */
export function selectParser(fileName: string, sample: string): LogParser {
  const text = sample.charCodeAt(0) === 0xfeff ? sample.slice(1) : sample
  for (const parser of PARSERS) if (parser.supports(fileName, text)) return parser
  return consoleParser
}

/**
 * The parser with this `id`, for callers that persist the choice made at offset 0 and resume a file in a
 * later invocation (the `log_type` alone is ambiguous: two parsers produce `horizon`).
 */
export function parserById(id: string): LogParser | undefined {
  return PARSERS.find((parser) => parser.id === id)
}
