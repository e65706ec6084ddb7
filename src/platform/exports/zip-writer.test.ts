// The ZIP writer held against tools we did not write: Info-ZIP's `unzip -t` (CRC of every member)
// and Python's zipfile (names, sizes, contents), also past 65,535 files (the ZIP64 end records).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipWriter } from './zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'zip-writer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function zipOf(files: Array<[string, Buffer]>): Promise<string> {
  const parts: Buffer[] = [];
  const zip = new ZipWriter(async (b) => void parts.push(b), new Date('2026-10-31T23:59:58Z'));
  for (const [name, data] of files) await zip.add(name, data);
  await zip.finish();
  const path = join(dir, `${files.length}.zip`);
  writeFileSync(path, Buffer.concat(parts));
  expect(zip.size).toBe(Buffer.concat(parts).length);
  return path;
}

const PY = `import sys, zipfile, json
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
infos = z.infolist()
print(json.dumps({"count": len(infos), "first": [[i.filename, i.file_size, z.read(i).decode()] for i in infos[:3]], "last": infos[-1].filename, "date": list(infos[0].date_time)}))`;

describe('ZipWriter', () => {
  it('writes files unzip and Python read back byte for byte, UTF-8 names included', async () => {
    const path = await zipOf([
      ['nfe/35261000000000000000550010000000011000000011-nfeProc.xml', Buffer.from('<nfeProc>'.repeat(500))],
      ['manifesto ção.csv', Buffer.from('file,key\n')],
      ['empty.txt', Buffer.alloc(0)],
    ]);
    expect(execFileSync('unzip', ['-t', path]).toString()).toContain('No errors detected');
    const seen = JSON.parse(execFileSync('python3', ['-c', PY, path]).toString());
    expect(seen.count).toBe(3);
    expect(seen.first[0]).toEqual(['nfe/35261000000000000000550010000000011000000011-nfeProc.xml', 4500, '<nfeProc>'.repeat(500)]);
    expect(seen.first[1]).toEqual(['manifesto ção.csv', 9, 'file,key\n']);
    expect(seen.first[2]).toEqual(['empty.txt', 0, '']);
    expect(seen.date).toEqual([2026, 10, 31, 23, 59, 58]);
  });

  it('past 65,535 files the ZIP64 end records carry the count', async () => {
    const files: Array<[string, Buffer]> = Array.from({ length: 65_540 }, (_, i) => [`f/${i}.txt`, Buffer.from(String(i))]);
    const path = await zipOf(files);
    const seen = JSON.parse(execFileSync('python3', ['-c', PY, path]).toString());
    expect(seen.count).toBe(65_540);
    expect(seen.last).toBe('f/65539.txt');
    expect(seen.first[2]).toEqual(['f/2.txt', 1, '2']);
    expect(execFileSync('unzip', ['-tq', path]).toString()).toMatch(/No errors detected/);
  }, 120_000);
});
