import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

/** What the figures were measured on (printed at the top of every run and in the report). */
export interface MachineInfo {
  date: string;
  nproc: number;
  cpu_model: string;
  memory_gib: number;
  free_g: string;
  node: string;
  platform: string;
  postgres: string | null;
}

function run(command: string, args: string[]): string | null {
  try {
    return execFileSync(command, args, { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trimEnd();
  } catch {
    return null;
  }
}

export function machineInfo(postgresVersion: string | null = null): MachineInfo {
  return {
    date: run('date', []) ?? new Date().toString(),
    nproc: Number(run('nproc', []) ?? cpus().length),
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_gib: Math.round(totalmem() / 1024 ** 3),
    free_g: run('free', ['-g']) ?? 'free(1) not available',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    postgres: postgresVersion,
  };
}

export function printMachine(info: MachineInfo): void {
  console.log(`date: ${info.date}`);
  console.log(`machine: ${info.nproc} CPUs (${info.cpu_model}), ${info.memory_gib} GiB, ${info.platform}`);
  console.log(`node: ${info.node}${info.postgres ? `, ${info.postgres}` : ''}`);
}
