import { describe, expect, it } from 'vitest'
import { normalize } from '../../../../worker/digest/grouping/normalize.ts'

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

  it.each([
    // Stripe-style prefixed random ids keep their prefix; snake_case words are not ids
    ['Your card was declined (req_8fK2xQ0aLm3ZpQ)', 'your card was declined (req_{id})'],
    ['Your card was declined (req_Zz91kLmN0pQrS2)', 'your card was declined (req_{id})'],
    ['customer cus_NffrFeUfNV2Hib, key sk_live_51HqLyjWDarjtT1zdp7dc', 'customer cus_{id}, key sk_live_{id}'],
    ['user_registration and send_welcome_email failed', 'user_registration and send_welcome_email failed'],
    ['id req_abcdefghijk (letters only)', 'id req_abcdefghijk (letters only)'],
    // durations
    ['Slow query 2497ms', 'slow query {duration}'],
    ['took 1.5s, then 300µs, then 12.3 ms', 'took {duration}, then {duration}, then {duration}'],
    ['retry in 2m 30s or 1h', 'retry in {duration} {duration} or {duration}'],
    ['the 1st and 2nd try', 'the 1st and 2nd try'],
    // hex ids: ≥ 8 hex digits with a digit and a letter; all digits stay {n}, all letters stay words
    ['commit a1b2c3d4 built', 'commit {hex} built'],
    ['addr 0x7ffd5e8a9c', 'addr {hex}'],
    ['sha da39a3ee5e6b4b0d3255bfef95601890afd80709', 'sha {hex}'],
    ['deadbeef and deadbeefcafebabe and 12345678901234567890', 'deadbeef and deadbeefcafebabe and {n}'],
    ['/views/fdebd3adec3a95cd7cd920a7fb5b11fe.php:7', '/views/{hex}.php:{line}'],
    // random tokens; identifiers with a digit are not random
    ['session BpqyiNyinnLamzer4jqzrh9NTyC6emFR41FitMpv expired', 'session {token} expired'],
    ['bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'bearer {token}.{token}'],
    ['getUser2FactorAuthenticationCode failed', 'getuser2factorauthenticationcode failed'],
    ['App\\Http\\Controllers\\V2\\OrderController2Abc', 'app\\http\\controllers\\v2\\ordercontroller2abc'],
  ])('normalises the token in %j to %j', (input, expected) => {
    expect(normalize(input)).toBe(expected)
  })

  it('groups each issue of the report as one: declined cards and slow queries', () => {
    expect(new Set(['Your card was declined (req_8fK2xQ0aLm3ZpQ)', 'Your card was declined (req_0pQrS2Zz91kLmN)'].map(normalize)).size).toBe(1)
    expect(new Set(['Slow query 2497ms', 'Slow query 88ms', 'Slow query 1.25s'].map(normalize)).size).toBe(1)
  })

  it('stays linear on huge hex and token runs', () => {
    expect(normalize(`x ${'ab12'.repeat(250_000)} y`)).toBe('x {hex} y')
    expect(normalize(`x ${'aB3_'.repeat(250_000)} y`)).toBe('x {token} y')
  })

  it('handles a huge token without an @ (the email rule must stay linear)', () => {
    // Not hex and without digits, so the id rules leave it alone (a run of `a`s is a 500,000-digit hex id).
    const blob = 'q'.repeat(500_000)
    expect(normalize(`${blob}@ then x@y.test`)).toBe(`${blob}@ then {email}`)
  })
})
