import { describe, expect, it } from 'vitest'
import { messageBeyondTitle } from '../../../../dashboard/src/lib/issue-message.ts'

describe('messageBeyondTitle (the issue page shows the message, not the raw event again)', () => {
  it('is null when the message is the title, once the stack and trailing JSON context are cut', () => {
    const message = 'Checkout failed {"userId":1,"exception":"[object] (RuntimeException(code: 0): x\n[stacktrace]\n#0 /app/a.php(1): f()\n#1 {main}\n"}'
    expect(messageBeyondTitle(message, 'Checkout failed')).toBeNull()
    expect(messageBeyondTitle(null, 'x')).toBeNull()
  })

  it('keeps the lines a multi-line message adds before its stack', () => {
    const message = 'Import failed\nRow 12: price is not a number\nRow 13: missing SKU\nTraceback (most recent call last):\n  File "/srv/a.py", line 3, in run'
    expect(messageBeyondTitle(message, 'Import failed')).toBe('Import failed\nRow 12: price is not a number\nRow 13: missing SKU')
    const node = "TypeError: x is undefined\n    at handler (/srv/app.js:1:2)"
    expect(messageBeyondTitle(node, 'x is undefined')).toBe('TypeError: x is undefined')
  })

  it('caps a long message at 12 lines', () => {
    const message = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n')
    expect(messageBeyondTitle(message, 'title')!.split('\n')).toHaveLength(12)
  })
})
