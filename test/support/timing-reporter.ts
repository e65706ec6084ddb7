import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

// Where the suite's time goes, per test file: its import (collect) and its tests with their hooks
// (a file whose whole work is in beforeAll, like a multi-process run, shows it here, where the JSON
// reporter's start and end times of its first and last test do not). Written to
// test-results/test-timings.json on every run (test-timings-<project>.json for a run of one project, such as
// CI's `npm run test:proofs` after `npm test`, which would otherwise replace it); the ten slowest are
// printed at the end, so a file that grows slow is seen the day it does (docs/guides/development.md "Test timings").
interface FileTiming {
  file: string;
  project: string;
  tests: number;
  collectMs: number;
  runMs: number;
}


export default class TimingReporter implements Reporter {
  private readonly files: FileTiming[] = [];
  private startedAt = Date.now();

  onTestRunStart(): void {
    this.startedAt = Date.now();
  }

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    this.files.push({
      file: module.relativeModuleId,
      project: module.project.name,
      tests: [...module.children.allTests()].length,
      collectMs: Math.round(d.collectDuration),
      runMs: Math.round(d.duration),
    });
  }

  onTestRunEnd(): void {
    if (this.files.length === 0) return;
    const wallMs = Date.now() - this.startedAt;
    const sorted = [...this.files].sort((a, b) => b.collectMs + b.runMs - (a.collectMs + a.runMs));
    const total = (k: 'collectMs' | 'runMs') => this.files.reduce((s, f) => s + f[k], 0);
    const projects = new Set(this.files.map((f) => f.project));
    const name = projects.size === 1 ? `test-timings-${[...projects][0]}.json` : 'test-timings.json';
    mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
    writeFileSync(join(process.cwd(), 'test-results', name), JSON.stringify({ wallMs, collectMs: total('collectMs'), runMs: total('runMs'), files: sorted }, null, 1));
    if (this.files.length < 20 && !projects.has('proofs')) return;
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = sorted.slice(0, 10).map((f) => `  ${s(f.collectMs + f.runMs).padStart(8)}  ${f.file}`);
    process.stdout.write(
      `\nSlowest test files (import + tests and hooks; all ${this.files.length} in test-results/${name}):\n${lines.join('\n')}\n` +
        `  files' import ${s(total('collectMs'))}, tests and hooks ${s(total('runMs'))}, wall ${s(wallMs)}\n`,
    );
  }
}
