// Runs a page of Web/ in headless Chromium and collects what it posts to /result: for the parts that
// only a browser has (IndexedDB, Web Locks, its WebSocket). CHROMIUM names the binary.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { temporaryDirectory } from './server.mjs';

/** The Chromium binary, if there is one. */
export const CHROMIUM = process.env.CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(existsSync);

const WEB = fileURLToPath(new URL('../../../', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript' };

/**
 * Serves Web/ on a free port; `run(path)` opens a page in Chromium and resolves with the JSON it posts.
 * @returns {Promise<{origin: string, run: (path: string) => Promise<any>, close: () => Promise<void>}>}
 */
export async function startPageServer() {
  /** @type {((value: any) => void) | null} */
  let deliver = null;
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/result') {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        response.end('ok');
        deliver?.(JSON.parse(body));
      });
      return;
    }
    const path = normalize(join(WEB, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(WEB) || !existsSync(path)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
    response.end(readFileSync(path));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const origin = `http://127.0.0.1:${/** @type {any} */ (server.address()).port}`;
  return {
    origin,
    async run(path) {
      const results = new Promise((resolve) => {
        deliver = resolve;
      });
      const profile = temporaryDirectory('inkwell-chromium-');
      // In a process group of its own, so its helper processes end with it.
      const browser = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', `--user-data-dir=${profile.path}`, `${origin}${path}`], {
        stdio: 'ignore',
        detached: true,
      });
      const exited = new Promise((resolve) => browser.once('exit', resolve));
      try {
        const outcome = await Promise.race([results, exited.then(() => null)]);
        if (outcome === null) throw new Error('the browser exited before reporting');
        return outcome;
      } finally {
        try {
          process.kill(-(/** @type {number} */ (browser.pid)), 'SIGTERM');
        } catch {
          // Already gone.
        }
        await exited;
        await new Promise((resolve) => setTimeout(resolve, 200));
        try {
          profile.cleanup();
        } catch {
          // A profile a straggling helper still writes to is left in the temporary directory.
        }
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
