import { apacheErrorParser } from './parsers/apache-error.ts'
import { consoleParser } from './parsers/console.ts'
import { horizonConsoleParser } from './parsers/horizon-console.ts'
import { jsonLinesParser } from './parsers/json-lines.ts'
import { laravelHorizonParser, laravelParser } from './parsers/laravel.ts'
import { nginxAccessParser } from './parsers/nginx-access.ts'
import { nginxErrorParser } from './parsers/nginx-error.ts'
import { fileBaseName, type LogParser } from './parsers/parser.ts'

/** How much of a file's start decides its parser (reference §2.2: the first 64 KiB). */
export const SAMPLE_BYTES = 65_536

/** At most this many non-blank lines of the sample are scored (64 KiB of short access-log lines is ~500). */
const SAMPLE_LINES = 1000

/**
 * The built-in parsers. Their order breaks ties between equal scores: the reference's order (§2.2: Laravel-
 * framed horizon files, horizon console output, nginx access logs, Laravel), with the nginx and Apache error
 * logs before Laravel, then JSON lines (ours); the console parser claims what no other does and stays last.
 */
export const PARSERS: readonly LogParser[] = [
  laravelHorizonParser,
  horizonConsoleParser,
  nginxAccessParser,
  nginxErrorParser,
  apacheErrorParser,
  laravelParser,
  jsonLinesParser,
  consoleParser,
]

/**
 * Chooses the parser for a file from its name (or object key; only the last segment counts) and a sample of
 * its first 64 KiB. The reference looked at the first line only, so a Horizon file that starts with
 * `Horizon started successfully.` was read as console output; now every parser scores the sample's non-blank
 * lines (`LogParser.detect`: how many are its own entry lines, plus a fraction when the name hints at it) and
 * the highest score wins, the earlier parser on a tie. The console parser is chosen when no other format has a
 * line, or when lines with a time of their own are more than twice as many as the best format's lines (a
 * console log quoting one Laravel line stays a console log). A leading UTF-8 byte-order mark is ignored.
 * @example selectParser('incoming/shop/laravel-2026-08-20.log', sample).logType // 'laravel'
 */
export function selectParser(fileName: string, sample: string): LogParser {
  const text = sample.charCodeAt(0) === 0xfeff ? sample.slice(1) : sample
  const name = fileBaseName(fileName)
  const lines = sampleLines(text)
  let best: LogParser = consoleParser
  let bestScore = 0
  for (const parser of PARSERS) {
    if (parser === consoleParser) continue
    const score = parser.detect(name, lines)
    if (score > bestScore) {
      best = parser
      bestScore = score
    }
  }
  if (best === consoleParser || bestScore * 2 < consoleParser.detect(name, lines)) return consoleParser
  return best
}

/**
 * The sample's non-blank lines (without `\r`), at most {@link SAMPLE_LINES}. A last line the 64 KiB cut ends
 * is kept: cut or not, a line counts only when its start matches a format.
 */
export function sampleLines(text: string): string[] {
  const lines: string[] = []
  let pos = 0
  while (pos < text.length && lines.length < SAMPLE_LINES) {
    const newline = text.indexOf('\n', pos)
    const end = newline === -1 ? text.length : newline
    let stop = end
    while (stop > pos && text.charCodeAt(stop - 1) === 0x0d) stop--
    const line = text.slice(pos, stop)
    if (line.trim() !== '') lines.push(line)
    pos = end + 1
  }
  return lines
}

/**
 * The parser with this `id`, for callers that persist the choice made at offset 0 and resume a file in a
 * later invocation (the `log_type` alone is ambiguous: two parsers produce `horizon`).
 */
export function parserById(id: string): LogParser | undefined {
  return PARSERS.find((parser) => parser.id === id)
}
