import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { sourceLink } from '../../../../worker/plugins/releases/release-settings.ts'
import { bundledMaps } from '../../../../worker/plugins/releases/sentry-cli/artifact-bundle.ts'

const settings = (template: string, ref = '') => ({ repo_url_template: template, default_ref: ref, configured: template !== '' })
const GITHUB = 'https://github.com/acme/app/blob/{ref}/{path}#L{line}'

describe('sourceLink (reference §4.4)', () => {
  it.each([
    ['app/Services/Checkout.php:42', '', 'https://github.com/acme/app/blob/main/app/Services/Checkout.php#L42'],
    ['/srv/app/src/a b.ts:7:3', 'v2', 'https://github.com/acme/app/blob/v2/srv/app/src/a%20b.ts#L7'],
    ['https://shop.example/assets/app.js:1:200', 'release/1', 'https://github.com/acme/app/blob/release%2F1/assets/app.js#L1'],
    ['~/assets/app.js:3:1', '', 'https://github.com/acme/app/blob/main/assets/app.js#L3'],
    ['src/no-line.ts', '', 'https://github.com/acme/app/blob/main/src/no-line.ts#L'],
  ])('%s with ref %j → %s', (frame, ref, link) => {
    expect(sourceLink(settings(GITHUB, ref), frame)).toBe(link)
  })

  it('is null without a template or a frame', () => {
    expect(sourceLink(settings(''), 'src/a.ts:1')).toBeNull()
    expect(sourceLink(settings(GITHUB), null)).toBeNull()
    expect(sourceLink(settings(GITHUB), '  ')).toBeNull()
  })
})

describe('bundledMaps (sentry-cli artifact bundles)', () => {
  const encode = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value))
  it('names each map after the minified file whose sourcemap header points at it, else after its own URL', () => {
    const files = {
      'files/_/_/a.js': { type: 'minified_source', url: '~/assets/a-1f.js', headers: { sourcemap: 'a-1f.js.map' } },
      'files/_/_/a.js.map': { type: 'source_map', url: '~/assets/a-1f.js.map' },
      'files/_/_/maps/b.map': { type: 'source_map', url: '~/maps/b.js.map' },
      'files/_/_/c.js': { type: 'minified_source', url: '~/assets/c.js', headers: { sourcemap: '../maps/c.map' } },
      'files/_/_/c.map': { type: 'source_map', url: '~/maps/c.map' },
    }
    const zip = zipSync({
      'manifest.json': encode({ files }),
      'files/_/_/a.js': encode('a'),
      'files/_/_/a.js.map': encode({ mappings: 'A' }),
      'files/_/_/maps/b.map': encode({ mappings: 'B' }),
      'files/_/_/c.js': encode('c'),
      'files/_/_/c.map': encode({ mappings: 'C' }),
    })
    const maps = bundledMaps(zip).map((map) => [map.file, new TextDecoder().decode(map.bytes)])
    expect(maps).toEqual([
      ['a-1f.js', '{"mappings":"A"}'],
      ['b.js', '{"mappings":"B"}'],
      ['c.js', '{"mappings":"C"}'],
    ])
  })

  it('refuses what is not a bundle', () => {
    expect(() => bundledMaps(encode('not a zip'))).toThrow('The artifact bundle is not a readable zip file.')
    expect(() => bundledMaps(zipSync({ 'manifest.json': encode('{') }))).toThrow('The artifact bundle manifest is not JSON.')
  })
})
