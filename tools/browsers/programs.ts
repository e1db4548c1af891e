/**
 * Where the browser engines' programs are, each from a Debian package (none
 * is ever downloaded by a driver): tools/browsers/engines.ts launches them,
 * and `npm test`'s prerequisite check (test/support/prerequisites.ts) names
 * the package of each one missing. `.ci/run` installs them.
 */
export const CHROMIUM = '/usr/bin/chromium';
/** Firefox ESR, driven over WebDriver BiDi. */
export const FIREFOX = '/usr/bin/firefox-esr';
/** WebKitGTK's WebDriver, which starts the WebKitGTK MiniBrowser. */
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
/** The X server WebKitGTK draws into (it has no headless mode). */
export const XVFB = '/usr/bin/Xvfb';

/** The programs and the Debian package of each, in the order the suite uses them. */
export const BROWSER_PROGRAMS: readonly { file: string; name: string; pkg: string }[] = [
  { file: CHROMIUM, name: 'Chromium', pkg: 'chromium' },
  { file: FIREFOX, name: 'Firefox ESR', pkg: 'firefox-esr' },
  { file: WEBKIT_DRIVER, name: "WebKitGTK's WebDriver", pkg: 'webkit2gtk-driver' },
  { file: XVFB, name: 'Xvfb', pkg: 'xvfb' },
];
