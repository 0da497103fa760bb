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
  'members create': {
    email: { type: 'string' },
    role: { type: 'string' },
    'user-id': { type: 'string' },
    'base-url': { type: 'string' },
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
  if (first === 'members') {
    if (rest[0] === '--help' || rest[0] === '-h' || rest[0] === undefined)
      return { kind: 'help', text: USAGE.members };
    if (rest[0] !== 'create')
      throw new ConfigError(`Unknown members command '${rest[0]}'.\n\n${USAGE.members}`);
    command = 'members create';
    args = rest.slice(1);
  }
  if (!isCommand(command)) throw new ConfigError(`Unknown command '${command}'.\n\n${USAGE.main}`);
  const usage =
    USAGE[command === 'keys create' ? 'keys' : command === 'members create' ? 'members' : command];
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help', text: usage };
  try {
    const { values } = parseArgs({
      args: joinDashValues(args, OPTIONS[command]),
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

/**
 * `--limit -5` as `--limit=-5`: `parseArgs` refuses a value that starts with a dash as "ambiguous"
 * (it could be a forgotten value followed by another flag), which hides the real problem. A word
 * after a flag that takes a value is that value unless it is one of the command's flags (or
 * `--`), so the value's own check says what is wrong with it (`--limit must be …, got '-5'`).
 */
function joinDashValues(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    const next = args[i + 1];
    const name = word.startsWith('--') ? word.slice(2) : null;
    const takesValue = name !== null && Object.hasOwn(options, name) && options[name]?.type === 'string';
    if (takesValue && next?.startsWith('-') && !isFlag(next, options)) {
      out.push(`${word}=${next}`);
      i++;
    } else {
      out.push(word);
    }
  }
  return out;
}

function isFlag(word: string, options: NonNullable<ParseArgsConfig['options']>): boolean {
  if (word === '--' || word === '-h' || word === '--help') return true;
  return word.startsWith('--') && Object.hasOwn(options, word.slice(2).split('=')[0] as string);
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
