// Drives Tinode's server (on the singletable DynamoDB adapter) with
// Tinode's own JavaScript client. Each step asserts what the client sees
// and, through CHECK_URL (served by e2e_test.go), what the table holds.
// Prints one line per step and "N passed, M failed" last; exits non-zero
// on a failure.
import {newClient} from './client.mjs';

const checkURL = process.env.CHECK_URL;
const run = Date.now().toString(36);

let passed = 0, failed = 0;
function assert(cond, what) {
  if (!cond) {
    throw new Error(what);
  }
}
async function step(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok   ${name} (${Date.now() - t0} ms)`);
  } catch (err) {
    failed++;
    console.log(`FAIL ${name}: ${err && err.message ? err.message : err}`);
  }
}
async function table(kind, params) {
  const q = new URLSearchParams({kind, ...params});
  const res = await fetch(`${checkURL}/?${q}`);
  if (!res.ok) {
    throw new Error(`table check ${kind}: ${await res.text()}`);
  }
  return res.json();
}

// tinode-sdk gives up on a reply after 5 s (a fixed constant); on a busy
// machine a request that writes many items may take longer while the
// server completes it. late() runs fn and, if the client timed out (504),
// waits until settled() holds, so the step still asserts the outcome.
async function late(fn, settled) {
  try {
    return await fn();
  } catch (err) {
    if (!err || err.code != 504) throw err;
    for (let i = 0; i < 60; i++) {
      const v = await settled();
      if (v) return v;
      await new Promise(r => setTimeout(r, 500));
    }
    throw err;
  }
}

// A client that records the {data} and {meta} packets it receives.
function client() {
  const tn = newClient('singletable-e2e');
  tn.data = [];
  tn.meta = [];
  tn.onRawMessage = raw => {
    const pkt = JSON.parse(raw);
    if (pkt.data) tn.data.push(pkt.data);
    if (pkt.meta) tn.meta.push(pkt.meta);
  };
  return tn;
}
async function connected() {
  const tn = client();
  await tn.connect();
  return tn;
}
// Reads messages with {get what=data} and returns their SeqIds as received.
async function readData(tn, topic, params) {
  tn.data = [];
  await tn.getMeta(topic, {what: 'data', data: params});
  return tn.data.filter(d => d.topic == topic);
}

const A = {login: `e2ea${run}`, pass: 'secret123', fn: 'E2E Alice'};
const B = {login: `e2eb${run}`, pass: 'secret456', fn: 'E2E Bob'};
let ca, cb, grp, p2p;

await step('two accounts sign up', async () => {
  for (const u of [A, B]) {
    const tn = await connected();
    const ctrl = await late(() => tn.createAccountBasic(u.login, u.pass, {public: {fn: u.fn}, tags: [`e2e${run}`]}),
      async () => {
        const again = await connected();
        try {
          return await again.loginBasic(u.login, u.pass);
        } catch (e) {
          return null;
        } finally {
          again.disconnect();
        }
      });
    assert(ctrl.code >= 200 && ctrl.code < 300, `sign-up code ${ctrl.code}`);
    u.uid = ctrl.params.user;
    assert(u.uid && u.uid.startsWith('usr'), `user id ${u.uid}`);
    tn.disconnect();
    const row = await table('user', {id: u.uid});
    assert(row.exists && row.state == 0, `user ${u.uid} in the table: ${JSON.stringify(row)}`);
    assert(row.tags.includes(`basic:${u.login}`), `tags ${row.tags}`);
  }
});

await step('both log in', async () => {
  ca = await connected();
  cb = await connected();
  const ra = await ca.loginBasic(A.login, A.pass);
  const rb = await cb.loginBasic(B.login, B.pass);
  assert(ra.params.user == A.uid && rb.params.user == B.uid, 'login returned other users');
  const bad = await connected();
  let refused = false;
  try {
    await bad.loginBasic(A.login, 'wrong-password');
  } catch (e) {
    refused = true;
  }
  bad.disconnect();
  assert(refused, 'a wrong password was accepted');
  await ca.subscribe('me', {what: 'desc sub'});
  await cb.subscribe('me', {what: 'desc sub'});
});

await step('a group topic is created', async () => {
  const ctrl = await ca.subscribe(ca.newGroupTopicName(false), {what: 'desc sub'},
    {desc: {public: {fn: `E2E group ${run}`}, defacs: {auth: 'JRWPS', anon: 'N'}}, tags: [`e2egrp${run}`]});
  grp = ctrl.topic;
  assert(grp && grp.startsWith('grp'), `topic name ${grp}`);
  const row = await table('topic', {name: grp});
  assert(row.exists && row.owner == A.uid && row.subcnt == 1, `topic row ${JSON.stringify(row)}`);
});

await step('both subscribe', async () => {
  const ctrl = await cb.subscribe(grp, {what: 'desc sub'});
  assert(ctrl.code >= 200 && ctrl.code < 300, `subscribe code ${ctrl.code}`);
  const row = await table('topic', {name: grp});
  assert(row.subcnt == 2, `SubCnt ${row.subcnt}, want 2`);
  const sub = await table('sub', {topic: grp, user: B.uid});
  assert(sub.exists && !sub.deleted, `B's subscription ${JSON.stringify(sub)}`);
});

