/** Debian's Chromium (package `chromium`); `.ci/run` installs it. `CHROMIUM_PATH` overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
