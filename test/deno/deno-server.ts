import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = new URL('../..', import.meta.url).pathname

export interface DenoServer {
  readonly url: string
  /** The directory the server keeps log files in (its LOGS_DIR). */
  readonly logsDir: string
  stop(): Promise<void>
}

/**
 * Starts test/deno/test-entry.ts under `deno serve` (the npm registry's `deno` package, from node_modules)
 * on a free loopback port with the given database settings and a fresh log directory.
 */
export async function startDenoServer(settings: Record<string, string>): Promise<DenoServer> {
  const logsDir = mkdtempSync(join(tmpdir(), 'loupe-deno-logs-'))
  const child = spawn(
    join(ROOT, 'node_modules/.bin/deno'),
    ['serve', '--allow-net', '--allow-env', '--allow-read', `--allow-write=${logsDir}`, '--host', '127.0.0.1', '--port', '0', 'test/deno/test-entry.ts'],
    { cwd: ROOT, env: { ...process.env, ...settings, LOGS_DIR: logsDir, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`deno serve did not start in 30 s:\n${output}`)), 30_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /Listening on (http:\/\/[^\s/]+)\//.exec(output)
      if (listening) {
        clearTimeout(timer)
        resolve(listening[1]!.replace('0.0.0.0', '127.0.0.1'))
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', (code) => reject(new Error(`deno serve exited (${code}):\n${output}`)))
  })
  // Keep the server's own log visible when a test fails (failures are logged, never swallowed).
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk))
  return {
    url,
    logsDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      rmSync(logsDir, { recursive: true, force: true })
    },
  }
}
