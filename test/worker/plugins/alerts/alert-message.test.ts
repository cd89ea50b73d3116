import { describe, expect, it } from 'vitest'
import { alertPayload, alertText, channelBody, testPayload } from '../../../../worker/plugins/alerts/alert-message.ts'

const issues = (n: number) => Array.from({ length: n }, (_, i) => ({ severity: i % 2 ? 'WARNING' : 'ERROR', title: `Issue ${i + 1}`, count: i + 1 }))

describe('alert messages (reference §4.2)', () => {
  it('summarises each trigger, lists five items and counts the rest', () => {
    expect(alertPayload('new_error', issues(1), null).summary).toBe('1 new issue')
    expect(alertPayload('reoccurrence', issues(2), null).summary).toBe('2 issues reoccurred')
    expect(alertPayload('spike', issues(1), null).summary).toBe('1 issue spiking')
    const seven = alertPayload('spike', issues(7), 'https://loupe.example.com')
    expect(seven).toEqual({ trigger: 'spike', summary: '7 issues spiking', items: issues(5), more: 2, url: 'https://loupe.example.com' })
    expect(alertText(seven)).toBe(
      ['📈 *Spike* — 7 issues spiking', '• [ERROR] Issue 1 (1×)', '• [WARNING] Issue 2 (2×)', '• [ERROR] Issue 3 (3×)', '• [WARNING] Issue 4 (4×)', '• [ERROR] Issue 5 (5×)', '…and 2 more', 'https://loupe.example.com'].join('\n'),
    )
    expect(alertText(alertPayload('reoccurrence', issues(1), null))).toBe('🔁 *Reoccurrence* — 1 issue reoccurred\n• [ERROR] Issue 1 (1×)')
  })

  it('writes Slack {text}, Discord {content} with Markdown bold, and the raw alert for webhooks', () => {
    const payload = alertPayload('new_error', [{ severity: 'ERROR', title: 'A *starred* "quote"', count: 1 }], null)
    expect(channelBody('slack', payload)).toBe(JSON.stringify({ text: '🚨 *New error* — 1 new issue\n• [ERROR] A *starred* "quote" (1×)' }))
    expect(channelBody('discord', payload)).toBe(JSON.stringify({ content: '🚨 **New error** — 1 new issue\n• [ERROR] A *starred* "quote" (1×)' }))
    expect(JSON.parse(channelBody('webhook', payload))).toEqual(payload)
    expect(testPayload(null)).toEqual({ trigger: 'test', summary: 'Alerting is connected.', items: [{ severity: 'INFO', title: 'This is a test notification.', count: 1 }], more: 0, url: null })
  })
})
