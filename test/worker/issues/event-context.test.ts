import { describe, expect, it } from 'vitest'
import { splitWindow } from '../../../worker/issues/event-context.ts'

/** How a window of an archived file is cut into lines around an event (`event-context`, issue 17 item 7). */
const encoder = new TextEncoder()

function windowOf(file: string, from: number, to: number) {
  return encoder.encode(file).slice(from, to)
}

describe('splitWindow', () => {
  const file = 'alpha\r\nbravo\r\nEVENT one\r\n  stack\r\ncharlie\r\ndelta\r\necho'
  const offset = (text: string) => encoder.encode(file.slice(0, file.indexOf(text))).length
  const start = offset('EVENT')
  const end = offset('charlie')

  it('keeps whole lines only: a line cut by the window start or end is left out', () => {
    // The window starts inside "alpha" and ends inside "delta".
    const from = 2
    const to = offset('delta') + 3
    const cut = splitWindow(windowOf(file, from, to), from, start, end, false, 5)
    expect(cut.before).toEqual([{ byte_start: offset('bravo'), text: 'bravo' }])
    expect(cut.lines).toEqual([{ byte_start: start, text: 'EVENT one' }, { byte_start: offset('  stack'), text: '  stack' }])
    expect(cut.after).toEqual([{ byte_start: offset('charlie'), text: 'charlie' }])
    expect([cut.start_of_file, cut.end_of_file]).toEqual([false, false])
  })

  it('keeps a whole first line when the window starts right after a line break', () => {
    const from = offset('bravo') - 1 // the \n before "bravo"
    const cut = splitWindow(windowOf(file, from, file.length), from, start, end, true, 5)
    expect(cut.before.map((line) => line.text)).toEqual(['bravo'])
    // The last line has no break: the window reaching the end of the file keeps it, and says so.
    expect(cut.after.map((line) => line.text)).toEqual(['charlie', 'delta', 'echo'])
    expect(cut.end_of_file).toBe(true)
  })

  it('skips the rest of the event’s last line when its range stops before the break, and stops at count', () => {
    const cut = splitWindow(encoder.encode(file), 0, start, end - 2, true, 1)
    expect(cut.lines.map((line) => line.text)).toEqual(['EVENT one', '  stack'])
    expect(cut.before.map((line) => line.text)).toEqual(['bravo'])
    expect(cut.after.map((line) => line.text)).toEqual(['charlie'])
    expect([cut.start_of_file, cut.end_of_file]).toEqual([false, false])
    const all = splitWindow(encoder.encode(file), 0, start, end, true, 10)
    expect(all.before.map((line) => line.text)).toEqual(['alpha', 'bravo'])
    expect([all.start_of_file, all.end_of_file]).toEqual([true, true])
  })
})
