// Child processes of the builder: a shell command in its own process group (the command mode's site
// build, the renderer's code build) and stopping a whole group.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

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
 * workers), logging to a file and keeping the last lines.
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
    const child = args
      ? spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(command, { cwd, env, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    onChild(child);
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
    }, timeoutMs);
    const finish = (exitCode, signal, spawnError) => {
      clearTimeout(timer);
      lines.flush();
      if (spawnError) lines.push(`could not start the build command: ${spawnError.message}`);
      log.end(() => resolve({ exitCode, signal, timedOut, tail: lines.tail }));
    };
    child.once('error', (error) => finish(null, null, error));
    child.once('close', (code, signal) => finish(code, signal));
  });
}
