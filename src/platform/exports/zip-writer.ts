import { crc32, deflateRaw } from 'node:zlib';
import { promisify } from 'node:util';

const deflate = promisify(deflateRaw);

/** The ZIP's own limits without ZIP64 sizes: an export is bounded well under them (EXPORT_MAX_BYTES). */
const MAX_32 = 0xffffffff;
const MAX_16 = 0xffff;

/**
 * A ZIP file written front to back (PKWARE APPNOTE 6.3.10): each file deflated on its own (zlib's thread
 * pool, not the event loop), its local header with CRC-32 and sizes known beforehand (no data
 * descriptor), then the central directory and its end record. Bytes go to `sink` as they are made, so
 * only the central directory (about 100 bytes per file) stays in memory. Names are UTF-8 (flag bit 11).
 * More than 65,535 files add the ZIP64 end of central directory record and its locator (APPNOTE
 * 4.3.14-4.3.15); sizes and offsets stay below 4 GiB because the caller bounds the whole file.
 */
export class ZipWriter {
  private offset = 0;
  private readonly central: Buffer[] = [];
  private centralSize = 0;

  constructor(
    private readonly sink: (bytes: Buffer) => Promise<void>,
    private readonly modified: Date,
  ) {}

  /** Bytes written so far. */
  get size(): number {
    return this.offset;
  }

  get files(): number {
    return this.central.length;
  }

  async add(name: string, data: Buffer): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const compressed = await deflate(data);
    const crc = crc32(data);
    if (this.offset + 30 + nameBytes.length + compressed.length > MAX_32) throw new RangeError('ZIP larger than 4 GiB');
    const { time, date } = dosDateTime(this.modified);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // bit 11: the name is UTF-8
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);

    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // made by: MS-DOS, 2.0
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(time, 12);
    entry.writeUInt16LE(date, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(compressed.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    // extra, comment, disk, internal attributes, external attributes: 0
    entry.writeUInt32LE(this.offset, 42);
    const record = Buffer.concat([entry, nameBytes]);
    this.central.push(record);
    this.centralSize += record.length;

    await this.write(Buffer.concat([local, nameBytes, compressed]));
  }

  /** The central directory and the end records; nothing may be added afterwards. */
  async finish(): Promise<void> {
    const start = this.offset;
    const count = this.central.length;
    if (start + this.centralSize + 98 > MAX_32) throw new RangeError('ZIP larger than 4 GiB');
    // In pieces of about 1 MiB, as the files went.
    let batch: Buffer[] = [];
    let batchSize = 0;
    for (const record of this.central) {
      batch.push(record);
      batchSize += record.length;
      if (batchSize >= 1 << 20) {
        await this.write(Buffer.concat(batch));
        batch = [];
        batchSize = 0;
      }
    }
    if (batch.length) await this.write(Buffer.concat(batch));
    const size = this.offset - start;
    if (count > MAX_16) {
      const zip64At = this.offset;
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4); // size of the rest of this record
      record.writeUInt16LE(45, 12); // made by 4.5 (ZIP64)
      record.writeUInt16LE(45, 14); // needed 4.5
      record.writeUInt32LE(0, 16); // this disk
      record.writeUInt32LE(0, 20); // disk of the central directory
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeUInt32LE(0, 4);
      locator.writeBigUInt64LE(BigInt(zip64At), 8);
      locator.writeUInt32LE(1, 16); // total disks
      await this.write(Buffer.concat([record, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, MAX_16), 8);
    end.writeUInt16LE(Math.min(count, MAX_16), 10);
    end.writeUInt32LE(size, 12);
    end.writeUInt32LE(start, 16);
    await this.write(end);
  }

  private async write(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    await this.sink(bytes);
  }
}

/** MS-DOS date and time (APPNOTE 4.4.6), from the UTC fields: 2-second resolution, years 1980-2107. */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getUTCFullYear(), 1980), 2107);
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}
