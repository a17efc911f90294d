// What the bench's parts share: p50/p95 timing with a warm-up, and the table of operations beside raw CDP.
import { performance } from 'node:perf_hooks';

export interface Timing {
  p50: number;
  p95: number;
}

export const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 200);

/**
 * Waits out a just-launched browser's own start-up work before calls on it are timed (measured: eval p50 10.2 ms in
 * the first 200 calls after the launch, 5.5 in the next 200, 4.1 after 5 s); the cold start is measured on its own.
 */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5_000));

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function time(rounds: number, run: () => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < Math.min(5, rounds); i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** Rows of operation, p50, p95, raw p50, raw p95 and the p50 ratio, printed as one aligned table. */
export class Table {
  private readonly rows: string[][] = [];

  constructor(private readonly header: string[] = ['operation', 'p50', 'p95', 'raw p50', 'raw p95', 'p50 ratio']) {}

  report(name: string, ours: Timing, raw?: Timing): void {
    const ms = (value: number) => value.toFixed(2);
    this.rows.push([
      name,
      ms(ours.p50),
      ms(ours.p95),
      raw ? ms(raw.p50) : '',
      raw ? ms(raw.p95) : '',
      raw ? `${(ours.p50 / raw.p50).toFixed(1)}x` : '',
    ]);
  }

  add(row: string[]): void {
    this.rows.push(row);
  }

  print(): void {
    const widths = this.header.map((title, column) =>
      Math.max(title.length, ...this.rows.map((row) => (row[column] ?? '').length)),
    );
    for (const row of [this.header, ...this.rows])
      console.log(row.map((cell, column) => (cell ?? '').padEnd(widths[column]!)).join('  '));
  }
}
