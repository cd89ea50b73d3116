import { readFileSync } from 'node:fs'
import type { LogEvent } from '../../../worker/digest/log-event.ts'
import { parseLog, type ParseOptions } from '../../../worker/digest/parse-log.ts'
import { fileBaseName, type LogParser } from '../../../worker/digest/parsers/parser.ts'
import { sampleLines } from '../../../worker/digest/select-parser.ts'

/** Fixed clock values, so "now" and "file mtime" fallbacks are visible in assertions. */
export const NOW = '2030-01-01 00:00:00'
export const MTIME = '2026-08-21 00:00:00'

/** Raw bytes of `test/fixtures/logs/<name>`. */
export function fixtureBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../../fixtures/logs/${name}`, import.meta.url)))
}

/** Parses a whole file in one pass (UTF-8 text or raw bytes). */
export function parseText(input: string | Uint8Array, fileName: string, options: Partial<ParseOptions> = {}): LogEvent[] {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input
  return parseLog(bytes, { fileName, baseOffset: 0, isEndOfFile: true, fileModifiedAt: MTIME, now: NOW, ...options }).events
}

/** A parser's detection score for a file name and sample, as `selectParser` computes it. */
export function detectScore(parser: LogParser, fileName: string, sample: string): number {
  return parser.detect(fileBaseName(fileName), sampleLines(sample))
}
