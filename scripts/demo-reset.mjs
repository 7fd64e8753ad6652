/* global fetch */
// `npm run demo:reset`: asks the running product (sandbox mode, on PORT or 3000 of this machine) to
// wipe the demo server's history and make a month ending now (POST /_discord/_sandbox/demo/reset).
const port = process.env.PORT ?? '3000';
const url = `http://localhost:${port}/_discord/_sandbox/demo/reset`;
try {
  const response = await fetch(url, { method: 'POST' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    console.error(`The demo was not reset: ${body.message ?? `the product answered ${response.status}`}`);
    process.exitCode = 1;
  } else {
    console.log(`The demo server has a new month of history, ending ${body.anchor} (${body.messages} messages, ${body.cases} cases, ${body.ms} ms).`);
  }
} catch {
  console.error(`No product answered at ${url}: start it with npm start (sandbox mode), or set PORT to its port.`);
  process.exitCode = 1;
}
