/** Basic-auth user of nginx's `/private/` location (tools/servers/nginx.ts); no Node imports, so workerd tests can read it. */
export const NGINX_USER = { username: 'loupe', password: 'nginx-test-password' }
