import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { QUIET_WRANGLER_ENV } from '../../../tools/wrangler-env.ts'

const ROOT = new URL('../../../', import.meta.url).pathname

export interface RunningWorker {
  readonly url: string
  stop(): Promise<void>
}

/**
 * Runs the real worker with `wrangler dev` on a free port, on its own embedded database (a fresh
 * `--persist-to` directory), and waits for `/?api=health`. `vars` go through a private env file, which also
 * keeps a developer's own `.dev.vars` out of the test.
 */
export async function startWorker(vars: Record<string, string> = {}): Promise<RunningWorker> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-e2e-'))
  const envFile = join(dir, 'test.env')
  writeFileSync(envFile, Object.entries(vars).map(([key, value]) => `${key}=${dotenvQuote(value)}`).join('\n') + '\n', { mode: 0o600 })
  const [port, inspectorPort] = [await freePort(), await freePort()]
  const child = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(inspectorPort), '--persist-to', join(dir, 'state'),
      '--env-file', envFile, '--show-interactive-dev-session=false', '--log-level', 'warn'],
    { cwd: ROOT, env: { ...process.env, ...QUIET_WRANGLER_ENV }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    await killGroup(child)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForHealth(url, child, () => output)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, stop }
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output()}`)
    try {
      const response = await fetch(`${url}/?api=health`)
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`wrangler dev did not become healthy within 60 s:\n${output()}`)
}

/** wrangler dev runs workerd as a child: end the whole process group we started, and only it. */
async function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    return
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // already gone
    }
  }, 5000)
  await exited
  clearTimeout(timer)
}

/**
 * dotenv keeps single-quoted values literally; double quotes would leave JSON's `\"` escapes in the value
 * (dotenv only expands `\n` there), which breaks `SERVICE_CONFIG`.
 */
function dotenvQuote(value: string): string {
  if (value.includes("'") || value.includes('\n')) throw new Error('test env values may not contain single quotes or newlines')
  return `'${value}'`
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
