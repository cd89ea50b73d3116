import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { build } from 'esbuild'

/** The original source of the bundles: the throw is on line 3, `new` at column 11. */
export const CHECKOUT_SOURCE = [
  'export function applyCoupon(cart: { total: number }, code: string): number {',
  '  if (code.length > 3) {',
  '    throw new TypeError(`Coupon ${code} is invalid`)',
  '  }',
  '  return cart.total',
  '}',
  '',
].join('\n')

const ENTRY = ["import { applyCoupon } from './checkout'", 'export function run(code: string) {', '  return applyCoupon({ total: 10 }, code)', '}', ''].join('\n')

export interface BuiltBundle {
  readonly code: string
  readonly map: string
}

/**
 * A minified esbuild bundle of the fixture with an external source map (`sourcesContent` included). `banner`
 * shifts the generated positions, as a second build of the same code does.
 */
export async function buildBundle(banner = ''): Promise<BuiltBundle> {
  const dir = mkdtempSync(join(tmpdir(), 'loupe-maps-'))
  mkdirSync(join(dir, 'src'))
  writeFileSync(join(dir, 'src', 'checkout.ts'), CHECKOUT_SOURCE)
  writeFileSync(join(dir, 'src', 'main.ts'), ENTRY)
  const result = await build({
    entryPoints: [join(dir, 'src', 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'shop',
    sourcemap: 'external',
    sourcesContent: true,
    banner: { js: banner },
    outfile: join(dir, 'dist', 'app.js'),
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles.find((file) => file.path.endsWith('.js'))!.text
  const map = result.outputFiles.find((file) => file.path.endsWith('.map'))!.text
  return { code, map }
}

/** Runs the bundle under `filename` and returns the V8 stack of the error it throws, frames only. */
export function thrownStack(bundle: BuiltBundle, filename: string): string {
  const sandbox: { shop?: { run(code: string): number }; error?: Error } = {}
  runInNewContext(`${bundle.code}\ntry { shop.run('LONGCODE') } catch (e) { error = e }`, sandbox, { filename })
  return sandbox.error!.stack!.split('\n').slice(1).filter((line) => line.includes(filename)).join('\n')
}
