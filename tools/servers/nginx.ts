import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onFreePort } from '../free-port.ts'
import { NGINX_USER } from './nginx-user.ts'

export const NGINX_BINARY = '/usr/sbin/nginx'

export interface NginxServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string
  close(): Promise<void>
}

/**
 * A real web server for the connector tests (issue 15): Debian's nginx, on a loopback port, with its own temp
 * prefix and configuration (not the system service). Tests inside workerd cannot touch files, so the served
 * files are written over WebDAV (`PUT`, `DELETE`, `MOVE` — a move keeps the file's mtime and size, hence its
 * ETag, as a logrotate rename does):
 * - `/files/…` plain files;
 * - `/private/…` the same behind basic auth (`NGINX_USER`);
 * - `/flaky/<bucket>/…` drops the connection (nginx's 444) on every ranged GET not starting at byte 0 while
 *   `/drop/<bucket>` exists: a file's first chunk arrives, the next one does not (a dropped connection mid-file);
 * - `/redirect/…` answers 302 to the same path under `/files/`.
 */
export async function startNginx(pickPort?: () => Promise<number>): Promise<NginxServer> {
  if (!existsSync(NGINX_BINARY)) throw new Error(`${NGINX_BINARY} is missing: install it (apt-get install -y nginx-light); .ci/run does.`)
  return onFreePort(startNginxOn, pickPort)
}

async function startNginxOn(port: number): Promise<NginxServer> {
  const prefix = await mkdtemp(join(tmpdir(), 'loupe-nginx-'))
  const www = join(prefix, 'www')
  for (const dir of [www, join(www, 'files'), join(www, 'private'), join(www, 'flaky'), join(www, 'drop'), join(prefix, 'tmp')]) await mkdir(dir, { recursive: true })
  await writeFile(join(prefix, 'htpasswd'), `${NGINX_USER.username}:{PLAIN}${NGINX_USER.password}\n`)
  const dav = 'dav_methods PUT DELETE MOVE; create_full_put_path on; dav_access user:rw group:rw all:r;'
  const config = `
${process.getuid?.() === 0 ? 'user root root;' : ''}
daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  default_type text/plain;
  client_max_body_size 64m;
  map $http_range $ranged_later { default 0; "~^bytes=0-" 0; "~^bytes=" 1; }
  server {
    listen 127.0.0.1:${port};
    root ${www};
    location /files/ { ${dav} }
    location /drop/ { ${dav} }
    location /private/ { auth_basic "logs"; auth_basic_user_file ${prefix}/htpasswd; ${dav} }
    location ~ ^/flaky/(?<bucket>[^/]+)/ {
      set $drop $ranged_later;
      if (-f ${www}/drop/$bucket) { set $drop "\${drop}x"; }
      if ($drop = "1x") { return 444; }
      ${dav}
    }
    location /redirect/ { rewrite ^/redirect/(.*)$ /files/$1 redirect; }
  }
}
`
  const configFile = join(prefix, 'nginx.conf')
  await writeFile(configFile, config)
  const child: ChildProcess = spawn(NGINX_BINARY, ['-p', prefix, '-c', configFile, '-e', join(prefix, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    }
    await rm(prefix, { recursive: true, force: true })
  }
  try {
    await waitForNginx(port, () => (child.exitCode !== null ? `nginx exited (${child.exitCode}): ${stderr}` : null))
  } catch (error) {
    await close()
    throw error
  }
  return { url: `http://127.0.0.1:${port}`, close }
}

/**
 * Until nginx itself answers on the port: its `/redirect/` 302 with `Server: nginx`. A bare connect would also
 * succeed against another process holding the port, while this nginx exits with "Address already in use".
 */
async function waitForNginx(port: number, failed: () => string | null): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const problem = failed()
    if (problem) throw new Error(problem)
    const response = await fetch(`http://127.0.0.1:${port}/redirect/probe`, { redirect: 'manual', signal: AbortSignal.timeout(2_000) }).catch(() => null)
    if (response?.status === 302 && response.headers.get('server')?.startsWith('nginx')) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`nginx did not answer on 127.0.0.1:${port}`)
}
