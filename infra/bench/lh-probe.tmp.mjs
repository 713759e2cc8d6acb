// temporary probe (not committed)
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { startStack } from '../e2e/support/stack.mjs';
import { freePort } from '../test/support/wait.mjs';
const stack = await startStack();
await stack.buildSite();
const port = await freePort();
const profile = await mkdtemp(path.join(os.tmpdir(), 'lh-profile-'));
const chrome = spawn('/usr/bin/chromium', ['--headless=new', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, '--no-sandbox', '--disable-gpu', '--disable-quic','--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', 'about:blank'], { stdio: 'ignore' });
for (let i = 0; i < 100; i++) { try { if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break; } catch { await new Promise((r) => setTimeout(r, 100)); } }
for (const route of (process.env.ROUTES ?? '/search,/').split(',')) {
  const lhr = (await lighthouse(stack.url + route, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] })).lhr;
  const a = lhr.audits;
  console.log(route, Math.round(lhr.categories.performance.score * 100), a['largest-contentful-paint'].displayValue, a['first-contentful-paint'].displayValue, a['speed-index'].displayValue, 'TBT', a['total-blocking-time'].displayValue);
  console.log(' LCP el', JSON.stringify(a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet), JSON.stringify(a['largest-contentful-paint-element']?.details?.items?.[1]?.items));
  console.log(' unused', a['unused-javascript'].displayValue, JSON.stringify((a['unused-javascript'].details?.items ?? []).map((i) => [i.url.replace(stack.url, ''), i.totalBytes, i.wastedBytes])));
  console.log(' render-blocking', JSON.stringify((a['render-blocking-resources']?.details?.items ?? []).map((i) => i.url.replace(stack.url, ''))));
  console.log(' requests', JSON.stringify((a['network-requests'].details.items).map((i) => [i.url.replace(stack.url, ''), Math.round(i.networkRequestTime), Math.round(i.networkEndTime), i.transferSize, i.priority])));
  console.log(' shifts', JSON.stringify(a['layout-shifts']?.details?.items?.map((i) => [i.score, i.node?.snippet, i.node?.nodeLabel?.slice(0,60), JSON.stringify(i.subItems?.items ?? [])])));
  await writeFile(`/tmp/sitework/lh${route.replace(/\W/g, '_')}.json`, JSON.stringify(lhr));
}
chrome.kill();
await stack.stop();
