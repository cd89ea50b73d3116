import { createHash } from 'node:crypto'
import type { LogStore, StoredLog } from '../../intake/log-store.ts'

/**
 * The log store in a directory (Deno): `<root>/<key>` holds an object's bytes and `<root>/.meta/<key>` what
 * R2 keeps beside them — the etag and the path an archived copy was made from. Writes go to a temporary
 * file renamed into place, so a reader sees an object whole or not at all. As on R2 the etag is a digest of
 * the content (imports compare it to know a re-dropped file is unchanged): computed while writing, or once
 * for a file another program dropped in, and kept with the file's inode, size and modification time so a
 * changed file is hashed again. Hashing streams with Deno's built-in `node:crypto` (Web Crypto cannot
 * digest a stream).
 */
export function fsLogStore(root: string): LogStore {
  const base = root.replace(/\/+$/, '')
  const pathOf = (key: string) => `${base}/${checkedKey(key)}`
  const metaPathOf = (key: string) => `${base}/${META}/${checkedKey(key)}`

  /** The object's metadata, hashing its content first when the recorded etag is not for this version of the file. */
  async function describe(key: string, info: Deno.FileInfo): Promise<StoredLog & { readonly origin: string | null }> {
    const version = versionOf(info)
    let meta = await readMeta(metaPathOf(key))
    if (meta?.version !== version) {
      const hash = createHash('sha256')
      for await (const chunk of (await Deno.open(pathOf(key), { read: true })).readable) hash.update(chunk)
      meta = { version, etag: hash.digest('hex').slice(0, 32), origin: meta?.origin ?? null }
      await writeWhole(metaPathOf(key), encodeMeta(meta), null)
    }
    return { key, size: info.size, etag: meta.etag, uploaded: info.mtime ?? new Date(0), origin: meta.origin }
  }

  async function statOf(key: string): Promise<StoredLog | null> {
    let info: Deno.FileInfo
    try {
      info = await Deno.stat(pathOf(key))
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null
      throw error
    }
    return info.isFile ? describe(key, info) : null
  }

  /** Writes an object and its metadata (etag from the bytes as they stream past). */
  async function store(key: string, body: Uint8Array | ReadableStream<Uint8Array>, length: number, origin: string | null): Promise<string> {
    const hash = createHash('sha256')
    const hashing = (body instanceof Uint8Array ? new Blob([body as Uint8Array<ArrayBuffer>]).stream() : body).pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          hash.update(chunk)
          controller.enqueue(chunk)
        },
      }),
    )
    await writeWhole(pathOf(key), hashing, length)
    const digest = hash.digest('hex')
    await writeWhole(metaPathOf(key), encodeMeta({ version: versionOf(await Deno.stat(pathOf(key))), etag: digest.slice(0, 32), origin }), null)
    return digest
  }

  return {
    async list(prefix) {
      const directory = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : ''
      const found: StoredLog[] = []
      for await (const [key, info] of walk(base, directory)) {
        if (key.startsWith(prefix)) found.push({ ...(await describe(key, info)), origin: null })
      }
      return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    },
    head: statOf,
    async read(key, offset, length) {
      let file: Deno.FsFile
      try {
        file = await Deno.open(pathOf(key), { read: true })
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return null
        throw error
      }
      try {
        await file.seek(offset, Deno.SeekMode.Start)
        const buffer = new Uint8Array(Math.max(0, length))
        let filled = 0
        while (filled < buffer.length) {
          const read = await file.read(buffer.subarray(filled))
          if (read === null) break
          filled += read
        }
        return buffer.subarray(0, filled)
      } finally {
        file.close()
      }
    },
    async write(key, body, length) {
      await store(key, body, length, null)
    },
    async copy(source, target, origin) {
      const current = await statOf(source.key)
      if (!current || current.etag !== source.etag) return null
      return store(target, (await Deno.open(pathOf(source.key), { read: true })).readable, source.size, origin)
    },
    async delete(keys) {
      for (const key of typeof keys === 'string' ? [keys] : keys) {
        for (const path of [pathOf(key), metaPathOf(key)]) {
          await Deno.remove(path).catch((error) => {
            if (!(error instanceof Deno.errors.NotFound)) throw error
          })
          await pruneEmptyDirectories(base, path)
        }
      }
    },
  }
}

/** The folder beside the objects that holds their metadata. */
const META = '.meta'

interface Meta {
  /** Which version of the file the etag is for: inode, size and modification time. */
  readonly version: string
  readonly etag: string
  readonly origin: string | null
}

function versionOf(info: Deno.FileInfo): string {
  return `${info.ino ?? 0}-${info.size}-${info.mtime?.getTime() ?? 0}`
}

function encodeMeta(meta: Meta): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(meta))
}

async function readMeta(path: string): Promise<Meta | null> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as Meta
  } catch {
    return null // none yet, or unreadable: hashed again
  }
}

/** Keys come from the app (library-path rules), but a key must never leave the root. */
function checkedKey(key: string): string {
  if (key === '' || key.startsWith('/') || key.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new Error(`invalid log store key: ${JSON.stringify(key)}`)
  }
  return key
}

/** Every file under `<base>/<directory>` as `[key, info]`, skipping the metadata and temporary files. */
async function* walk(base: string, directory: string): AsyncGenerator<[string, Deno.FileInfo]> {
  let entries: Deno.DirEntry[]
  try {
    entries = await Array.fromAsync(Deno.readDir(directory ? `${base}/${directory}` : base))
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return
    throw error
  }
  for (const entry of entries) {
    const key = directory ? `${directory}/${entry.name}` : entry.name
    if (key === META || entry.name.startsWith('.tmp-')) continue
    if (entry.isDirectory) yield* walk(base, key)
    else if (entry.isFile) yield [key, await Deno.stat(`${base}/${key}`)]
  }
}

/** Removes the now-empty folders above a deleted file, so listings do not walk a growing tree of empty ones. */
async function pruneEmptyDirectories(base: string, path: string): Promise<void> {
  for (let directory = path.slice(0, path.lastIndexOf('/')); directory.length > base.length; directory = directory.slice(0, directory.lastIndexOf('/'))) {
    try {
      await Deno.remove(directory) // fails unless empty
    } catch {
      return
    }
  }
}

/**
 * Writes `length` bytes (any length when null) through a temporary file renamed into place; a body that
 * ends early or runs past `length` fails and leaves nothing behind.
 */
async function writeWhole(path: string, body: Uint8Array | ReadableStream<Uint8Array>, length: number | null): Promise<void> {
  const directory = path.slice(0, path.lastIndexOf('/'))
  await Deno.mkdir(directory, { recursive: true })
  const temporary = `${directory}/.tmp-${crypto.randomUUID()}`
  try {
    const file = await Deno.open(temporary, { write: true, createNew: true })
    let written = 0
    try {
      const chunks = body instanceof Uint8Array ? [body] : body
      for await (const chunk of chunks) {
        written += chunk.byteLength
        if (length !== null && written > length) throw new Error(`the body is longer than its declared ${length} bytes`)
        for (let offset = 0; offset < chunk.byteLength; ) offset += await file.write(chunk.subarray(offset))
      }
    } finally {
      file.close()
    }
    if (length !== null && written !== length) throw new Error(`the body ended after ${written} of its declared ${length} bytes`)
    await Deno.rename(temporary, path)
  } catch (error) {
    await Deno.remove(temporary).catch(() => undefined)
    throw error
  }
}
