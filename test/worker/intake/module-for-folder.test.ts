import { describe, expect, it } from 'vitest'
import { titleCase } from '../../../worker/intake/module-for-folder.ts'

describe('titleCase (the module name of an incoming folder, reference §3.3)', () => {
  it.each([
    ['billing', 'Billing'],
    ['billing-api', 'Billing Api'],
    ['payment_gateway-v2', 'Payment Gateway V2'],
    ['--edge__', 'Edge'],
    ['API', 'API'],
  ])('%s → %s', (folder, name) => {
    expect(titleCase(folder)).toBe(name)
  })
})
