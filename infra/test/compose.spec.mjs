// docker-compose.yml, the Dockerfiles and .dockerignore, read as an operator's `docker compose up`
// would use them (no Docker engine runs the tests). The running behaviour behind these settings is
// tested elsewhere: nginx*.spec.mjs runs the real nginx config with the real API.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { parse as parseYaml } from 'yaml';

import { MALLOC_ENV, NODE_FLAGS } from '../node-flags.mjs';
import { ROOT } from './support/nginx.mjs';

const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
const compose = parseYaml(read('docker-compose.yml'));
const { mysql, nginx, builder } = compose.services;
const api = compose.services['admin-api'];

/** Docker's .dockerignore rule: a path is left out when a pattern matches it or a folder above it. */
function ignoredBy(patterns) {
  const regexes = patterns.map((p) => {
    assert.ok(!p.startsWith('!'), 'exceptions are not used (this check does not read them)');
    const body = p
      .replace(/^\/+|\/+$/g, '')
      .split('/')
      .map((part) =>
        part === '**'
          ? '\u0000'
          : part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replaceAll('*', '[^/]*')
              .replaceAll('?', '[^/]'),
      )
      .join('/')
      .replaceAll('\u0000/', '(?:.*/)?')
      .replaceAll('\u0000', '.*');
    return new RegExp(`^${body}(?:/.*)?$`);
  });
  return (file) => regexes.some((r) => r.test(file));
}

