import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { QUIET_WRANGLER_ENV } from '../wrangler-env.ts'
import { writeEnvFile } from '../env-file.ts'

const ROOT = new URL('../..', import.meta.url).pathname

export interface WorkerProcess {
  readonly url: string
  stop(): Promise<void>
}

/**
 * Runs the worker under `wrangler dev` (workerd, local D1/R2/Queues) with the given variables, on a free
 * port and a fresh persistence directory, and waits until `?api=health` answers.
 */
export async function startWorker(vars: Record<string, string>, label: string): Promise<WorkerProcess> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), `loupe-${label}-`))
  const envFile = join(dir, 'worker.env')
  writeEnvFile(envFile, vars)
  const child = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', join(dir, 'state'), '--show-interactive-dev-session=false', '--log-level', 'warn', '--env-file', envFile],
    { cwd: ROOT, env: { ...process.env, ...QUIET_WRANGLER_ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout?.on('data', (chunk) => (output += String(chunk)))
  child.stderr?.on('data', (chunk) => (output += String(chunk)))
  const url = `http://127.0.0.1:${port}`
  try {
    await waitForHealth(url, child)
  } catch (error) {
    child.kill('SIGKILL')
    throw new Error(`${label}: the worker did not start: ${(error as Error).message}\n${output.slice(-2000)}`)
  }
  return {
    url,
    stop: async () => {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 5000).unref()
      })
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${url}/?api=health`)
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error('timed out waiting for ?api=health')
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