const N = 7;
await step(`${N} messages published with gap-free SeqIds`, async () => {
  const seqs = [];
  for (let i = 1; i <= N; i++) {
    const tn = i % 2 ? ca : cb;
    const ctrl = await late(() => tn.publish(grp, `message ${i}`, true),
      async () => (await table('topic', {name: grp})).seq == i && {params: {seq: i}});
    seqs.push(ctrl.params.seq);
  }
  assert(seqs.join() == [1, 2, 3, 4, 5, 6, 7].join(), `SeqIds ${seqs}`);
  const row = await table('topic', {name: grp});
  assert(row.seq == N, `topic SeqId ${row.seq}`);
  const msgs = await table('msgs', {topic: grp});
  assert(msgs.map(m => m.seq).join() == seqs.join(), `stored SeqIds ${msgs.map(m => m.seq)}`);
  assert(msgs[2].content == '"message 3"', `stored content ${msgs[2].content}`);
});

await step('messages read back in order', async () => {
  const got = await readData(cb, grp, {since: 1});
  const seqs = got.map(d => d.seq).sort((x, y) => x - y);
  assert(seqs.join() == '1,2,3,4,5,6,7', `read SeqIds ${got.map(d => d.seq)}`);
  for (const d of got) {
    assert(d.content == `message ${d.seq}`, `message ${d.seq} reads ${d.content}`);
    assert(d.from == (d.seq % 2 ? A.uid : B.uid), `message ${d.seq} from ${d.from}`);
  }
});

await step('history is paged', async () => {
  const pages = [];
  let before = N + 1;
  while (before > 1) {
    const page = await readData(cb, grp, {before, limit: 3});
    const seqs = page.map(d => d.seq).sort((x, y) => y - x);
    assert(seqs.length > 0, `empty page before ${before}`);
    pages.push(seqs.join(' '));
    before = Math.min(...seqs);
  }
  assert(pages.join(' | ') == '7 6 5 | 4 3 2 | 1', `pages ${pages.join(' | ')}`);
});

await step('a range deleted for one user', async () => {
  await late(() => cb.delMessages(grp, [{low: 1, hi: 3}], false), async () => (await table('dellog', {topic: grp, user: B.uid})).length == 1);
  const seen = (await readData(cb, grp, {since: 1})).map(d => d.seq).sort((x, y) => x - y);
  assert(seen.join() == '3,4,5,6,7', `B sees ${seen}`);
  const other = (await readData(ca, grp, {since: 1})).map(d => d.seq).sort((x, y) => x - y);
  assert(other.join() == '1,2,3,4,5,6,7', `A sees ${other}`);
  const msgs = await table('msgs', {topic: grp});
  assert(msgs[0].deletedFor && msgs[0].deletedFor.includes(B.uid) && msgs[1].deletedFor.includes(B.uid), 'DeletedFor not stored');
  assert(!msgs[2].deletedFor || !msgs[2].deletedFor.length, 'message 3 marked deleted');
  const log = await table('dellog', {topic: grp, user: B.uid});
  assert(log.length == 1 && log[0].delid == 1 && log[0].forUser, `deletion log ${JSON.stringify(log)}`);
});

