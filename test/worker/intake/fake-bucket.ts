/** The slice of an R2 bucket the import reads (`get` with a range, `head`), over in-memory objects. */
export function fakeBucket(objects: Record<string, Uint8Array>): R2Bucket {
  return {
    async head(key: string) {
      return objects[key] ? ({ key, size: objects[key].length } as unknown as R2Object) : null
    },
    async get(key: string, options?: { range?: { offset: number; length: number } }) {
      const bytes = objects[key]
      if (!bytes) return null
      const { offset = 0, length = bytes.length } = options?.range ?? {}
      const slice = bytes.slice(offset, offset + length)
      return { arrayBuffer: async () => slice.buffer } as unknown as R2ObjectBody
    },
  } as unknown as R2Bucket
}
