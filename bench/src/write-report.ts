/**
 * Rebuilds the report (docs/benchmarks.md, or bench/results/short/benchmarks.md with --short)
 * from the saved results in bench/results/, without running anything.
 *
 *   node --conditions=@cartwright/source --import tsx bench/src/write-report.ts [--short]
 */
import { parseArgs } from './lib/args';
import { writeReport } from './report/write-report';

console.log(`report written to ${writeReport(parseArgs())}`);
