// The API as the import benchmark runs it: the built entry point, with the benchmark's own loopback
// image server let through the import's address guard. Only this file (never the product, never a
// setting) adds to that list: the guard lets loopback through for code in the same process alone.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = (file) => pathToFileURL(path.join(ROOT, 'admin-api/dist/src', file)).href;
const { TEST_ALLOWED_ADDRESSES } = await import(dist('import/image-fetch.js'));
if (process.env.BENCH_IMAGE_SERVER) TEST_ALLOWED_ADDRESSES.add(process.env.BENCH_IMAGE_SERVER);
await import(dist('main.js'));
