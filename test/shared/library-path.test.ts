import { describe, expect, it } from 'vitest'
import { isLibraryPath } from '../../shared/library-path.ts'

describe('isLibraryPath', () => {
  it.each([
    ['/app/vendor/laravel/framework/src/Illuminate/Database/Connection.php(783)', true],
    ['#3 C:\\xampp\\htdocs\\shop\\vendor\\laravel\\framework\\src\\Router.php(12): x', true],
    ['    at handler (/srv/api/node_modules/express/lib/router/layer.js:95:5)', true],
    ['  File "/usr/lib/python3/dist-packages/requests/api.py", line 59', true],
    ['/app/app/Services/InvoiceWriter.php(64)', false],
    ['C:\\xampp\\htdocs\\shop\\app\\Http\\Kernel.php(8)', false],
    ['/app/src/vendors.ts:3:1', false],
  ])('%s → %s', (line, expected) => {
    expect(isLibraryPath(line)).toBe(expected)
  })
})
