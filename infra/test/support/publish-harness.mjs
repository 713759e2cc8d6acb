// The builder in renderer mode against the real API, for the publishing tests and the benchmark's
// invariant rounds: the built API (demo content) on a free port sending its signed rebuild requests
// to an in-process builder, which reads the API through a proxy the test can make misbehave.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import { uploadVariantSet } from '@portfolio/contract/image-variants';
import { CONTENT_KINDS, KINDS } from '@portfolio/contract/kinds';
import { imageSizeFromName } from '@portfolio/contract/rules';
import { exportSite } from '@portfolio/site/render/renderer.mjs';
import sharp from 'sharp';

import { SiteBuilder } from '../../builder/builder.mjs';
import { loadBuilderConfig } from '../../builder/config.mjs';
import { createBuilderServer } from '../../builder/server.mjs';
import { freePort, startStack } from '../../e2e/support/stack.mjs';
import { startApiProxy } from './api-proxy.mjs';
import { stopOnce, until } from './wait.mjs';

export const SECRET = 'publish-test-secret-0123456789';
export const SITE_URL = 'http://localhost:4321';

/** The environment of a builder in renderer mode (BUILD_COMMAND unset). */
function builderEnv(extra) {
  const env = { ...process.env };
  delete env.BUILD_COMMAND;
  return { ...env, SITE_URL, BUILD_API_WAIT_MS: '10000', BUILD_RETRIES: '0', ...extra };
}

/**
 * An in-process builder on a free port. `apiUrl` is where it reads the API (the proxy).
 * Events: every finished publish is pushed to `publishes`.
 */
export async function startBuilder({ varDir, apiUrl, env = {}, log = () => {} }) {
  const config = loadBuilderConfig(
    builderEnv({ REBUILD_WEBHOOK_SECRET: SECRET, VAR_DIR: varDir, BUILDER_PORT: '0', SITE_API_URL: apiUrl, ...env }),
  );
  const lines = [];
  const builder = await new SiteBuilder(config, {
    log: (line) => {
      lines.push(line);
      log(line);
    },
  }).init();
  const publishes = [];
  builder.on('build-end', (meta) => publishes.push(meta));
  const server = createBuilderServer(builder, { secret: SECRET });
  const close = stopOnce(async () => {
    server.closeAllConnections();
    if (server.listening) await new Promise((resolve) => server.close(resolve));
    await builder.close();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    builder,
    config,
    url,
    lines,
    publishes,
    /** Resolves when `check()` holds, looking again after every finished publish. */
    when(what, check, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          off();
          reject(new Error(`timed out waiting for ${what}:\n${lines.slice(-30).join('\n')}`));
        }, timeoutMs);
        const look = () => {
          const value = check();
          if (!value) return;
          clearTimeout(timer);
          off();
          resolve(value);
        };
        const events = ['build-end', 'idle', 'coalesced'];
        const off = () => events.forEach((e) => builder.off(e, look));
        events.forEach((e) => builder.on(e, look));
        look();
      });
    },
    /** Resolves once a publish containing every change up to `version` is live and nothing else runs or waits. */
    live(version, timeoutMs) {
      return this.when(
        `content version ${version} to be live`,
        () =>
          !builder.current &&
          !builder.pending &&
          builder.builtHere.has(builder.live?.id) &&
          builder.live.upToEventId >= version &&
          builder.live,
        timeoutMs,
      );
    },
    close,
  };
}

/** What the API needs to send its rebuild requests to `builder` and ask its status, quickly. */
export const apiEnvFor = (builder) => ({
  REBUILD_WEBHOOK_URL: `${builder.url}/hooks/rebuild`,
  REBUILD_STATUS_URL: `${builder.url}/status`,
  REBUILD_WEBHOOK_SECRET: SECRET,
  PUBLISH_QUIET_MS: '30',
  PUBLISH_RETRY_BASE_MS: '50',
});

/**
 * The real API (demo content unless told otherwise) on a free port, sending its rebuild requests
 * to an in-process builder in renderer mode, which reads the API through a proxy.
 */
