/** Messages to the page's developer, each kind said once per page (a failing API must not flood the console). */
const said = new Set<string>();

export function tellOnce(kind: string, text: string, level: 'warn' | 'error' = 'warn'): void {
  if (said.has(kind)) return;
  said.add(kind);
  console[level](`[ContactsIngest] ${text}`);
}