await step('a range deleted for all', async () => {
  await late(() => ca.delMessages(grp, [{low: 4, hi: 6}], true), async () => (await table('topic', {name: grp})).delid == 2);
  const seen = (await readData(cb, grp, {since: 1})).map(d => d.seq).sort((x, y) => x - y);
  assert(seen.join() == '3,6,7', `B sees ${seen}`);
  const seenA = (await readData(ca, grp, {since: 1})).map(d => d.seq).sort((x, y) => x - y);
  assert(seenA.join() == '1,2,3,6,7', `A sees ${seenA}`);
  const msgs = await table('msgs', {topic: grp});
  assert(msgs[3].deleted && msgs[4].deleted && !msgs[5].deleted, 'DeletedAt not stored');
  assert(!msgs[3].content || msgs[3].content == 'null', `deleted content kept: ${msgs[3].content}`);
  const row = await table('topic', {name: grp});
  assert(row.delid == 2, `topic DelId ${row.delid}`);
  const log = await table('dellog', {topic: grp, user: A.uid});
  assert(log.length == 1 && log[0].delid == 2 && !log[0].forUser, `A's deletion log ${JSON.stringify(log)}`);
});

await step('a P2P topic is opened', async () => {
  const ctrl = await late(() => ca.subscribe(B.uid, {what: 'desc sub'}), async () => (await table('p2p', {a: A.uid, b: B.uid})).exists && {code: 200});
  assert(ctrl.code >= 200 && ctrl.code < 300, `subscribe code ${ctrl.code}`);
  const pub = await late(() => ca.publish(B.uid, 'hello bob', true),
    async () => (await table('p2p', {a: A.uid, b: B.uid})).seq == 1 && {params: {seq: 1}});
  assert(pub.params.seq == 1, `p2p SeqId ${pub.params.seq}`);
  const row = await table('p2p', {a: A.uid, b: B.uid});
  p2p = row.name;
  assert(row.exists && row.seq == 1 && row.subcnt == 2, `p2p row ${JSON.stringify(row)}`);
  const sub = await table('sub', {topic: p2p, user: B.uid});
  assert(sub.exists, 'B has no p2p subscription');
  await cb.subscribe(A.uid, {what: 'desc sub'});
  const got = await readData(cb, A.uid, {since: 1});
  assert(got.length == 1 && got[0].content == 'hello bob', `B reads ${JSON.stringify(got)}`);
});

await step('tags set and found', async () => {
  const tag = `e2efind${run}`;
  await ca.setMeta('me', {tags: [tag, `basic:${A.login}`, `alias:al${run}`]});
  const row = await table('user', {id: A.uid});
  assert(row.tags.includes(tag) && row.tags.includes(`alias:al${run}`), `stored tags ${row.tags}`);
  await cb.subscribe('fnd', {});
  await cb.setMeta('fnd', {desc: {public: tag}});
  cb.meta = [];
  await cb.getMeta('fnd', {what: 'sub'});
  const subs = cb.meta.filter(m => m.topic == 'fnd').flatMap(m => m.sub || []);
  assert(subs.some(s => s.topic == A.uid || s.user == A.uid), `fnd found ${JSON.stringify(subs.map(s => s.topic || s.user))}`);
  // An alias another user holds is taken as on Tinode's SQL adapters
  // (no tag is unique in the store by default): 200, both hold it.
  const ctrl = await cb.setMeta('me', {tags: [`alias:al${run}`, `basic:${B.login}`]});
  assert(ctrl.code == 200, `B's alias: ${ctrl.code} ${ctrl.text}`);
  const rowB = await table('user', {id: B.uid});
  assert(rowB.tags.includes(`alias:al${run}`), `B's tags ${rowB.tags}`);
});

await step('an account is deleted', async () => {
  await late(() => cb.delCurrentUser(true), async () => !(await table('user', {id: B.uid})).exists);
  const row = await table('user', {id: B.uid});
  assert(!row.exists, `B still in the table: ${JSON.stringify(row)}`);
  const sub = await table('sub', {topic: grp, user: B.uid});
  assert(!sub.exists, 'B still subscribed to the group');
  const tp = await table('topic', {name: grp});
  assert(tp.subcnt == 1, `group SubCnt ${tp.subcnt}, want 1`);
  let refused = false;
  const again = await connected();
  try {
    await again.loginBasic(B.login, B.pass);
  } catch (e) {
    refused = true;
  }
  again.disconnect();
  assert(refused, 'a deleted account logged in');
});

try { ca.disconnect(); } catch (e) {}
try { cb.disconnect(); } catch (e) {}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
