// Writes a benchmark's summary into docs/performance.md, in a section of its own between markers
// (`<!-- bench:NAME -->` ... `<!-- /bench:NAME -->`), so each benchmark regenerates its part and
// leaves the others as they were. The section says when, on what machine and with which command
// the figures were made. Lines go to the terminal as they are added.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The machine's load when the benchmark started (this module loads with it). */
const LOAD_AT_START = loadavg()[0] ?? 0;
/** Where the figures live. */
export const PERFORMANCE_DOC = path.join(root, 'docs/performance.md');

const HEADER = `# Performance

Figures of the benchmarks in \`scripts/bench/\`, each written here by the benchmark itself when it
finishes (a section per benchmark; run one again to regenerate its section). Medians of the runs
each states; ratios compare with a baseline measured in the same run on the same machine. All the
processes of a benchmark (the product, the sandbox Discord, the load generator) share the machine's
cores, so a busier machine gives lower figures: compare ratios, and run on a quiet machine.
`;

/** A benchmark's summary being written. */
export interface BenchReport {
  /** Prints a line and keeps it for the document. */
  line(text: string): void;
  /** Replaces the benchmark's section of docs/performance.md with the kept lines. */
  save(): void;
}

/** Starts the summary named `name` (its section's marker), titled `title`. */
export function benchReport(name: string, title: string): BenchReport {
  const lines: string[] = [];
  return {
    line(text) {
      console.log(text);
      lines.push(text);
    },
    save() {
      const script = path.relative(root, process.argv[1] ?? `scripts/bench/${name}.ts`);
      const command = `node --import tsx ${script}${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
      const cpu = cpus();
      const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
      const section = [
        `<!-- bench:${name} -->`,
        `## ${title}`,
        '',
        `\`${command}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${machine}; load average ${LOAD_AT_START.toFixed(1)} at ` +
          `the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end.`,
        '',
        '```text',
        ...lines,
        '```',
        `<!-- /bench:${name} -->`,
      ].join('\n');
      const current = existsSync(PERFORMANCE_DOC) ? readFileSync(PERFORMANCE_DOC, 'utf8') : HEADER;
      const pattern = new RegExp(`<!-- bench:${name} -->[\\s\\S]*?<!-- /bench:${name} -->`);
      const next = pattern.test(current) ? current.replace(pattern, () => section) : `${current.trimEnd()}\n\n${section}\n`;
      mkdirSync(path.dirname(PERFORMANCE_DOC), { recursive: true });
      writeFileSync(PERFORMANCE_DOC, next.endsWith('\n') ? next : `${next}\n`);
      console.log(`\nwritten to ${path.relative(process.cwd(), PERFORMANCE_DOC)} (section ${name})`);
    },
  };
}
