/**
 * What `work` writes to stdout and stderr (log lines, EMF metrics), kept
 * from the terminal and parsed: every line that is a JSON object.
 */
export async function linesWrittenBy<T>(work: () => Promise<T>): Promise<{ value: T; lines: Record<string, any>[] }> {
  const written: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }),
  );
  try {
    const value = await work();
    const lines = written
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, any>);
    return { value, lines };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
