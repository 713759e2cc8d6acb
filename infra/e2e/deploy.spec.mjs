// The overlay's publishing state when the site's copy in a bucket lags behind, in headless Chromium
// against the real embedded product (infra/start.mjs) whose builder deploys to a real S3 server
// (s3rver on loopback) into a bucket that does not exist: the site is live on this machine, the
// deploy fails and waits for its next try, and the dashboard says so with the bucket's error, in
// English and in Arabic, at desktop and phone width.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { startProduct } from '../test/support/product.mjs';
import { startS3Server } from '../test/support/s3.mjs';
import { freePort, until as waitUntil } from '../test/support/wait.mjs';
import { launchBrowser, openOverlay as overlayOn, VIEWPORTS } from './support/browser.mjs';
import { ADMIN } from './support/stack.mjs';

const SHOTS = process.env.E2E_SCREENSHOTS ?? path.join(os.tmpdir(), 'portfolio-e2e-screenshots', 'deploy');

const until = (what, check, timeoutMs = 120_000) => waitUntil(what, check, timeoutMs, 100);

let product;
let varDir;
let url;
let token;
let browser;
let s3;
const pageErrors = [];

before(async () => {
  s3 = await startS3Server({ buckets: ['another-bucket'] });
  varDir = await mkdtemp(path.join(os.tmpdir(), 'portfolio-e2e-deploy-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  product = await startProduct({
    varDir,
    port,
    env: {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      SEED_DEMO: 'true',
      PUBLIC_URL: url,
      DEPLOY_S3_URL: `s3://missing-bucket/www?endpoint=${encodeURIComponent(s3.endpoint)}`,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      DEPLOY_RETRY_DELAY_MS: '600000',
    },
  });
  const res = await fetch(`${url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  token = (await res.json()).sessionId;
  browser = await launchBrowser();
  await mkdir(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await product?.stop();
  await s3?.stop();
  if (varDir) await rm(varDir, { recursive: true, force: true });
  assert.deepEqual(pageErrors, []);
});

const TEXTS = {
  en: { management: 'Content Management', lag: /The copy of the site on the CDN is not updated yet/, details: 'Details' },
  ar: { management: 'إدارة المحتوى', lag: /لم تُحدَّث نسخة الموقع على شبكة توزيع المحتوى بعد/, details: 'التفاصيل' },
};

describe('a deploy to a bucket that fails', () => {
  it("GET /api/admin/publishing: the site is live, the deploy retrying with the bucket's error", async () => {
    // The demo pictures' variants are published as the API makes them: a publish may be under way meanwhile.
    const status = await until('the site live and the deploy failed', async () => {
      const s = await (await fetch(`${url}/api/admin/publishing`, { headers: { authorization: `Bearer ${token}` } })).json();
      return s.deploy?.state === 'retrying' && s.state === 'live' && s;
    });
    assert.equal(status.deploy.target, 's3://missing-bucket/www/');
    assert.equal(status.deploy.lastDeployedBuildId, null);
    assert.match(status.deploy.lastError, /NoSuchBucket/);
    assert.ok(Date.parse(status.deploy.retryAt) > Date.now());
    assert.match(await (await fetch(`${url}/`)).text(), /<html/, 'the site itself is served from this machine');
  });

  for (const lang of ['en', 'ar']) {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      it(`the dashboard says the CDN copy lags behind, with the error (${lang}, ${width})`, async () => {
        const { page, overlay } = await overlayOn(browser, url, {
          lang,
          viewport,
          session: token,
          pageErrors,
          dialog: TEXTS[lang].management,
        });
        const management = overlay.getByRole('dialog', { name: TEXTS[lang].management });
        const lag = management.getByText(TEXTS[lang].lag);
        await lag.waitFor();
        await lag.locator('xpath=..').getByText(TEXTS[lang].details).click();
        await management.getByText(/NoSuchBucket/).waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scrolling');
        await page.screenshot({ path: path.join(SHOTS, `deploy-lagging-${lang}-${width}.png`) });
        await page.context().close();
      });
    }
  }
});
