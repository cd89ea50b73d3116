import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeEnvFile } from './env-file.ts'
import { freePort, onFreePort } from './free-port.ts'
import { QUIET_WRANGLER_ENV } from './wrangler-env.ts'

const ROOT = new URL('..', import.meta.url).pathname

export interface RunningWorker {
  readonly url: string
  /** Everything wrangler and workerd printed so far (at the `logLevel` the worker was started with). */
  output(): string
  /** The DevTools protocol endpoint of `wrangler dev --inspector-port` (tools/bench/ingest-profile.ts). */
  readonly inspectorUrl: string
  /** Its `--persist-to` directory (local D1 and R2), for `wrangler d1 execute --local --persist-to`. */
  readonly stateDir: string
  stop(): Promise<void>
}

export interface WorkerOptions {
  logLevel?: 'warn' | 'info' | 'log' | 'debug'
  /** Where ports come from; freePort unless a test needs to hand it a taken one. */
  pickPort?: () => Promise<number>
}

/**
 * Runs the real worker under `wrangler dev` (workerd with local D1, R2 and Queues) on a free port and a fresh
 * `--persist-to` directory, and waits until `?api=health` answers. `vars` go through a private env file,
 * which also keeps a developer's own `.dev.vars` out of the run. Used by the bench and the dashboard tests. A port
 * taken between the probe and wrangler's bind ("Address already in use") is retried on another (free-port.ts).
 */
export async function startWorker(vars: Record<string, string> = {}, label = 'worker', options: WorkerOptions = {}): Promise<RunningWorker> {
  return onFreePort((port) => startWorkerOn(port, vars, label, options), options.pickPort)
}

async function startWorkerOn(port: number, vars: Record<string, string>, label: string, options: WorkerOptions): Promise<RunningWorker> {
  const dir = mkdtempSync(join(tmpdir(), `loupe-${label}-`))
  const envFile = join(dir, 'worker.env')
  writeEnvFile(envFile, vars)
  const inspectorPort = await freePort()
  // Detached: wrangler runs workerd as a grandchild, and only killing the whole group ends both.
  const child = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--inspector-port', String(inspectorPort), '--persist-to', join(dir, 'state'),
      '--env-file', envFile, '--show-interactive-dev-session=false', '--log-level', options.logLevel ?? 'warn'],
    { cwd: ROOT, env: { ...process.env, ...QUIET_WRANGLER_ENV }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  let output = ''
  child.stdout!.on('data', (chunk) => (output += String(chunk)))
  child.stderr!.on('data', (chunk) => (output += String(chunk)))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    await killGroup(child)
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForHealth(url, child, () => output)
  } catch (error) {
    await stop()
    throw new Error(`${label}: the worker did not start: ${(error as Error).message}`)
  }
  return { url, inspectorUrl: `http://127.0.0.1:${inspectorPort}`, output: () => output, stateDir: join(dir, 'state'), stop }
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output().slice(-2000)}`)
    try {
      // Bounded: a socket that accepts and never answers (the port was taken after all) must not hang the start.
      const response = await fetch(`${url}/?api=health`, { signal: AbortSignal.timeout(5_000) })
      if (response.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no healthy answer within 90 s:\n${output().slice(-2000)}`)
}

/** Ends the process group we started (wrangler and its workerd), and only it. */
export async function killGroup(child: ChildProcess): Promise<void> {
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
