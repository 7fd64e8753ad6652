// How fast the sandbox delivers MESSAGE_CREATE to a bare discord.js client in another process:
// the sandbox runs in its own process, posts N messages at once through its control API, and the
// client counts them. Prints each run and the median of the runs (messages per second).
// Usage: node --import tsx scripts/bench/sandbox-throughput.ts [messages=20000] [runs=3]
import { once } from 'node:events';
import { Events } from 'discord.js';
import { createBotClient } from '../../src/bot/client';
import { benchReport } from './report';
import { median, spawnJson, stop } from './child';

const messages = Number(process.argv[2] ?? 20_000);
const runs = Number(process.argv[3] ?? 3);

interface SandboxInfo {
  url: string;
  apiBase: string;
  cdnBase: string;
  botToken: string;
  demo: { channels: { general: string } };
}

/** One run: a fresh sandbox process and client; returns messages per second at the client. */
async function run(): Promise<number> {
  const { child, info } = await spawnJson<SandboxInfo>('scripts/bench/sandbox-process.ts', { SANDBOX_RELAXED: '1' });
  const client = createBotClient({ api: info.apiBase, cdn: info.cdnBase, globalRequestsPerSecond: 1000 });
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(info.botToken);
    await ready;
    let received = 0;
    let first = 0;
    const done = new Promise<number>((resolve) => {
      client.on(Events.MessageCreate, () => {
        received += 1;
        if (received === 1) first = performance.now();
        if (received === messages) resolve(performance.now());
      });
    });
    const started = performance.now();
    const response = await fetch(`${info.url}/_sandbox/channels/${info.demo.channels.general}/messages/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: messages }),
    });
    if (response.status !== 201) throw new Error(`bulk post answered ${response.status}: ${await response.text()}`);
    const last = await done;
    void first;
    return Math.round(messages / ((last - started) / 1000));
  } finally {
    await client.destroy();
    await stop(child);
  }
}

const results: number[] = [];
for (let i = 0; i < runs; i += 1) {
  const rate = await run();
  results.push(rate);
  console.log(`run ${i + 1}: ${rate} MESSAGE_CREATE/s (${messages} messages)`);
}
const report = benchReport('sandbox-throughput', "The sandbox's ceiling: MESSAGE_CREATE/s to a bare discord.js client");
report.line(`runs: ${results.join(', ')} MESSAGE_CREATE/s (${messages} messages each)`);
report.line(`median of ${runs}: ${median(results)} MESSAGE_CREATE/s`);
report.save();
