/** Lines of a message shown at most: the message is the event's text, not its raw bytes (those are under "Raw event"). */
const MESSAGE_LINES = 12
const MESSAGE_CHARS = 2000

/**
 * The sample message without what other sections show (issue 17 item 5): the stack (from its first frame
 * or `[stacktrace]` on) and a trailing JSON context are cut, and nothing is shown when what is left is the
 * title again.
 */
export function messageBeyondTitle(message: string | null, title: string): string | null {
  if (!message) return null
  const kept: string[] = []
  for (const line of message.replace(/\r\n?/g, '\n').split('\n')) {
    if (/^\s*(?:#\d+\s|at\s|\[stacktrace\]|Stack trace:|Traceback \(most recent call last\))/.test(line)) break
    kept.push(line)
    if (kept.length >= MESSAGE_LINES) break
  }
  let text = kept.join('\n')
  const json = text.indexOf(' {"')
  if (json > 0) text = text.slice(0, json)
  text = text.trim().slice(0, MESSAGE_CHARS)
  if (text === '' || text === title.trim()) return null
  return text
}