describe('docker-compose.yml', () => {
  it('gives admin-api the database as separate variables, so any password works unencoded', () => {
    assert.equal(api.environment.DATABASE_URL, undefined);
    assert.equal(api.environment.DATABASE_HOST, 'mysql');
    assert.equal(String(api.environment.DATABASE_PORT), '3306');
    assert.equal(api.environment.DATABASE_USER, mysql.environment.MYSQL_USER);
    assert.equal(api.environment.DATABASE_NAME, mysql.environment.MYSQL_DATABASE);
    assert.match(api.environment.DATABASE_PASSWORD, /^\$\{MYSQL_PASSWORD[:?}]/, 'the same password MySQL is created with');
  });

  it('refuses to start without the secrets, ADMIN_PASSWORD included', () => {
    assert.match(api.environment.ADMIN_PASSWORD, /^\$\{ADMIN_PASSWORD:\?[^}]+\}$/);
    for (const [service, name] of [
      ['admin-api', 'REBUILD_WEBHOOK_SECRET'],
      ['builder', 'REBUILD_WEBHOOK_SECRET'],
      ['admin-api', 'DATABASE_PASSWORD'],
      ['mysql', 'MYSQL_ROOT_PASSWORD'],
    ]) {
      assert.match(compose.services[service].environment[name], /^\$\{[A-Z_]+:\?[^}]+\}$/, `${service} ${name}`);
    }
  });

  it('trusts exactly one proxy (nginx) for the client address', () => {
    assert.equal(api.environment.TRUST_PROXY, '1');
  });

  it('publishes no host port for admin-api, so it can be scaled; nginx is the way in', () => {
    assert.equal(api.ports, undefined);
    assert.equal(api.container_name, undefined);
    assert.deepEqual(nginx.ports, ['8080:8080']);
  });

  it("lets admin-api read the live site, read-only, for 'Download the site'", () => {
    assert.ok(api.volumes.includes('site:/var/lib/portfolio/site:ro'));
    // …where the API looks for it: $VAR_DIR/site/live.
    assert.match(read('infra/docker/admin-api.Dockerfile'), /VAR_DIR=\/var\/lib\/portfolio\b/);
  });

  it('passes the first-start values of the site settings (SITE_*) to admin-api, which seeds the settings from them', () => {
    const names = [
      ...new Set([...read('admin-api/src/config/config.ts').matchAll(/(?:str|web)\('(SITE_[A-Z0-9_]+)'\)/g)].map((m) => m[1])),
    ];
    assert.ok(names.includes('SITE_AUTHOR_NAME') && names.length >= 9, `found ${names}`);
    for (const name of names.filter((n) => n !== 'SITE_URL')) {
      assert.equal(api.environment[name], `\${${name}:-}`, name);
      assert.equal(builder.environment[name], undefined, `${name} is data now, not the site's build configuration`);
    }
    assert.equal(api.environment.SITE_URL, '${PUBLIC_URL:-http://localhost:8080}');
  });

  it('waits for a slow first API start, and checks nginx health without making it wait for the API', () => {
    assert.ok(parseInt(api.healthcheck.start_period, 10) >= 60, 'start_period covers DATABASE_WAIT_SECONDS');
    assert.ok(nginx.healthcheck?.test?.length > 1);
    assert.equal(nginx.depends_on, undefined, 'nginx serves the site (or the "being prepared" page) whatever the API does');
  });

  it('passes the object-storage variables to admin-api, empty (local uploads) unless set', () => {
    const storageConfig = read('admin-api/src/config/storage-config.ts');
    for (const name of ['STORAGE_URL', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'UPLOADS_PUBLIC_URL']) {
      assert.equal(api.environment[name], `\${${name}:-}`, name);
      assert.ok(storageConfig.includes(`'${name}'`), `${name} is read by the API's configuration`);
    }
  });

  it('has MinIO only in the optional s3 profile, unpublished, with its bucket made by a one-shot service', () => {
    const { minio } = compose.services;
    const bucket = compose.services['minio-bucket'];
    assert.deepEqual(minio.profiles, ['s3']);
    assert.deepEqual(bucket.profiles, ['s3']);
    assert.equal(minio.ports, undefined, 'only admin-api talks to MinIO');
    assert.ok(minio.volumes.includes('minio-data:/data'));
    assert.ok('minio-data' in compose.volumes);
    assert.equal(bucket.depends_on.minio.condition, 'service_healthy');
    // The documented STORAGE_URL names the bucket the one-shot service makes, at MinIO's address.
    const example = /STORAGE_URL=(s3:\/\/\S+)/.exec(read('docker-compose.yml'))[1];
    const url = new URL(example);
    assert.ok(bucket.entrypoint.join(' ').includes(`mc mb --ignore-existing local/${url.hostname}`), bucket.entrypoint.join(' '));
    assert.equal(url.searchParams.get('endpoint'), 'http://minio:9000');
    // No other service waits for it: without the profile the stack is the same as before.
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'minio-bucket') assert.equal(service.depends_on?.minio, undefined, name);
    }
  });

  it('runs a second API replica with --profile replicas: the same settings, started once admin-api is ready, reached by nginx under the same name', () => {
    const second = compose.services['admin-api-2'];
    for (const key of ['build', 'environment', 'volumes', 'healthcheck', 'stop_grace_period', 'restart'])
      assert.deepEqual(second[key], api[key], key);
    assert.deepEqual(second.profiles, ['replicas']);
    assert.equal(second.ports, undefined);
    assert.deepEqual(second.networks.default.aliases, ['admin-api'], "nginx's DNS lookup of admin-api finds both");
    assert.equal(second.depends_on['admin-api'].condition, 'service_healthy', 'the first replica made the tables and the first admin');
    assert.match(
      read('infra/nginx/proxy.conf'),
      /^set \$admin_api http:\/\/admin-api:3000;$/m,
      'nginx proxies by name, so every replica gets requests',
    );
    // Without the profile the stack is the same as before.
    assert.ok(Object.values(compose.services).every((s) => !s.depends_on?.['admin-api-2']));
  });

  it('checks readiness, drains on stop, and keeps metrics off nginx and the host', () => {
    assert.match(api.healthcheck.test.join(' '), /\/api\/health\/ready/);
    assert.ok(
      parseInt(api.stop_grace_period, 10) * 1000 > Number(api.environment.SHUTDOWN_TIMEOUT_MS),
      'SIGKILL comes after the drain timeout',
    );
    assert.equal(api.environment.METRICS_PORT, '9464');
    assert.equal(api.ports, undefined, 'no host port, metrics included');
    const nginxConfig = ['nginx.conf', 'site.conf', 'proxy.conf'].map((f) => read(`infra/nginx/${f}`)).join('\n');
    assert.ok(!nginxConfig.includes('9464'), 'nginx never proxies to the metrics port');
    assert.equal(api.environment.LOG_FORMAT, '${LOG_FORMAT:-text}');
  });

  const cli = ['docker compose', 'docker-compose'].find(
    (c) => spawnSync(c.split(' ')[0], [...c.split(' ').slice(1), 'version'], { encoding: 'utf8' }).status === 0,
  );
  it(
    'is accepted by docker compose, and names the missing ADMIN_PASSWORD',
    {
      skip:
        !cli && !process.env.CI && 'neither `docker compose` nor `docker-compose` is installed (Debian: apt-get install docker-compose)',
    },
    () => {
      const [bin, ...sub] = cli.split(' ');
      const secrets = {
        MYSQL_PASSWORD: 'p/w#x@y=',
        MYSQL_ROOT_PASSWORD: 'root-password',
        ADMIN_PASSWORD: 'admin-password',
        REBUILD_WEBHOOK_SECRET: '0123456789abcdef0123',
      };
      const run = (env) =>
        spawnSync(bin, [...sub, '-f', path.join(ROOT, 'docker-compose.yml'), 'config', '-q'], {
          cwd: ROOT,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        });
      const ok = run(secrets);
      assert.equal(ok.status, 0, ok.stderr);
      const { ADMIN_PASSWORD: _left, ...withoutAdmin } = secrets;
      const missing = run(withoutAdmin);
      assert.notEqual(missing.status, 0);
      assert.match(missing.stderr, /set ADMIN_PASSWORD/);
      const withS3 = spawnSync(bin, [...sub, '-f', path.join(ROOT, 'docker-compose.yml'), '--profile', 's3', 'config', '--services'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...secrets, MINIO_ROOT_PASSWORD: 'minio-password' },
      });
      assert.equal(withS3.status, 0, withS3.stderr);
      // docker-compose 1.x lists the services of other profiles too: those may appear, nothing else.
      const otherProfiles = (profile) => (name) => compose.services[name]?.profiles && !compose.services[name].profiles.includes(profile);
      assert.deepEqual(
        withS3.stdout
          .trim()
          .split('\n')
          .filter((n) => !otherProfiles('s3')(n))
          .sort(),
        ['admin-api', 'builder', 'minio', 'minio-bucket', 'mysql', 'nginx'],
      );
      const withReplicas = spawnSync(
        bin,
        [...sub, '-f', path.join(ROOT, 'docker-compose.yml'), '--profile', 'replicas', 'config', '--services'],
        { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...secrets } },
      );
      assert.equal(withReplicas.status, 0, withReplicas.stderr);
      assert.deepEqual(
        withReplicas.stdout
          .trim()
          .split('\n')
          .filter((n) => !otherProfiles('replicas')(n))
          .sort(),
        ['admin-api', 'admin-api-2', 'builder', 'mysql', 'nginx'],
      );
    },
  );
});

