import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
export const SCHEMATHESIS = path.join(ROOT, '.venv/bin/schemathesis');
export const FUZZ_CONFIG = path.join(__dirname, 'schemathesis.toml');

/** The checks the issue names: no 5xx, and status, content type and body as the document declares. */
export const FUZZ_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
];

export interface FuzzRun {
  exitCode: number | null;
  output: string;
}

/** Runs `schemathesis run` over every operation of `${url}/api/openapi.json`; resolves with its exit code and output. */
export function runSchemathesis(opts: {
  url: string;
  jobId: string;
  maxExamples: number;
  seed: number;
  timeoutMs: number;
  /** Test phases (examples, coverage, fuzzing, stateful); all of them when absent. */
  phases?: string[];
}): Promise<FuzzRun> {
  const args = [
    '--config-file',
    FUZZ_CONFIG,
    'run',
    `${opts.url}/api/openapi.json`,
    '--url',
    opts.url,
    '--checks',
    FUZZ_CHECKS.join(','),
    '--max-examples',
    String(opts.maxExamples),
    '--seed',
    String(opts.seed),
    ...(opts.phases ? ['--phases', opts.phases.join(',')] : []),
    // One worker: with two, Hypothesis's lambda-source parsing races in CPython's ast module ("AST constructor
    // recursion depth mismatch"), a crash of the tool that reads as an error on a random operation.
    '--workers',
    '1',
    '--request-timeout',
    '30',
    '--no-color',
  ];
  const child = spawn(SCHEMATHESIS, args, {
    cwd: ROOT,
    env: { ...process.env, LAKEWARD_FUZZ_JOB_ID: opts.jobId, NO_COLOR: '1', COLUMNS: '120' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const timer = setTimeout(() => {
    output += `\n[fuzz] schemathesis ran longer than ${opts.timeoutMs} ms and was stopped`;
    child.kill('SIGTERM');
  }, opts.timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

/** What schemathesis found: its FAILURES and ERRORS sections (the whole output if it has neither). */
export function findings(output: string): string {
  const start = output.search(/^\s*=+ (FAILURES|ERRORS) =+\s*$/m);
  if (start < 0) return output.trim();
  const rest = output.slice(start + 1);
  const end = rest.search(/^\s*=+ (WARNINGS|SUMMARY) =+\s*$/m);
  return output.slice(start, end >= 0 ? start + 1 + end : undefined).trim();
}