export async function startPublishingStack({ varDir, seedDemo = true, builderEnv: extraBuilderEnv = {}, apiEnv = {}, log } = {}) {
  const port = await freePort();
  const proxy = await startApiProxy(`http://127.0.0.1:${port}`);
  const b = await startBuilder({ varDir, apiUrl: proxy.url, env: extraBuilderEnv, log });
  let stack;
  try {
    stack = await startStack({
      seedDemo,
      port,
      env: { ...apiEnvFor(b), ...apiEnv },
    });
  } catch (error) {
    await b.close();
    await proxy.close();
    throw error;
  }
  const token = await stack.login();
  const call = async (method, route, body) => {
    const res = await stack.call(method, route, { token, body });
    if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  return {
    stack,
    proxy,
    b,
    token,
    call,
    async contentVersion() {
      return (await stack.call('GET', '/api/health')).body.contentVersion;
    },
    /**
     * Resolves once every change saved so far is live, after the API has made the variants of every
     * picture the content shows (their `image-variants` changes are changes too), so the live site
     * names them; `{ pendingVariants: true }` does not wait for those (a test holding a picture's).
     */
    async published({ pendingVariants = false } = {}) {
      if (!pendingVariants) await stack.variantsMade();
      return b.live(await this.contentVersion());
    },
    /** Resolves once the API has made (or given up on) the variants of these uploads. */
    async variantsMadeOf(...uploads) {
      const states = [];
      for (const upload of uploads) {
        states.push(
          await until(
            `the variants of ${upload}`,
            async () => {
              const state = (await stack.call('GET', `/api/image-variants?path=${encodeURIComponent(upload)}`)).body;
              return state?.state !== 'pending' && state;
            },
            120_000,
            50,
          ),
        );
      }
      return states;
    },
    async upload(folder, width, height, seed) {
      const png = await sharp({
        create: { width, height, channels: 3, background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 151) % 256 } },
      })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('file', new Blob([png], { type: 'image/png' }), `picture-${seed}.png`);
      form.append('contentType', folder);
      const res = await fetch(`${stack.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      return (await res.json()).url;
    },
    /** A full export of the content as it is now, through the builder's renderer code, into `outDir`. */
    async exportNow(outDir, cacheDir) {
      const fingerprint = await b.builder.renderers.fingerprint();
      return exportSite({
        rendererDir: path.join(b.config.renderersDir, fingerprint),
        outDir,
        apiUrl: proxy.url,
        cacheDir,
        env: b.builder.renderers.o.env,
        log: () => {},
      });
    },
    close() {
      this.closed ??= (async () => {
        await b.close();
        await stack.stop();
        await proxy.close();
      })();
      return this.closed;
    },
  };
}

/** The stored paths of an upload's variants (the API's names, @portfolio/contract/image-variants) as one pattern, for the test proxy. */
export function storedVariantsPattern(upload) {
  const size = imageSizeFromName(upload);
  if (!size) throw new Error(`${upload} does not carry its size in its name`);
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^(${uploadVariantSet(upload, size)
      .map((v) => escape(v.stored))
      .join('|')})$`,
  );
}

/** `diff -r` of two folders: null when identical, else its output. */
export function diffTrees(a, b) {
  const r = spawnSync('diff', ['-r', a, b], { encoding: 'utf8' });
  if (r.status === 0) return null;
  return `${r.stdout}${r.stderr}`.slice(0, 4000) || `diff exited ${r.status}`;
}

/** Every file under a folder: relative path → { ino, sha256 }. */
export async function snapshot(dir) {
  const out = new Map();
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out.set(path.relative(dir, full), {
      ino: (await stat(full)).ino,
      sha256: createHash('sha256')
        .update(await readFile(full))
        .digest('hex'),
    });
  }
  return out;
}

