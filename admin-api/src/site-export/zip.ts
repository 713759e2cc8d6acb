// A minimal ZIP writer (PKWARE APPNOTE 6.3): stored or deflated entries, UTF-8 names, ZIP64 end
// records when there are more than 65,535 entries or the archive passes 4 GiB. Node only (zlib);
// no native code. Each entry's bytes are in memory while it is written (one file at a time), so
// the archive itself is streamed and never held whole.
import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync } from 'node:zlib';

const deflateAsync = promisify(deflateRaw);
/** Small files are deflated at once (a trip to the thread pool costs more than the work); large ones off the main thread. */
const deflate = async (data: Buffer) => (data.length < 128 * 1024 ? deflateRawSync(data) : deflateAsync(data));

export interface ZipEntry {
  /** The path inside the archive, with `/` between folders (no leading `/`). */
  name: string;
  data: Buffer;
  /** Deflate (default: for text-like names, not for images, fonts, PDFs and archives, which are compressed already). */
  compress?: boolean;
}

const ALREADY_COMPRESSED = /\.(jpe?g|png|gif|webp|avif|woff2?|pdf|zip|gz|br|mp[34]|webm)$/i;
const U16 = 0xffff;
const U32 = 0xffffffff;

/** DOS date and time (local fields, as unzip shows them) of a moment. */
function dosTime(date: Date) {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * The bytes of a ZIP archive of `entries`, chunk by chunk (use with `Readable.from` or
 * `stream.pipeline`). Names must be unique and relative; a single entry must stay under 4 GiB.
 */
export async function* zipChunks(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>, { modified = new Date() }: { modified?: Date } = {}): AsyncGenerator<Buffer> {
  const { time, date } = dosTime(modified);
  const central: Buffer[] = [];
  const names = new Set<string>();
  let offset = 0;
  let count = 0;
  for await (const entry of entries) {
    const name = entry.name;
    if (!name || name.startsWith('/') || name.split('/').some((part) => part === '..' || part === '')) throw new Error(`Not a relative path inside an archive: ${JSON.stringify(name)}`);
    if (names.has(name)) throw new Error(`Two entries named ${name}`);
    names.add(name);
    const nameBytes = Buffer.from(name, 'utf8');
    const compress = entry.compress ?? !ALREADY_COMPRESSED.test(name);
    let body = compress ? await deflate(entry.data) : entry.data;
    let method = compress ? 8 : 0;
    if (compress && body.length >= entry.data.length) {
      body = entry.data;
      method = 0;
    }
    if (entry.data.length >= U32 || body.length >= U32) throw new Error(`${name} is too large for this archive writer (4 GiB or more)`);
    const crc = crc32(entry.data);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);

    // The central record points back at the local header; past 4 GiB that offset goes in a ZIP64 extra field.
    const far = offset >= U32;
    const extra = Buffer.alloc(far ? 12 : 0);
    if (far) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8, 2);
      extra.writeBigUInt64LE(BigInt(offset), 4);
    }
    // Its own memory (Buffer.alloc), not a slice of a shared pool: the directory is kept until the
    // end, and a pooled slice would keep the whole pool (with page bytes in it) alive per entry.
    const record = Buffer.alloc(46 + nameBytes.length + extra.length);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE((3 << 8) | 45, 4); // made by: Unix, spec 4.5
    record.writeUInt16LE(far ? 45 : 20, 6);
    record.writeUInt16LE(0x0800, 8);
    record.writeUInt16LE(method, 10);
    record.writeUInt16LE(time, 12);
    record.writeUInt16LE(date, 14);
    record.writeUInt32LE(crc, 16);
    record.writeUInt32LE(body.length, 20);
    record.writeUInt32LE(entry.data.length, 24);
    record.writeUInt16LE(nameBytes.length, 28);
    record.writeUInt16LE(extra.length, 30);
    record.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    record.writeUInt32LE(far ? U32 : offset, 42);
    nameBytes.copy(record, 46);
    extra.copy(record, 46 + nameBytes.length);
    central.push(record);

    yield Buffer.concat([local, nameBytes]);
    yield body;
    offset += local.length + nameBytes.length + body.length;
    count++;
  }

  const directory = Buffer.concat(central);
  const directoryOffset = offset;
  yield directory;
  offset += directory.length;

  const zip64 = count > U16 - 1 || directoryOffset >= U32 || directory.length >= U32;
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE((3 << 8) | 45, 12);
    record.writeUInt16LE(45, 14);
    record.writeUInt32LE(0, 16);
    record.writeUInt32LE(0, 20);
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(directory.length), 40);
    record.writeBigUInt64LE(BigInt(directoryOffset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(offset), 8);
    locator.writeUInt32LE(1, 16);
    yield Buffer.concat([record, locator]);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? U16 : count, 8);
  end.writeUInt16LE(zip64 ? U16 : count, 10);
  end.writeUInt32LE(zip64 ? U32 : directory.length, 12);
  end.writeUInt32LE(zip64 ? U32 : directoryOffset, 16);
  yield end;
}
