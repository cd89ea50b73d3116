/**
 * The filesystem log store under Deno itself (`deno test`, run by `npm test` after `deno check`): the
 * LogStore contract (worker/intake/log-store.ts) as the R2 store keeps it — etags from content, copies only
 * of the object listed, all-or-nothing writes, listings without metadata, keys that cannot escape.
 */
import assert from 'node:assert/strict'
import { fsLogStore } from '../../worker/platform/deno/fs-log-store.ts'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (data: Uint8Array | null) => (data === null ? null : new TextDecoder().decode(data))
const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(bytes(chunk))
      controller.close()
    },
  })

async function withStore(test: (store: ReturnType<typeof fsLogStore>, root: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: 'loupe-fs-store-' })
  try {
    await test(fsLogStore(root), root)
  } finally {
    await Deno.remove(root, { recursive: true })
  }
}

Deno.test('writes, heads, reads ranges and lists in key order without its metadata', () =>
  withStore(async (store, root) => {
    await store.write('incoming/app/b.log', bytes('second'), 6)
    await store.write('incoming/app/a/nested.log', streamOf('fir', 'st'), 5)
    await store.write('processed/app/x.log', bytes('other'), 5)
    const listed = await store.list('incoming/app/')
    assert.deepEqual(listed.map((object) => [object.key, object.size, object.origin]), [
      ['incoming/app/a/nested.log', 5, null],
      ['incoming/app/b.log', 6, null],
    ])
    assert.equal(text(await store.read('incoming/app/b.log', 2, 3)), 'con')
    assert.equal(text(await store.read('incoming/app/b.log', 4, 100)), 'nd')
    assert.equal(await store.read('incoming/app/missing.log', 0, 10), null)
    assert.equal(await store.head('incoming/app/missing.log'), null)
    assert.deepEqual((await store.list('')).map((object) => object.key), ['incoming/app/a/nested.log', 'incoming/app/b.log', 'processed/app/x.log'])
    assert.ok((await Deno.stat(`${root}/.meta/incoming/app/b.log`)).isFile)
  }))

Deno.test('gives equal content the same etag, and a file dropped in by another program one too', () =>
  withStore(async (store, root) => {
    await store.write('incoming/app/one.log', bytes('same bytes'), 10)
    const first = (await store.head('incoming/app/one.log'))!
    await store.write('incoming/app/one.log', bytes('same bytes'), 10)
    assert.equal((await store.head('incoming/app/one.log'))!.etag, first.etag)
    await store.write('incoming/app/one.log', bytes('other byte'), 10)
    assert.notEqual((await store.head('incoming/app/one.log'))!.etag, first.etag)
    await Deno.mkdir(`${root}/incoming/app`, { recursive: true })
    await Deno.writeTextFile(`${root}/incoming/app/dropped.log`, 'same bytes')
    assert.equal((await store.list('incoming/app/dropped'))[0]!.etag, first.etag)
    await Deno.writeTextFile(`${root}/incoming/app/dropped.log`, 'same bytes, appended')
    assert.notEqual((await store.head('incoming/app/dropped.log'))!.etag, first.etag)
  }))

Deno.test('copies the object listed with its origin and SHA-256, and nothing once it changed', () =>
  withStore(async (store) => {
    await store.write('incoming/app/a.log', bytes('hello'), 5)
    const listed = (await store.list('incoming/app/'))[0]!
    const digest = await store.copy(listed, 'processed/app/a.log', 'a.log')
    assert.equal(digest, '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824')
    const copy = (await store.head('processed/app/a.log'))!
    assert.deepEqual([copy.size, copy.etag, copy.origin], [5, listed.etag, 'a.log'])
    await store.write('incoming/app/a.log', bytes('changed'), 7)
    assert.equal(await store.copy(listed, 'processed/app/b.log', 'a.log'), null)
    assert.equal(await store.head('processed/app/b.log'), null)
    await store.write('processed/app/a.log', bytes('rewritten'), 9)
    assert.equal((await store.head('processed/app/a.log'))!.origin, null)
  }))

Deno.test('stores nothing when a body is shorter or longer than declared', () =>
  withStore(async (store, root) => {
    await assert.rejects(store.write('uploads/app/short.log', streamOf('abc'), 4), /ended after 3 of its declared 4 bytes/)
    await assert.rejects(store.write('uploads/app/long.log', streamOf('abc', 'de'), 4), /longer than its declared 4 bytes/)
    assert.deepEqual(await store.list('uploads/'), [])
    const leftovers = [...Deno.readDirSync(`${root}/uploads/app`)].map((entry) => entry.name)
    assert.deepEqual(leftovers, [])
  }))

Deno.test('deletes objects with their metadata and the folders they leave empty', () =>
  withStore(async (store, root) => {
    await store.write('uploads/app/123/a/b.log', bytes('x'), 1)
    await store.write('uploads/app/keep.log', bytes('y'), 1)
    await store.delete(['uploads/app/123/a/b.log', 'uploads/app/never-existed.log'])
    assert.deepEqual((await store.list('uploads/')).map((object) => object.key), ['uploads/app/keep.log'])
    await assert.rejects(Deno.stat(`${root}/uploads/app/123`), Deno.errors.NotFound)
    await assert.rejects(Deno.stat(`${root}/.meta/uploads/app/123`), Deno.errors.NotFound)
    await store.delete('uploads/app/keep.log')
    assert.deepEqual(await store.list(''), [])
  }))

Deno.test('refuses keys that would leave its directory', () =>
  withStore(async (store) => {
    for (const key of ['../escape.log', 'incoming/../../escape.log', '/etc/passwd', 'incoming//a.log', './a.log', '']) {
      await assert.rejects(store.write(key, bytes('x'), 1), /invalid log store key/, key)
      await assert.rejects(store.head(key), /invalid log store key/, key)
    }
  }))
