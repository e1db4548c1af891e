import { cpus, loadavg, totalmem } from 'node:os';

/** The machine a result was measured on: results from different machines do not compare. */
export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  dynamodb: string;
  date: string;
  /** 1-minute load average when the run started and ended: a busy machine shows here. */
  loadAtStart: number;
  loadAtEnd?: number;
}

export function describeMachine(dynamodb: string): Machine {
  const all = cpus();
  return {
    cpuModel: all[0]?.model.trim() ?? 'unknown',
    cores: all.length,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    dynamodb,
    date: new Date().toISOString(),
    loadAtStart: loadavg()[0] ?? 0,
  };
}

export function finishMachine(machine: Machine): Machine {
  return { ...machine, loadAtEnd: loadavg()[0] ?? 0 };
}
