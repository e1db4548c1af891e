import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * Reading the project's Markdown as GitHub renders it: which anchors a page
 * has, which relative links it makes, and which commands its code shows.
 * Used by test/repo/docs.test.ts (the link and command check).
 */

/** A heading's text as GitHub slugs it: inline markup and links reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*~]/g, '')
    .trim();
}

/**
 * GitHub's heading slug: lowercase; every character that is not a letter,
 * a digit, a space, `-` or `_` dropped; spaces become `-`. A repeated slug
 * gets `-1`, `-2`, … in order of appearance.
 */
export function slugOf(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The page's lines outside fenced code blocks, with their numbers (1-based). */
function proseLines(text: string): { line: string; number: number }[] {
  const out: { line: string; number: number }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const opener = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (opener && (fence === undefined || opener.startsWith(fence))) {
      fence = fence === undefined ? opener : undefined;
      return;
    }
    if (fence === undefined) out.push({ line, number: index + 1 });
  });
  return out;
}

/** Every anchor a page offers: its headings' slugs (numbered as GitHub numbers repeats) and explicit `id`/`name` anchors. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = slugOf(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
  }
  return anchors;
}

export interface Link {
  /** The page the link is on, relative to the root. */
  page: string;
  line: number;
  target: string;
}

/** The relative links of a page (inline `[text](target)` links and images), outside code. */
export function relativeLinksOf(page: string, text: string): Link[] {
  const links: Link[] = [];
  for (const { line, number } of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      links.push({ page, line: number, target });
    }
  }
  return links;
}

/** Why a relative link does not resolve, or undefined when it does. */
export function brokenLink(root: string, link: Link): string | undefined {
  const [pathPart = '', anchor] = link.target.split('#', 2);
  const file = pathPart === '' ? link.page : normalize(join(dirname(link.page), decodeURIComponent(pathPart)));
  if (file.startsWith('..')) return `points outside the repository (${file})`;
  const absolute = join(root, file);
  if (!existsSync(absolute)) return `no such file: ${file}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(absolute).isDirectory() || !file.endsWith('.md')) return `an anchor on something that is not a Markdown page: ${file}#${anchor}`;
  const anchors = anchorsOf(readFileSync(absolute, 'utf8'));
  return anchors.has(decodeURIComponent(anchor)) ? undefined : `no heading "#${anchor}" in ${file}`;
}

/** The Markdown pages the check covers: README.md, docs/**, client/README.md, bench/*.md. */
export function documentationPages(root: string): string[] {
  const under = (dir: string, deep: boolean): string[] =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir)).flatMap((name) => {
          const path = join(dir, name);
          if (statSync(join(root, path)).isDirectory()) return deep ? under(path, deep) : [];
          return name.endsWith('.md') ? [path] : [];
        })
      : [];
  return ['README.md', ...under('docs', true), 'client/README.md', ...under('bench', false)]
    .filter((page) => existsSync(join(root, page)))
    .map((page) => relative('.', page));
}

/**
 * The shell commands a page shows: each line of its shell code blocks
 * (```sh, bash, shell or console; backslash continuations joined) and each
 * inline code span, as written. Other blocks (diagrams, JSON) show no commands.
 */
export function shownCommands(text: string): { line: number; command: string }[] {
  const shown: { line: number; command: string }[] = [];
  const lines = text.split('\n');
  let fence: string | undefined;
  let shell = false;
  let pending: { line: number; command: string } | undefined;
  lines.forEach((line, index) => {
    const opener = /^\s*(```+|~~~+)\s*(\w*)/.exec(line);
    if (opener && (fence === undefined || (opener[1] as string).startsWith(fence))) {
      shell = fence === undefined && /^(sh|bash|shell|console)$/.test(opener[2] ?? '');
      fence = fence === undefined ? opener[1] : undefined;
      return;
    }
    if (fence !== undefined) {
      if (!shell) return;
      const joined = pending ? `${pending.command} ${line.trim()}` : line;
      const at = pending?.line ?? index + 1;
      if (/\\\s*$/.test(joined)) pending = { line: at, command: joined.replace(/\\\s*$/, '') };
      else {
        pending = undefined;
        shown.push({ line: at, command: joined });
      }
      return;
    }
    for (const match of line.matchAll(/`([^`]+)`/g)) shown.push({ line: index + 1, command: match[1] as string });
  });
  return shown;
}
