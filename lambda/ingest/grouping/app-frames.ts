import { isExtensionFrame } from './stack-frames';

/**
 * Which frames are the app's own (docs/report-issues.md#the-apps-own-frames): only those enter the fingerprint
 * (grouping rule version 3), and the others are shown dimmed. Pure. In order, the first that applies:
 *
 *   1. a map resolved the frame to a source under a package folder (`node_modules/`, …), to a source its map's
 *      `ignoreList` (or `x_google_ignoreList`) names, or to an SDK's own wrapper: not the app's. The SDK that
 *      marked the frame could not see this: it saw only the minified bundle, which holds the app and its packages;
 *   2. the SDK marked it `in_app: true`: the app's; `in_app: false`: not;
 *   3. the SDK marked another frame of the event `in_app: true` and this one not at all: not the app's (Go and
 *      others leave `false` out);
 *   4. its file or module is under a package folder, a runtime's own code, or an SDK's wrapper: not the app's;
 *   5. a browser frame (a script URL) of the page's world (http, https, file, blob, webpack): the app's; one of an
 *      extension, the engine or eval glue: not. A server frame (a path or module): the app's.
 */

/** What the rule reads of a frame. */
export interface FrameFacts {
  /** The script URL, or the server file's path. */
  file?: string;
  module?: string;
  /** As the SDK marked it; absent when it did not say. */
  inApp?: boolean;
  /** The map's original source, when a map resolved the frame, and whether the map's ignoreList names it. */
  original?: { source: string; ignored?: boolean };
}

/** Folders of packages and vendored code, in any language's layout. */
const PACKAGE_FOLDER = /(^|[/\\])(node_modules|bower_components|jspm_packages|vendor|site-packages|dist-packages|\.venv|venv|gems|pkg[/\\]mod)([/\\]|$)/;

/** A runtime's own code: Node's internals, Python's frozen modules, the JVM's and Go's standard libraries. */
const RUNTIME =
  /^(node:|internal[/\\]|<frozen |\/usr\/lib\/python\d|\/usr\/local\/lib\/python\d|\/usr\/(local\/)?go\/src\/|\/usr\/lib\/go[\w.-]*\/src\/)|^(java|javax|jdk|sun|com\.sun|kotlin|kotlinx|scala)\./;

/** An SDK's own wrapper around the app's callbacks: Sentry's (any SDK) and this service's browser SDK. */
const SDK_WRAPPER =
  /(^|[/\\])@sentry(-internal)?[/\\]|(^|[/\\.])sentry_sdk([/\\.]|$)|getsentry[/\\]sentry-go|(^|[/\\])@contacts-service[/\\]browser[/\\]|contacts-ingest(\.min)?\.js$/;

/** Path or module text that names code other than the app's. */
export const isOthersCode = (text: string | undefined): boolean =>
  text !== undefined && (PACKAGE_FOLDER.test(text) || RUNTIME.test(text) || SDK_WRAPPER.test(text));

/** A script URL a page loads (not an extension's, the engine's or eval glue). */
export const isPageScript = (file: string): boolean => !isExtensionFrame({ fn: '', file }) && /^(https?|file|blob|webpack|app):/i.test(file);

/** A frame of a server's code: a file path or module rather than a script URL. */
export const isServerFrame = (frame: Pick<FrameFacts, 'file' | 'module'>): boolean =>
  frame.module !== undefined || (frame.file !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(frame.file) && !/^<|^\[native code\]$|^native$/.test(frame.file));

/** Whether the frame is the app's (rules 1 to 5 above); `sdkMarked`: the SDK marked some frame of the event `in_app: true`. */
export function isAppFrame(frame: FrameFacts, sdkMarked: boolean): boolean {
  const { original } = frame;
  if (original && (original.ignored === true || isOthersCode(original.source))) return false;
  if (frame.inApp !== undefined) return frame.inApp;
  if (sdkMarked) return false;
  if (isOthersCode(frame.file) || isOthersCode(frame.module)) return false;
  return isServerFrame(frame) || (frame.file !== undefined && isPageScript(frame.file));
}

/** Each frame's verdict, for frames of one event (`sdkMarked` read from them). */
export function appFrameFlags(frames: readonly FrameFacts[]): boolean[] {
  const sdkMarked = frames.some((frame) => frame.inApp === true);
  return frames.map((frame) => isAppFrame(frame, sdkMarked));
}
