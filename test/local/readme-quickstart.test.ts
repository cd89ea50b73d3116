/**
 * The README's quick start, run as written: `PORT=… SERVICE_TOKEN=change-me npm start`, then the curl commands
 * between its `<!-- quickstart -->` markers (only the port is changed, to a free one), on the sample log the
 * repository ships. If the README drifts from what the service does, this fails.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../tools/free-port.ts'
import { killGroup } from '../../tools/worker-process.ts'
import { QUIET_WRANGLER_ENV } from '../../tools/wrangler-env.ts'

const ROOT = new URL('../..', import.meta.url).pathname
const run = promisify(execFile)

/** The shell blocks between the quickstart markers: the start command, then the curl commands. */
function quickstartBlocks(): { start: string; commands: string[] } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const section = /<!-- quickstart[^>]*-->([\s\S]*?)<!-- \/quickstart -->/.exec(readme)?.[1]
  if (!section) throw new Error('README.md has no quickstart section')
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim())
  const commands = blocks[1]!.replace(/\\\n\s*/g, '').split('\n').map((line) => line.trim()).filter(Boolean)
  return { start: blocks[0]!, commands }
}

let child: ChildProcess
let stateDir: string
let port: number
let output = ''
const { start, commands } = quickstartBlocks()

beforeAll(async () => {
  port = await freePort()
  stateDir = mkdtempSync(join(tmpdir(), 'loupe-quickstart-'))
  const command = start.replace('PORT=9000', `PORT=${port}`)
  expect(command).toContain(`PORT=${port} SERVICE_TOKEN=change-me npm start`)
  child = spawn('bash', ['-c', command], {
    cwd: ROOT,
    env: { ...process.env, ...QUIET_WRANGLER_ENV, LOUPE_STATE_DIR: stateDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  child.stdout!.on('data', (chunk) => (output += String(chunk)))
  child.stderr!.on('data', (chunk) => (output += String(chunk)))
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`)
    const ok = await fetch(`http://127.0.0.1:${port}/?api=health`).then((r) => r.ok, () => false)
    if (ok) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`npm start did not answer within 90 s:\n${output.slice(-2000)}`)
}, 120_000)

afterAll(async () => {
  if (child) await killGroup(child)
  rmSync(stateDir, { recursive: true, force: true })
})

describe('the README quick start', { timeout: 60_000 }, () => {
  it('announces that cron triggers fire locally', () => {
    expect(output).toContain('Cron triggers fire locally on their schedule (UTC): */15 * * * *')
  })

  it('asks for the token it was started with', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/?api=issues`)).status).toBe(401)
  })

  it('uploads the sample log and lists its issues, with the commands exactly as written', async () => {
    expect(commands).toHaveLength(2)
    const [upload, list] = await sequential(commands.map((line) => line.replaceAll('127.0.0.1:9000', `127.0.0.1:${port}`)))
    const imported = JSON.parse(upload!)
    expect(imported).toMatchObject({ files: 1, events: 6, groups: 4, errors: [] })
    // What the README says the answer shows: 8 entries, 6 stored, the INFO and DEBUG lines skipped by severity.
    expect(imported.file_results).toEqual([
      { path: 'billing/laravel.log', format: 'laravel', read: 8, stored: 6, skipped: { INFO: 1, DEBUG: 1 }, already_stored: 0, unparseable: 0 },
    ])
    const issues = JSON.parse(list!) as { data: { title: string; severity: string; count: number }[] }
    expect(issues.data.map((issue) => [issue.severity, issue.count]).sort()).toEqual([
      ['CRITICAL', 1],
      ['ERROR', 2],
      ['ERROR', 2],
      ['WARNING', 1],
    ])
  })
})

async function sequential(lines: string[]): Promise<string[]> {
  const outputs: string[] = []
  for (const line of lines) outputs.push((await run('bash', ['-c', line], { cwd: ROOT })).stdout)
  return outputs
}
