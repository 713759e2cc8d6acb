// Peak resident memory of the builder and everything it started (the renderer, a renderer build),
// sampled by the benchmark from /proc every 100 ms (Linux only; elsewhere peaks are null). A sample
// can miss a short spike, so a peak is a close lower bound.
import { readdir, readFile } from 'node:fs/promises';

const PAGE = 4096;
const BUILDER = /builder[\\/]main\.mjs/;

async function stat(pid) {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(fields[1]), rss: Number(fields[21]) * PAGE };
}

/** The builder under `rootPid` (infra/start.mjs) and its descendants, found by one pass over /proc. */
async function findProcesses(rootPid) {
  const all = [];
  for (const name of await readdir('/proc')) {
    if (/^\d+$/.test(name)) all.push(await stat(Number(name)).catch(() => null));
  }
  const children = new Map();
  for (const p of all.filter(Boolean)) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  let builder = null;
  for (const pid of children.get(rootPid) ?? []) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (BUILDER.test(cmdline)) builder = pid;
  }
  if (!builder) return null;
  const descendants = [];
  for (const stack = [...(children.get(builder) ?? [])]; stack.length;) {
    const pid = stack.pop();
    descendants.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return { builder, descendants };
}

/**
 * Samples until stop(). peak() answers the highest sum of builder + descendants since the last
 * reset(), with each part's own highest value (`builder`, `renderer`).
 */
export function sampleBuilderMemory(rootPid) {
  if (process.platform !== 'linux') return { reset() {}, peak: () => ({ total: null, builder: null, renderer: null }), stop() {} };
  let watched = null;
  let samples = 0;
  let peak = { total: 0, builder: 0, renderer: 0 };
  const sample = async () => {
    // Who to watch is looked up once a second (a renderer may be replaced); in between only their stat files are read.
    if (!watched || samples++ % 10 === 0) watched = (await findProcesses(rootPid).catch(() => null)) ?? watched;
    if (!watched) return;
    const [builder, ...others] = await Promise.all(
      [watched.builder, ...watched.descendants].map((pid) => stat(pid).catch(() => ({ rss: 0 }))),
    );
    const renderer = others.reduce((n, p) => n + p.rss, 0);
    peak = {
      total: Math.max(peak.total, builder.rss + renderer),
      builder: Math.max(peak.builder, builder.rss),
      renderer: Math.max(peak.renderer, renderer),
    };
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sample().finally(() => (busy = false));
  }, 100);
  return {
    reset() {
      peak = { total: 0, builder: 0, renderer: 0 };
    },
    /** Waits for one more sample, so a publish that just ended is counted. */
    async peak() {
      while (busy) await new Promise((resolve) => setTimeout(resolve, 10));
      await sample();
      return { total: peak.total || null, builder: peak.builder || null, renderer: peak.renderer || null };
    },
    stop() {
      clearInterval(timer);
    },
  };
}
