import type { Env } from '../../env.ts'

/**
 * The worker's environment on Workers: the shared variables and secrets (worker/env.ts) plus the bindings
 * of wrangler.toml, typed by `wrangler types` in worker/worker-configuration.d.ts (`npm run typegen`
 * rewrites it; `npm test` fails when it is out of date). Each binding is optional: a deployment may leave
 * any of them out.
 */
export interface CloudflareEnv extends Omit<Env, keyof Cloudflare.Env>, Partial<Cloudflare.Env> {}
