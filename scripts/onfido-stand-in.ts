// Onfido's API, stood in for on this machine, to try PVS in production mode without an Onfido account:
//
//   node --import tsx scripts/onfido-stand-in.ts [--port 4010] [--webhook-url URL]
//
// It prints its base URL and the tokens it accepts (the values of ONFIDO_API_URL, ONFIDO_API_TOKEN and
// ONFIDO_WEBHOOK_TOKEN) and nothing more: no request, name or image is ever printed. Checks complete
// after a moment with the outcome the applicant's last name picks (test/helpers/onfido-stand-in/
// scenarios.ts); with --webhook-url (PVS's /providers/onfido/webhooks) each completion is POSTed there,
// signed. Everything is in memory and ends with the process: Ctrl-C (SIGINT) or SIGTERM.
import { parseArgs } from 'node:util';
import { startOnfidoStandIn } from '../test/helpers/onfido-stand-in/index.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    'webhook-url': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}
const webhookUrl = values['webhook-url'] ?? null;
if (webhookUrl !== null && !URL.canParse(webhookUrl)) {
  console.error(`--webhook-url must be a URL, not ${JSON.stringify(webhookUrl)}`);
  process.exit(2);
}

const standIn = await startOnfidoStandIn({ port, webhookUrl });
console.log(`Onfido stand-in (API v3.6) at ${standIn.url}`);
console.log(`  ONFIDO_API_URL=${standIn.url}`);
console.log(`  ONFIDO_API_TOKEN=${standIn.apiToken}`);
console.log(`  ONFIDO_WEBHOOK_TOKEN=${standIn.webhookToken}`);
console.log(webhookUrl ? `  webhooks to ${webhookUrl}` : '  no webhooks (--webhook-url to send them)');

const stop = () => void standIn.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
