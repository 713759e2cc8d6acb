// Child processes of the builder: a shell command in its own process group (the command mode's site
// build, the renderer's code build), stopping a whole group, and sampling memory from /proc.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

/** Keeps the last lines of a stream of output, without terminal colours. */
export function lineTail(tailLines, onLine = () => {}) {
  const tail = [];
  let partial = '';
  const push = (line) => {
    // eslint-disable-next-line no-control-regex
    const clean = line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').trimEnd();
    if (!clean) return;
    tail.push(clean.length > 500 ? `${clean.slice(0, 500)}…` : clean);
    if (tail.length > tailLines) tail.shift();
    onLine(clean);
  };
  return {
    tail,
    push,
    take(chunk) {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) push(line);
    },
    flush() {
      if (partial) push(partial);
      partial = '';
    },
  };
}

/**
 * Runs a command in its own process group (so a timeout or stop ends the whole tree: npm, astro,
 * workers), logging to a file and keeping the last lines. Samples the group's memory.
 * With `args`, `command` is an executable run without a shell.
 */
export function runCommand(command, { args = null, cwd, env, logFile, timeoutMs, tailLines, onChild = () => {} }) {
  return new Promise((resolve) => {
    const log = createWriteStream(logFile);
    const lines = lineTail(tailLines);
    const take = (chunk) => {
      log.write(chunk);
      lines.take(chunk);
    };
    const child = args ? spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(command, { cwd, env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    onChild(child);
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, timeoutMs);
    const memory = sampleMemory({ pgid: child.pid });
    const finish = (exitCode, signal, spawnError) => {
      clearTimeout(timer);
      const peakRssBytes = memory.stop();
      lines.flush();
      if (spawnError) lines.push(`could not start the build command: ${spawnError.message}`);
      log.end(() => resolve({ exitCode, signal, timedOut, peakRssBytes, tail: lines.tail }));
    };
    child.once('error', (error) => finish(null, null, error));
    child.once('close', (code, signal) => finish(code, signal));
  });
}

/**
 * Peak resident memory, sampled from /proc every 100 ms (Linux; null elsewhere), of either a
 * process group (`pgid`) or a process and those of its child processes that `includeChild`
 * accepts (by command line), with all their descendants. A sample can miss a short spike, so this
 * is a close lower bound.
 */
export function sampleMemory({ pgid = null, pid = null, includeChild = () => true }) {
  if (process.platform !== 'linux' || (!pgid && !pid)) return { stop: () => null, peek: () => null, parts: () => null };
  let peak = 0;
  let peakSelf = 0;
  let peakChildren = 0;
  const pageSize = 4096;
  const statOf = async (pid) => {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state ppid pgrp ... ; rss is the 24th field of the whole line.
    return { pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), rss: Number(fields[21]) * pageSize };
  };
  /** The processes counted, found by a pass over /proc; between passes (one a second) only their own stat files are read. */
  let watched = null;
  let samples = 0;
  const count = (procs) => {
    let self = 0;
    let others = 0;
    for (const p of procs) {
      if (p.pid === pid) self = p.rss;
      else others += p.rss;
    }
    if (pid) {
      peakSelf = Math.max(peakSelf, self);
      peakChildren = Math.max(peakChildren, others);
    }
    peak = Math.max(peak, self + others);
  };
  const sample = async () => {
    if (watched && samples++ % 10 !== 0) {
      try {
        return count(await Promise.all(watched.map(statOf)));
      } catch {
        // One of them ended: look again.
      }
    }
    let names;
    try {
      names = await readdir('/proc');
    } catch {
      return;
    }
    const procs = [];
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      try {
        procs.push(await statOf(Number(name)));
      } catch {
        // The process ended between listing and reading.
      }
    }
    let members;
    if (pgid) {
      members = procs.filter((p) => p.pgrp === pgid);
    } else {
      const children = new Map();
      for (const p of procs) {
        if (!children.has(p.ppid)) children.set(p.ppid, []);
        children.get(p.ppid).push(p);
      }
      const root = procs.find((p) => p.pid === pid);
      if (!root) return;
      members = [root];
      const stack = [];
      for (const child of children.get(pid) ?? []) {
        const cmdline = await readFile(`/proc/${child.pid}/cmdline`, 'utf8').catch(() => '');
        if (includeChild(cmdline.replaceAll('\0', ' '))) stack.push(child);
      }
      while (stack.length) {
        const p = stack.pop();
        members.push(p);
        stack.push(...(children.get(p.pid) ?? []));
      }
    }
    watched = members.map((p) => p.pid);
    count(members);
  };
  let busy = false;
  const tick = () => {
    if (busy) return;
    busy = true;
    sample().finally(() => (busy = false));
  };
  tick();
  const timer = setInterval(tick, 100);
  return {
    peek: () => peak || null,
    /** With `pid`: the peaks of the process itself and of its included children, each on its own. */
    parts: () => (pid ? { self: peakSelf || null, children: peakChildren || null } : null),
    stop: () => {
      clearInterval(timer);
      return peak || null;
    },
  };
}
