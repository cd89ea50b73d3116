/**
 * Whether a path (or a stack line holding one) points into third-party code: the reference's `/vendor/` and
 * `/node_modules/` (§2.3 step 6), Python's package directories, and the same with Windows separators
 * (`C:\xampp\htdocs\shop\vendor\…`). One rule for the culprit frame, `skip_vendor` and the dashboard's folds.
 */
const LIBRARY_DIRECTORY = /[\\/](?:vendor|node_modules|site-packages|dist-packages)[\\/]/

export function isLibraryPath(text: string): boolean {
  return LIBRARY_DIRECTORY.test(text)
}
