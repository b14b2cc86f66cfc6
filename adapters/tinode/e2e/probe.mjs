// probe.mjs logs in to one node of a cluster (PROBE_HOST) as PROBE_LOGIN,
// a user of the test's own (made on first use), prints "uid <user id>",
// and then, with PROBE_TOPIC ('me' or 'fnd'), subscribes to it every
// 250 ms until it is stopped. cluster_harness_test.go's Start uses it: a
// node whose connection to another node broke when that one stopped
// finds out only when a request over it fails (and is lost), so it is
// made to send requests to the node hosting the probe user's topic until
// it has connected again.
import {newClient} from './client.mjs';

process.on('unhandledRejection', () => {});
const sleep = ms => new Promise(r => setTimeout(r, ms));
const tn = newClient('singletable-probe', process.env.PROBE_HOST);
await tn.connect();
const login = process.env.PROBE_LOGIN, pass = 'probe-secret';
let ctrl;
try {
  ctrl = await tn.loginBasic(login, pass);
} catch (err) {
  ctrl = await tn.createAccountBasic(login, pass, {public: {fn: 'cluster probe'}});
}
console.log('uid ' + ctrl.params.user);
const topic = process.env.PROBE_TOPIC;
if (!topic) process.exit(0);
for (;;) {
  tn.subscribe(topic).catch(() => {});
  await sleep(250);
}