/** A small deterministic pseudo-random generator (mulberry32). */
export function seeded(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

// From the registry: a kind that removes for good (plays) is hard-deleted here instead of trashed.
const REMOVABLE = new Set(CONTENT_KINDS.filter((kind) => KINDS[kind].softDelete.removable));
const PUBLISH_FLAG = new Set(CONTENT_KINDS.filter((kind) => KINDS[kind].publish?.field === 'published'));

/**
 * Random edits through the API across every kind (a new kind needs its `bodies` and `updates`):
 * create, update, soft delete, restore, publish flag on and off, hard delete of plays; items with
 * and without reviews and images.
 * Knows the items it made and the demo's (read at the start).
 */
export async function randomEditor(p, seed) {
  const rnd = seeded(seed);
  const items = Object.fromEntries(CONTENT_KINDS.map((k) => [k, []]));
  for (const kind of CONTENT_KINDS) {
    const all = KINDS[kind].softDelete.adminListsDeleted ? '' : '?includeDeleted=true';
    const res = await p.stack.call('GET', `/api/${kind}${all}`, { token: p.token });
    for (const item of res.body) items[kind].push({ id: item.id, deleted: Boolean(item.isDeleted), published: item.published !== false });
  }
  const images = {};
  let uploads = 0;
  const image = async (folder) => {
    images[folder] ??= [];
    if (images[folder].length < 2 || rnd.chance(0.3))
      images[folder].push(await p.upload(folder, 40 + rnd.int(400), 30 + rnd.int(300), ++uploads + seed));
    return rnd.pick(images[folder]);
  };
  let n = 0;
  const text = () => `Edit ${++n} ${rnd.int(1e6).toString(36)} — تعديل ${n}`;
  const reviews = () =>
    rnd.chance(0.5)
      ? []
      : Array.from({ length: 1 + rnd.int(3) }, (_, i) =>
          rnd.chance(0.5)
            ? JSON.stringify({ title: `Review ${n}.${i}`, url: `https://example.com/review/${n}/${i}` })
            : `https://example.com/press/${n}/${i}.pdf`,
        );
  const maybe = async (folder) => (rnd.chance(0.5) ? await image(folder) : null);
  // Few categories and genres, so items share them (related items, archives); Arabic ones among them;
  // none at times. Essays' categories are translated too.
  const category = () => rnd.pick([null, 'Poetry', 'poetry ', 'Short Stories', 'شعر', 'مسرح وسينما']);
  const genre = () => rnd.pick([null, 'Novel', 'Poems', 'رواية']);
  const essayDate = () => `20${10 + rnd.int(15)}-0${1 + rnd.int(9)}-1${rnd.int(9)}`;
  const arTitle = () => (rnd.chance(0.5) ? { ar: { title: `عنوان ${++n}` } } : {});

  const bodies = {
    books: async () => ({
      title: text(),
      description: text(),
      year: 1990 + rnd.int(35),
      publisher: `Publisher ${rnd.int(5)}`,
      coverImage: await maybe('books'),
      reviews: reviews(),
      genre: genre(),
      published: rnd.chance(0.8),
    }),
    essays: async () => ({
      title: text(),
      excerpt: text(),
      content: `${text()}\n\n${text()}`,
      imageUrl: await maybe('essays'),
      publishedDate: essayDate(),
      category: category(),
      translations: rnd.chance(0.5) ? { ar: { title: `مقالة ${++n}`, category: 'شعر' } } : {},
      published: rnd.chance(0.8),
    }),
    artworks: async () => ({
      title: text(),
      medium: `Medium ${rnd.int(4)}`,
      year: 2000 + rnd.int(25),
      image: await image('artworks'),
      description: rnd.chance(0.5) ? text() : null,
      featured: rnd.chance(0.3),
    }),
    news: async () => ({
      title: text(),
      excerpt: text(),
      content: text(),
      category: rnd.pick(['exhibition', 'publication', 'award', 'other']),
      imageUrl: await maybe('news'),
      published: rnd.chance(0.8),
    }),
    plays: async () => ({
      title: text(),
      description: rnd.chance(0.7) ? text() : null,
      year: 2000 + rnd.int(25),
      image: await maybe('plays'),
      genre: genre(),
      status: rnd.pick(['draft', 'published', 'performed']),
    }),
  };
  const updates = {
    books: async () =>
      rnd.pick([
        { title: text() },
        { reviews: reviews() },
        { coverImage: await maybe('books') },
        { description: text(), year: 1990 + rnd.int(35) },
        // A move in the list's order (year), a genre change, a title in the other language.
        { year: 1990 + rnd.int(35) },
        { genre: genre() },
        { translations: arTitle() },
      ]),
    essays: async () =>
      rnd.pick([
        { title: text() },
        { imageUrl: await maybe('essays') },
        { excerpt: text() },
        { publishedDate: essayDate() },
        { category: category() },
        { translations: rnd.chance(0.5) ? { ar: { category: rnd.pick(['شعر', 'قصص']) } } : arTitle() },
        // Formatted text: a picture inside the text has its variants, a footnote, a link to a page.
        {
          textFormat: 'markdown',
          content: `## ${text()}\n\n*${text()}* [books](/books)[^1]\n\n![${text()}](${await image('essays')})\n\n[^1]: ${text()}`,
        },
        { textFormat: 'plain' },
      ]),
    artworks: async () => rnd.pick([{ title: text() }, { image: await image('artworks') }, { featured: rnd.chance(0.5) }]),
    news: async () =>
      rnd.pick([
        { title: text() },
        { imageUrl: await maybe('news') },
        { category: rnd.pick(['exhibition', 'publication', 'award', 'other']) },
        { publishedDate: `${2015 + rnd.int(10)}-0${1 + rnd.int(9)}-2${rnd.int(8)}T10:00:00.000Z` },
      ]),
    plays: async () =>
      rnd.pick([
        { title: text() },
        { image: await maybe('plays') },
        { status: rnd.pick(['draft', 'published', 'performed']) },
        { genre: genre() },
        { arabicTitle: rnd.chance(0.7) ? `مسرحية ${++n}` : null },
      ]),
  };

  const missing = CONTENT_KINDS.filter((kind) => !bodies[kind] || !updates[kind]);
  if (missing.length) throw new Error(`randomEditor has no bodies or updates for ${missing.join(', ')}`);

  // Every seventh edit changes the site settings, which every page shows. Its own random source,
  // so the content edits are the same sequence with or without it.
  const settingsRnd = seeded(seed + 1);
  let edits = 0;
  const settingsText = () => `Settings ${++n} ${settingsRnd.int(1e6).toString(36)} — إعدادات ${n}`;
  const settingsBody = async () =>
    settingsRnd.pick([
      () => ({ biographyEn: `${settingsText()}\n\n${settingsText()}` }),
      () => ({ authorNameAr: `نور ${settingsRnd.int(1e6).toString(36)}` }),
      () => ({ quoteEn: settingsRnd.chance(0.5) ? settingsText() : null, locationAr: settingsRnd.chance(0.5) ? settingsText() : null }),
      async () => ({
        portraitImage: settingsRnd.chance(0.7)
          ? await p.upload('general', 40 + settingsRnd.int(300), 40 + settingsRnd.int(300), ++uploads + seed)
          : null,
      }),
      () => ({
        socialLinks: Array.from({ length: settingsRnd.int(4) }, (_, i) => ({
          label: `Link ${n}.${i}`,
          url: `https://example.com/${n}/${i}`,
        })),
      }),
      () => ({ copyrightYear: 2025 + settingsRnd.int(3), footerCreditName: settingsRnd.chance(0.3) ? null : `Studio ${n}` }),
      // The site's address: the one setting the redirect pages show (their read: `settings:url`).
      () => ({ siteUrl: settingsRnd.pick(['https://nour.example', 'https://writer.example']) }),
    ])();

  // Every fifth edit moves an item in its list's order or changes its category, in turn, so that
  // every run covers the pages around an item (next/related) and the category archives.
  const moves = [
    ['books', () => ({ year: 1990 + rnd.int(35) })],
    ['essays', () => ({ category: category() })],
    ['essays', () => ({ publishedDate: essayDate() })],
    ['news', () => ({ category: rnd.pick(['exhibition', 'publication', 'award', 'other']) })],
    ['books', () => ({ genre: genre() })],
    ['news', () => ({ publishedDate: `${2015 + rnd.int(10)}-0${1 + rnd.int(9)}-2${rnd.int(8)}T10:00:00.000Z` })],
    ['plays', () => ({ genre: genre() })],
  ];

  const doneOps = new Set();

  /** One random edit; returns what it did. */
  return async function edit() {
    if (++edits % 7 === 0) {
      await p.call('PATCH', '/api/admin/settings', await settingsBody());
      return 'update settings/1';
    }
    if (edits % 5 === 3) {
      const [kind, body] = moves[Math.floor(edits / 5) % moves.length];
      const live = items[kind].filter((i) => !i.deleted);
      if (live.length) {
        const item = rnd.pick(live);
        const fields = body();
        await p.call('PATCH', `/api/${kind}/${item.id}`, fields);
        return `update ${kind}/${item.id} ${Object.keys(fields).join(',')}`;
      }
    }
    // Every fifth edit (another one) is an operation no edit has made yet, when one is possible, so
    // every run adds, trashes, restores, publishes and removes whatever the random choices were.
    if (edits % 5 === 1) {
      for (const op of ['delete', 'restore', 'publish', 'hard-delete']) {
        if (doneOps.has(op)) continue;
        const kind = CONTENT_KINDS.find((k) => opsOf(k).includes(op));
        if (kind) return perform(kind, op);
      }
    }
    const kind = rnd.pick(CONTENT_KINDS);
    let op = rnd.pick(opsOf(kind));
    if (!items[kind].some((i) => !i.deleted) && op === 'update') op = 'create';
    return perform(kind, op);
  };

  /** The operations an edit of `kind` can make now. */
  function opsOf(kind) {
    const list = items[kind];
    const live = list.filter((i) => !i.deleted);
    const ops = ['create', 'update', 'update'];
    if (live.length && !REMOVABLE.has(kind)) ops.push('delete');
    if (list.some((i) => i.deleted)) ops.push('restore');
    if (live.length && PUBLISH_FLAG.has(kind)) ops.push('publish');
    if (live.length && REMOVABLE.has(kind)) ops.push('hard-delete', 'hard-delete');
    return ops;
  }

  async function perform(kind, op) {
    doneOps.add(op);
    const list = items[kind];
    const live = list.filter((i) => !i.deleted);
    if (op === 'create') {
      const body = await bodies[kind]();
      const made = await p.call('POST', `/api/${kind}`, body);
      list.push({ id: made.id, deleted: false, published: body.published !== false });
      return `${op} ${kind}/${made.id}`;
    }
    if (op === 'restore') {
      const item = rnd.pick(list.filter((i) => i.deleted));
      await p.call('PATCH', `/api/${kind}/${item.id}`, { isDeleted: false });
      item.deleted = false;
      return `${op} ${kind}/${item.id}`;
    }
    const item = rnd.pick(live);
    let fields = '';
    if (op === 'update') {
      const body = await updates[kind]();
      await p.call('PATCH', `/api/${kind}/${item.id}`, body);
      fields = ` ${Object.keys(body).join(',')}`;
    }
    if (op === 'delete') {
      await p.call('PATCH', `/api/${kind}/${item.id}`, { isDeleted: true });
      item.deleted = true;
    }
    if (op === 'publish') {
      item.published = !item.published;
      await p.call('PATCH', `/api/${kind}/${item.id}`, { published: item.published });
    }
    if (op === 'hard-delete') {
      await p.call('DELETE', `/api/${kind}/${item.id}`);
      list.splice(list.indexOf(item), 1);
    }
    return `${op} ${kind}/${item.id}${fields}`;
  }
}
