// `mall-api-mock proxy` reads its options from the one option table, as the main command does:
// the help lists each with its default and environment variable, a variable stands in for an
// argument, and a mistake exits 2 with a message.
// An integration test (a run of the command per case): `npm test` and CI run it, the fast suite
// leaves it out.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cli, exitCode, runCli } from '../testing/cli-process.js';
import { proxyEnvPrefix, proxyOptions } from './proxy-cli.js';

describe('mall-api-mock proxy options', () => {
  it('lists every option of the table in --help, with its environment variable and default', async () => {
    const { code, stdout } = await runCli(['proxy', '--help']);
    expect(code).toBe(0);
    for (const name of Object.keys(proxyOptions)) expect(stdout).toContain(`--${name}`);
    expect(stdout).toContain(`[${proxyEnvPrefix}TARGET]`);
    expect(stdout).toMatch(/--port N\s+the port to listen on; 0 picks a free one \(default: 0\)/);
    expect(stdout).not.toContain(`${proxyEnvPrefix}HELP`);
  });

  it.each([
    [['proxy', '--target', 'https://mall.example'], {}, '--api must name one API'],
    [['proxy', '--api', 'admin'], {}, '--target must be'],
    [['proxy', '--api', 'admin', '--target', 'https://mall.example', '--port', 'x'], {}, '--port must be'],
    [
      ['proxy', '--api', 'admin', '--tagret', 'https://mall.example'],
      {},
      'unknown option --tagret (did you mean --target?)',
    ],
    [['proxy', '--api', 'admin'], { [`${proxyEnvPrefix}TARGET`]: 'ftp://mall.example' }, '--target must be'],
    [
      ['proxy', '--api', 'admin', '--target', 'https://mall.example'],
      { [`${proxyEnvPrefix}QUIET`]: 'maybe' },
      `${proxyEnvPrefix}QUIET must be true or false`,
    ],
  ])('exits 2 with a message on a usage mistake (%j %j)', async (args, env, message) => {
    const { code, stderr } = await runCli(args, { env });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('Run mall-api-mock proxy --help');
  });

  it('takes an option from its environment variable when the argument is not given', async () => {
    const child = spawn(process.execPath, [cli, 'proxy', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        [`${proxyEnvPrefix}API`]: 'admin',
        [`${proxyEnvPrefix}TARGET`]: 'http://127.0.0.1:9',
      },
    });
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout?.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('listening on')) resolve(text);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
      });
      expect(output).toMatch(
        /validating proxy of the admin API listening on http:\/\/127\.0\.0\.1:\d+, forwarding to http:\/\/127\.0\.0\.1:9/,
      );
    } finally {
      const exited = exitCode(child);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
