/**
 * The service for the throughput run, in its own process (forked by
 * throughput.ts): the Lambda entry point (lambda/contacts/api/contacts-entry.ts, configured
 * by the environment as on Lambda: logs and metrics on) behind the local
 * HTTP adapter, as `npm start` serves it. Nothing of the benchmark is on
 * the handler's client, except the injected delay of the latency-bound
 * comparison when BENCH_DYNAMO_DELAY_MS is set (injected-delay.ts); this
 * file only counts requests and stdout bytes around it, and reports its CPU
 * time when asked.
 *
 * With BENCH_EMPTY_SERVICE set (the bare client's target, JSON), it serves the
 * empty service instead (empty-service.ts): the same calls behind the same adapter,
 * nothing else.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { tableNamesFromEnv } from '../../lambda/infrastructure/store/schema';
import { createHttpAdapter, listen, type ProxyHandler } from '../../local/harness/http-adapter';
import type { BareTarget } from './bare-client';
import { emptyServiceHandler } from './empty-service';
import { benchDocumentClient, entryPoint, injectedDelayMs } from './injected-delay';
import { EMPTY_SERVICE_ENV, type ServiceCommand, type ServiceMessage } from './ipc';

async function servedHandler(): Promise<ProxyHandler> {
  const empty = process.env[EMPTY_SERVICE_ENV];
  if (!empty) return entryPoint(injectedDelayMs());
  const deps = dynamoDependencies(benchDocumentClient(injectedDelayMs()), tableNamesFromEnv());
  return emptyServiceHandler(deps, JSON.parse(empty) as BareTarget);
}

const reply = (message: ServiceMessage) => process.send?.(message);

async function main(): Promise<void> {
  let stdoutBytes = 0;
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    stdoutBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;

  const handler = await servedHandler();
  let requests = 0;
  const server = createHttpAdapter((event, context) => {
    requests += 1;
    return handler(event, context);
  });
  const port = await listen(server, 0, '127.0.0.1');

  const profiler = new Session();
  const onCommand = async (command: ServiceCommand) => {
    switch (command.type) {
      case 'stats': {
        const cpu = process.cpuUsage();
        reply({ type: 'stats', cpuUs: cpu.user + cpu.system, stdoutBytes, requests });
        return;
      }
      case 'profile-start':
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
        reply({ type: 'profiling' });
        return;
      case 'profile-stop': {
        const { profile } = await profiler.post('Profiler.stop');
        writeFileSync(command.file, JSON.stringify(profile));
        profiler.disconnect();
        reply({ type: 'profiled', file: command.file });
        return;
      }
      case 'stop':
        server.closeAllConnections();
        server.close(() => process.exit(0));
    }
  };
  process.on('message', (command: ServiceCommand) => {
    onCommand(command).catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
  });
  process.on('disconnect', () => process.exit(0));
  reply({ type: 'ready', port });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
