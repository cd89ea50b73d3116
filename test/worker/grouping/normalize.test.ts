import { describe, expect, it } from 'vitest'
import { normalize } from '../../../worker/grouping/normalize.ts'

describe('normalize', () => {
  it.each([
    ['Order 123 failed for a@x.test', 'order {n} failed for {email}'],
    // uuid before numbers: otherwise its digit groups would become {n}
    ['Job b0f4a4ed-3ae5-4f18-8e06-4b8d459162ae retried 3 times', 'job {uuid} retried {n} times'],
    ['id 1C5349EB-8530-4235-ABCA-43CEBA04A990', 'id {uuid}'],
    ['not a v4-ish uuid 00000000-0000-0000-0000-000000000000', 'not a v4-ish uuid {n}-{n}-{n}-{n}-{n}'],
    // datetime before numbers (and before :digits)
    ['at 2026-08-20 10:15:30.123Z again', 'at {time} again'],
    ['at 2026-08-20T10:15:30+02:00, retry', 'at {time} retry'], // the reference's `[^\s]*` takes the comma too
    ['bare 10:15:30', 'bare {n}:{line}:{line}'],
    // IPv4 before numbers
    ['from 10.0.0.12 port 22', 'from {ip} port {n}'],
    ['redis 127.0.0.1:6379 refused', 'redis {ip}:{line} refused'],
    // email
    ['User.Name+tag@Example.CO.uk signed in', '{email} signed in'],
    ['a@b@c.com', 'a@{email}'],
    ['no@tld', 'no@tld'],
    // releases and line numbers
    ['/srv/app/releases/20260820-1/app/x.php:12', '/srv/app/releases/{release}/app/x.php:{line}'],
    ['/app/app/Services/InvoiceWriter.php:64', '/app/app/services/invoicewriter.php:{line}'],
    // standalone numbers only
    ['abc123 12 x-7 v2.5', 'abc123 {n} x-{n} v2.{n}'],
    // lower-case, trim, collapse whitespace
    ['  Foo\t\tBAR \n baz ', 'foo bar baz'],
    ['', ''],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalize(input)).toBe(expected)
  })

  it('handles a huge token without an @ (the email rule must stay linear)', () => {
    const blob = 'a'.repeat(500_000)
    expect(normalize(`${blob}@ then x@y.test`)).toBe(`${blob}@ then {email}`)
  })
})
