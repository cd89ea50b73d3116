import { describe, expect, it } from 'vitest'
import { normalize } from '../../../../worker/digest/grouping/normalize.ts'
import { toEventRecords } from '../../../../worker/digest/persist/event-record.ts'
import { generateMixedLaravelLog } from '../../../fixtures/logs/generate-mixed-laravel-log.ts'
import { fixtureBytes, parseText } from '../parse-text.ts'
import golden from './golden-fingerprints.json'

/**
 * Every event of the existing fixtures, fingerprinted by the code before the grouping and analysis changes of
 * issue 10 (commit 6c6d1f6; `golden-fingerprints.json`). The new normalisation rules (prefixed ids, hex ids,
 * random tokens, durations) may only change the fingerprint of an event whose title or culprit frame holds such
 * a token; every other issue must keep its fingerprint, so existing issues keep collecting their events.
 */
const FILES = ['laravel.log', 'horizon.log', 'access.log', 'console.log', 'app.jsonl', 'reference/laravel.log', 'reference/horizon.log', 'reference/access.log', 'reference/sync-command.log']
const NEW_TOKEN = /\{(?:duration|hex|token)\}|_\{id\}/

interface Golden {
  readonly file: string
  readonly byte_start: number
  readonly title: string
  readonly group: string
  readonly exact: string
}

/** Every event's fingerprints as an import computes them (the production path: parse, then event records). */
function current(): (Golden & { frame: string })[] {
  const out: (Golden & { frame: string })[] = []
  const read = (file: string, bytes: Uint8Array) => {
    for (const record of toEventRecords(parseText(bytes, file), { moduleId: null, channel: file })) {
      out.push({ file, byte_start: record.byteStart, title: record.title, group: record.fingerprint, exact: record.exact, frame: record.sourceFrame ?? '' })
    }
  }
  for (const file of FILES) read(file, fixtureBytes(file))
  read('mixed-laravel.log', new TextEncoder().encode(generateMixedLaravelLog(48)))
  return out
}

describe('golden fingerprints of the existing fixtures', () => {
  it('are unchanged wherever the title and culprit frame hold none of the new tokens', async () => {
    const now = current()
    const before = golden as Golden[]
    expect(now.map((e) => [e.file, e.byte_start, e.title])).toEqual(before.map((e) => [e.file, e.byte_start, e.title]))
    const changed: string[] = []
    for (const [i, event] of now.entries()) {
      const tokened = NEW_TOKEN.test(normalize(event.title)) || NEW_TOKEN.test(normalize(event.frame))
      if (tokened) expect(event.group, event.title).not.toBe(before[i]!.group)
      else expect(event.group, event.title).toBe(before[i]!.group)
      if (tokened) changed.push(event.title)
    }
    // Only durations occur in these fixtures; every such title now groups regardless of the number.
    expect(changed).toEqual([
      'Payment gateway slow: 2300ms for café «Zürich» 🚀',
      'App\\Jobs\\SyncCustomer — 812ms DONE',
      'App\\Jobs\\RebuildSearchIndex — 33s FAIL',
      'drained 41200 jobs in 72s',
      ...Array.from({ length: 12 }, (_, k) => `Payment gateway slow: ${2 + 4 * k}ms for merchant ${2 + 4 * k}`),
    ])
  })

  it('keeps every exact fingerprint except those of re-grouped events and of the stack that lost its `"}`', async () => {
    const now = current()
    const before = golden as Golden[]
    const differing = now.filter((e, i) => e.exact !== before[i]!.exact && e.group === before[i]!.group)
    // laravel.log's first event: its stack is now decoded from the JSON context, without the closing `"}`.
    expect(differing.map((e) => [e.file, e.byte_start])).toEqual([['laravel.log', 0]])
  })
})
