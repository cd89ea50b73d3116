/**
 * The dashboard's files from a directory under Deno (`deno test`): served as Workers' `[assets]` serves them
 * (wrangler.toml: single-page-application fallback), with content types, and never outside the directory.
 */
import assert from 'node:assert/strict'
import { directoryAssets } from '../../worker/platform/deno/directory-assets.ts'

async function withAssets(test: (fetch: (path: string, method?: string) => Promise<Response>, root: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: 'loupe-assets-' })
  const secret = `${root}-secret.txt`
  try {
    await Deno.mkdir(`${root}/assets`)
    await Deno.writeTextFile(`${root}/index.html`, '<!doctype html><title>Loupe</title>')
    await Deno.writeTextFile(`${root}/assets/app-1a2b.js`, 'console.log(1)')
    await Deno.writeTextFile(`${root}/assets/app-1a2b.css`, 'body{}')
    await Deno.writeTextFile(secret, 'not yours')
    const assets = directoryAssets(root)
    await test((path, method = 'GET') => assets.fetch(new Request(`http://loupe.test${path}`, { method })), root)
  } finally {
    await Deno.remove(root, { recursive: true })
    await Deno.remove(secret)
  }
}

Deno.test('serves files with their content types, and index.html for / and for paths with no file', () =>
  withAssets(async (fetch) => {
    const script = await fetch('/assets/app-1a2b.js')
    assert.deepEqual([script.status, script.headers.get('content-type'), await script.text()], [200, 'text/javascript; charset=utf-8', 'console.log(1)'])
    assert.equal((await fetch('/assets/app-1a2b.css')).headers.get('content-type'), 'text/css; charset=utf-8')
    for (const path of ['/', '/issues/42', '/settings/ingest?tab=x']) {
      const page = await fetch(path)
      assert.deepEqual([page.status, page.headers.get('content-type'), await page.text()], [200, 'text/html; charset=utf-8', '<!doctype html><title>Loupe</title>'], path)
    }
  }))

Deno.test('answers HEAD without a body and other methods with 405', () =>
  withAssets(async (fetch) => {
    const head = await fetch('/assets/app-1a2b.js', 'HEAD')
    assert.deepEqual([head.status, head.headers.get('content-type'), await head.text()], [200, 'text/javascript; charset=utf-8', ''])
    assert.equal((await fetch('/', 'POST')).status, 405)
  }))

Deno.test('never reads outside its directory', () =>
  withAssets(async (fetch, root) => {
    const name = `${root.slice(root.lastIndexOf('/') + 1)}-secret.txt`
    for (const path of [`/../${name}`, `/%2e%2e/${name}`, `/assets/%2e%2e/%2e%2e/${name}`, `/..%2f${name}`]) {
      const response = await fetch(path)
      assert.notEqual(await response.text(), 'not yours', path)
    }
    const malformed = await fetch('/assets/%E0%A4%A')
    assert.deepEqual([malformed.status, await malformed.text()], [200, '<!doctype html><title>Loupe</title>'])
  }))
