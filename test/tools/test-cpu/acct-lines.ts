/** dump-acct lines for the tests of tools/test-cpu, in its format (times in ticks of 1/100 s). */
export function acctLine(comm: string, pid: number, ppid: number, cpuTicks: number, elapsedTicks: number, start = 'Sun Dec  6 15:45:31 2026'): string {
  const number = (value: number) => value.toFixed(2).padStart(9);
  return [
    comm.padEnd(16),
    'v3',
    number(cpuTicks),
    number(0),
    number(elapsedTicks),
    '     0',
    '     0',
    number(1000),
    number(0),
    String(pid).padStart(8),
    String(ppid).padStart(8),
    '    X',
    '       0',
    '__      ',
    start,
  ].join('|');
}
