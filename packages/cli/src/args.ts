import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ConfigError } from './config';
import { USAGE } from './usage';

/** The options of each command, as `node:util` `parseArgs` reads them (strict: unknown flags are refused). */
const OPTIONS = {
  serve: {
    'no-worker': { type: 'boolean' },
    'no-reconcile': { type: 'boolean' },
  },
  worker: {
    'interval-ms': { type: 'string' },
    'no-reconcile': { type: 'boolean' },
  },
  reconcile: {
    'older-than-ms': { type: 'string' },
    limit: { type: 'string' },
  },
  migrate: {},
  seed: { demo: { type: 'boolean' } },
  'keys create': {
    type: { type: 'string' },
    mode: { type: 'string' },
    name: { type: 'string' },
  },
} as const satisfies Record<string, NonNullable<ParseArgsConfig['options']>>;

export type CommandName = keyof typeof OPTIONS;
export const COMMANDS = Object.keys(OPTIONS) as CommandName[];

type Values<C extends CommandName> = {
  [K in keyof (typeof OPTIONS)[C]]?: (typeof OPTIONS)[C][K] extends { type: 'boolean' } ? boolean : string;
};

/** What the command line asks for. */
export type Invocation =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { [C in CommandName]: { kind: 'command'; command: C; values: Values<C> } }[CommandName];

/**
 * Reads `argv` (without node and the script): `cartwright <command> [options]`, where `keys
 * create` is one command of two words. Both `--flag value` and `--flag=value` work; an unknown
 * flag, a missing value or a stray argument is a {@link ConfigError} that names it and shows the
 * command's usage. `--help`/`-h` anywhere prints the usage of the command (or of all);
 * `--version`/`-v` prints the version.
 */
export function readInvocation(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    return { kind: 'help', text: USAGE.main };
  }
  if (first === '--version' || first === '-v' || first === 'version') return { kind: 'version' };
  let command: string = first;
  let args = rest;
  if (first === 'keys') {
    if (rest[0] === '--help' || rest[0] === '-h' || rest[0] === undefined)
      return { kind: 'help', text: USAGE.keys };
    if (rest[0] !== 'create') throw new ConfigError(`Unknown keys command '${rest[0]}'.\n\n${USAGE.keys}`);
    command = 'keys create';
    args = rest.slice(1);
  }
  if (!isCommand(command)) throw new ConfigError(`Unknown command '${command}'.\n\n${USAGE.main}`);
  const usage = USAGE[command === 'keys create' ? 'keys' : command];
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help', text: usage };
  try {
    const { values } = parseArgs({
      args: [...args],
      options: OPTIONS[command],
      strict: true,
      allowPositionals: false,
    });
    return { kind: 'command', command, values } as Invocation;
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(`${message}\n\n${usage}`);
  }
}

function isCommand(name: string): name is CommandName {
  return Object.hasOwn(OPTIONS, name);
}

/** A whole number ≥ `min` from a flag's text (or the default when the flag is absent). */
export function integerFlag(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < min) {
    throw new ConfigError(`--${name} must be a whole number ≥ ${min}, got '${raw}'`);
  }
  return value;
}

/** One of `choices` from a flag's text (or the default when the flag is absent). */
export function choiceFlag<T extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (raw === undefined) return fallback;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(`--${name} must be ${choices.join(' or ')}, got '${raw}'`);
}