describe('images', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const ignored = ignoredBy(patterns);

  it('send the sources to the image build, never installed modules, build output, local state or secrets', () => {
    for (const file of [
      'node_modules/astro/package.json',
      'site/node_modules/cookie/index.js',
      'admin-api/dist/src/main.js',
      'admin-api/contract/dist/rules.js',
      'admin-ui/dist/overlay.js',
      'site/dist/index.html',
      'site/.astro/types.d.ts',
      '.git/HEAD',
      'var/data/portfolio.sqlite',
      'var/uploads/books/cover.png',
      'var/mail/reset.eml',
      'var/site/live/index.html',
      'admin-api/var/data/portfolio.sqlite-wal',
      'mail/message.eml',
      'portfolio.sqlite',
      '.env',
      '.env.production',
      'infra/e2e/test-results/trace.zip',
      'npm-debug.log',
    ]) {
      assert.ok(ignored(file), `${file} stays out of the image build`);
    }
    for (const file of [
      'package.json',
      'package-lock.json',
      '.npmrc',
      'admin-api/src/main.ts',
      'admin-api/package.json',
      'admin-api/contract/src/rules.ts',
      'admin-ui/src/main.tsx',
      'site/src/pages/index.astro',
      'site/public/favicon.svg',
      'infra/builder/main.mjs',
      'infra/nginx/site.conf',
      'infra/nginx/preparing.html',
    ]) {
      assert.ok(!ignored(file), `${file} reaches the image build`);
    }
  });

  it('the builder installs only what the site build runs (no test tools, TypeScript or the root node package)', () => {
    const dockerfile = read('infra/docker/builder.Dockerfile');
    const stages = dockerfile.split(/^(?=FROM )/m).filter((s) => s.startsWith('FROM '));
    assert.ok(stages.length >= 2, 'multi-stage');
    const named = Object.fromEntries(stages.map((s) => [/^FROM \S+(?: AS (\S+))?/.exec(s)[1], s]));
    const final = stages.at(-1);
    const copies = [...final.matchAll(/^COPY --from=(\S+) (\S+)/gm)].map((m) => [m[1], m[2]]);
    // The installed modules come from one stage, whose only install is the site's runtime one.
    const [[modulesStage]] = copies.filter(([, from]) => from === '/app' || from.endsWith('node_modules'));
    const installs = [...named[modulesStage].matchAll(/^RUN (npm ci[^\n&]*?)\s*(?:&&|$)/gm)].map((m) => m[1]);
    assert.deepEqual(installs, ['npm ci --omit=dev --workspace site --include-workspace-root']);
    // From any other stage, only compiled files (the shared contract package), never modules.
    for (const [stage, from] of copies.filter(([stage]) => stage !== modulesStage)) {
      assert.match(from, /^\/app\/admin-api\/contract\/(package\.json|dist)$/, `${stage}: ${from}`);
    }
  });

  it('the images start Node with the flags and allocator settings npm start uses (infra/node-flags.mjs)', () => {
    const cmd = (file) => JSON.parse(/^CMD (\[.*\])$/m.exec(read(file))[1]);
    assert.deepEqual(cmd('infra/docker/admin-api.Dockerfile'), ['node', ...NODE_FLAGS.api, 'admin-api/dist/src/main.js']);
    assert.deepEqual(cmd('infra/docker/builder.Dockerfile'), ['node', ...NODE_FLAGS.builder, 'infra/builder/main.mjs']);
    assert.match(
      read('infra/docker/builder.Dockerfile'),
      /^COPY infra\/node-flags\.mjs /m,
      'the builder image has the module its renderer host imports',
    );
    const env = /^ENV (MALLOC_.*)$/m.exec(read('infra/docker/builder.Dockerfile'))[1];
    assert.deepEqual(Object.fromEntries(env.split(' ').map((pair) => pair.split('='))), MALLOC_ENV);
  });

  it('the nginx image carries every file the nginx config includes', () => {
    const dockerfile = read('infra/docker/nginx.Dockerfile');
    const config = ['nginx.conf', 'site.conf', 'proxy.conf'].map((f) => read(`infra/nginx/${f}`)).join('\n');
    const used = new Set([...config.matchAll(/\/etc\/nginx\/portfolio\/?([\w.-]*)/g)].map((m) => m[1]));
    used.delete('');
    used.add('preparing.html'); // served from the folder the @preparing location names
    for (const file of used) assert.match(dockerfile, new RegExp(`infra/nginx/${file.replace('.', '\\.')}\\b`), file);
  });
});
