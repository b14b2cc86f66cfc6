// The cluster scenario (cluster_diff_test.go): Tinode's own JavaScript
// client drives a three-node Tinode cluster (Tinode's cluster mode, one
// store) through one group topic whose members are attached to different
// nodes: messages sent through every node, in turn and at once; read and
// recv notes; 'me' and 'fnd' read on nodes that do not host the group;
// the group's node stopped, so the group moves to a running node, and
// started again, so it moves back. The same script runs against the
// cluster on Tinode's own PostgreSQL adapter and on adapters/tinode; each
// step records what the clients saw, normalised (transcript.mjs), and
// where the cluster hosts the topics, told by the nodes' status pages and
// named by role (the users attached to a node), never by node name: node
// names and user IDs differ between runs, roles do not.
//
// CLUSTER_NODES lists the nodes ([{name, host}]); CONTROL_URL is the
// test's control endpoint (/where?topic=, /stop?node=, /start?node=);
// the transcript is written as JSON to DIFF_OUT.
import * as T from './transcript.mjs';
import {label, req, seqs, sleep, step} from './transcript.mjs';

// A connection a node closes makes tinode-sdk reject a promise nobody
// holds; the steps record what the clients see, so it is logged, not
// fatal.
process.on('unhandledRejection', reason => console.log('unhandled rejection:', reason && (reason.message || reason.type || reason)));

const nodes = JSON.parse(process.env.CLUSTER_NODES);
const control = process.env.CONTROL_URL;
const out = process.env.DIFF_OUT;
const hostOf = name => nodes.find(n => n.name == name).host;

async function ctl(path) {
  const res = await fetch(control + path);
  const body = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${body}`);
  return JSON.parse(body);
}
// where tells which nodes have topic loaded: {master: [...], proxies: [...]}.
const where = topic => ctl('/where?topic=' + encodeURIComponent(topic));

const U = {
  alice: {login: 'alice1', pass: 'alice-secret'},
  bob: {login: 'bob1', pass: 'bob-secret'},
  carol: {login: 'carol1', pass: 'carol-secret'},
};
const users = Object.keys(U);
const C = {}; // each user's client
const at = {}; // the node each user's client is attached to
const meName = who => U[who].uid; // the expanded name of a user's 'me'
const fndName = who => 'fnd' + U[who].uid.slice(3);
// role names node by the users attached to it ("alice+bob"), or "none".
const role = node => users.filter(u => at[u] == node).join('+') || 'none';
const roles = list => (list || []).map(role).sort();

async function signUp(who, node) {
  const u = U[who];
  const tn = await T.connected(who, hostOf(node));
  const r = await req(tn, null, () => tn.createAccountBasic(u.login, u.pass, {
    public: {fn: `${who} the tester`},
    private: {comment: `${who}'s own note`},
    tags: ['tester', `${who}tag`],
  }));
  if (r.params && r.params.user) {
    u.uid = r.params.user;
    label(u.uid, 'usr', who);
  }
  C[who] = tn;
  at[who] = node;
  return r;
}
// attach connects who's client to node (dropping its connection to any
// other), logs in, and subscribes to 'me' and 'fnd'; it returns the
// login's reply.
async function attach(who, node) {
  if (C[who]) {
    try { C[who].disconnect(); } catch (e) {}
  }
  const tn = await T.connected(who, hostOf(node));
  const r = await req(tn, null, () => tn.loginBasic(U[who].login, U[who].pass));
  C[who] = tn;
  at[who] = node;
  const me = await T.sub(tn, 'me', {what: 'desc'});
  const fnd = await T.sub(tn, 'fnd', {});
  const code = x => x.code !== undefined ? x.code : x; // the code, or the error
  return {login: r, me: code(me), fnd: code(fnd)};
}
async function attachAll(plan) {
  const res = {};
  for (const [who, node] of Object.entries(plan)) res[who] = await attach(who, node);
  return res;
}
// send publishes n messages through every client in turn and returns
// the SeqIds.
async function send(n, tag) {
  const got = [];
  for (let i = 0; i < n; i++) {
    const who = users[i % users.length];
    const r = await T.pub(C[who], grp, `${tag} ${i + 1} from ${who}`);
    got.push(r.params ? r.params.seq : r);
  }
  return got;
}

// marksSeen reads the group's subscribers as alice sees them, again
// every 200 ms (at most 5 s) until every one of bob's marks in want
// (such as {recv: 27, read: 21}) reaches its seq: a {note} has no reply,
// and its mark is stored after the master topic gets it. Every mark is
// waited for, not only the first sent: bob's notes are handled one after
// the other, so the view may hold his recv mark before his read mark.
async function marksSeen(want) {
  const t0 = Date.now();
  for (;;) {
    const r = await T.get(C.alice, grp, {what: 'sub'});
    const subs = (r.meta || []).flatMap(m => m.sub || []);
    const bob = subs.find(x => x.user == U.bob.uid);
    if ((bob && Object.entries(want).every(([what, seq]) => bob[what] >= seq)) || Date.now() - t0 > 5000) return r;
    await sleep(200);
  }
}

let grp, X, B, Cn; // the group; the nodes of alice (the group's), bob and carol
const [first] = nodes.map(n => n.name);

// ---- three users on three nodes, one group ----
await step('alice, bob and carol sign up through one node', async () => {
  const res = {};
  for (const who of users) res[who] = await signUp(who, first);
  return res;
});
await step("bob's 'me' and 'fnd' are each hosted by one node", async () => {
  await T.sub(C.bob, 'me', {what: 'desc'});
  await T.sub(C.bob, 'fnd', {});
  const me = await where(meName('bob')), fnd = await where(fndName('bob'));
  // The group will be hosted on a node that hosts neither (a new group
  // is named so that the creating session's node hosts it): alice's.
  // Bob attaches to the node that hosts neither the group nor his 'me',
  // so he reads 'me' through a proxy too; carol to the last one.
  const names = nodes.map(n => n.name);
  X = names.find(n => n != me.master[0] && n != fnd.master[0]);
  B = names.find(n => n != X && n != me.master[0]);
  Cn = names.find(n => n != X && n != B);
  return {me: me.master.length, fnd: fnd.master.length};
});
await step('alice, bob and carol attach to three different nodes', () => attachAll({alice: X, bob: B, carol: Cn}));
await step('alice creates a group through her node', async () => {
  const r = await T.sub(C.alice, C.alice.newGroupTopicName(false), {what: 'desc sub tags'},
    {desc: {public: {fn: 'Cluster club'}, private: {comment: 'my club'}, defacs: {auth: 'JRWPS', anon: 'N'}}, tags: ['club', 'cluster']});
  grp = r.topic;
  label(grp, 'grp', '1');
  return r;
});
await step('bob and carol join through their nodes', async () => ({
  bob: await T.sub(C.bob, grp, {what: 'desc sub'}, {desc: {private: {comment: 'bob in the club'}}}),
  carol: await T.sub(C.carol, grp, {what: 'desc sub'}),
}));
await step("where the topics are: the group on alice's node, proxies on bob's and carol's; bob's 'me' and 'fnd' elsewhere, his 'me' not on his node", async () => {
  const g = await where(grp), me = await where(meName('bob')), fnd = await where(fndName('bob'));
  return {
    group: {master: roles(g.master), proxies: roles(g.proxies)},
    bobMeOnGroupNode: me.master.includes(g.master[0]),
    bobFndOnGroupNode: fnd.master.includes(g.master[0]),
    bobMeOnBobsNode: me.master.includes(at.bob),
  };
});
await step('9 messages through every node in turn', () => send(9, 'message'));
await step("bob's 'me' right after, read on a node that does not host the group", () => T.get(C.bob, 'me', {what: 'sub'}));
await step('15 messages at once, 5 through each node', async () => {
  const res = await Promise.all(users.map(async who => {
    const s = [];
    for (let i = 1; i <= 5; i++) {
      const r = await T.pub(C[who], grp, `burst ${i} from ${who}`);
      s.push(r.params ? r.params.seq : r);
    }
    return s;
  }));
  return {seqs: res.flat().sort((a, b) => a - b), eachAscending: res.map(s => s.every((v, i) => i == 0 || v > s[i - 1]))};
});
await step('3 messages in turn after the burst', () => send(3, 'after the burst'));
await step("bob's 'me' right after", () => T.get(C.bob, 'me', {what: 'sub'}));
await step('bob notes recv 27 and read 21; alice sees his marks', async () => {
  C.bob.note(grp, 'recv', 27);
  C.bob.note(grp, 'read', 21);
  return marksSeen({recv: 27, read: 21});
});
await step("bob's 'me' with his marks", () => T.get(C.bob, 'me', {what: 'sub'}));
await step("alice's and carol's 'me'", async () => ({
  alice: await T.get(C.alice, 'me', {what: 'sub'}), carol: await T.get(C.carol, 'me', {what: 'sub'}),
}));
await step("bob finds the group and alice in 'fnd', on a node that does not host the group", async () => {
  await T.set(C.bob, 'fnd', {desc: {public: 'club'}});
  const g = await T.get(C.bob, 'fnd', {what: 'sub'});
  await T.set(C.bob, 'fnd', {desc: {public: 'alicetag'}});
  return {group: g, alice: await T.get(C.bob, 'fnd', {what: 'sub'})};
});
await step('the newest 10 messages through every node', async () => {
  const res = {};
  for (const who of users) res[who] = seqs(await T.get(C[who], grp, {what: 'data', data: {limit: 10}}));
  return res;
});
await step('the group desc through every node', async () => {
  const res = {};
  for (const who of users) res[who] = await T.get(C[who], grp, {what: 'desc'});
  return res;
});

// ---- the group's node stops: its topics move ----
await step("alice's node, the group's, stops", async () => {
  // Its clients leave first (a stopping node closes their connections:
  // tinode-sdk then rejects a promise nobody holds).
  for (const who of users) {
    if (at[who] == X) C[who].disconnect();
  }
  await ctl('/stop?node=' + X);
  return {stopped: true};
});
await step("alice attaches to bob's node; bob and carol attach again", () => attachAll({alice: B, bob: B, carol: Cn}));
await step('they subscribe to the group again: its SeqId and marks', async () => {
  const res = {};
  for (const who of users) res[who] = await T.sub(C[who], grp, {what: 'desc sub'});
  return res;
});
await step('the group moved to a running node', async () => {
  const g = await where(grp);
  return {masters: g.master.length, onStoppedNode: g.master.includes(X), proxies: g.proxies.length};
});
await step('6 messages through both running nodes', () => send(6, 'moved'));
await step("bob's 'me' after the move", () => T.get(C.bob, 'me', {what: 'sub'}));
await step("alice's and carol's 'me' after the move", async () => ({
  alice: await T.get(C.alice, 'me', {what: 'sub'}), carol: await T.get(C.carol, 'me', {what: 'sub'}),
}));
await step("bob finds the group in 'fnd' after the move", async () => {
  await T.set(C.bob, 'fnd', {desc: {public: 'club'}});
  return T.get(C.bob, 'fnd', {what: 'sub'});
});
await step('the newest 10 messages after the move', async () =>
  ({seqs: seqs(await T.get(C.carol, grp, {what: 'data', data: {limit: 10}}))}));

// ---- the node starts again: its topics move back ----
await step("alice's node starts again", async () => {
  await ctl('/start?node=' + X);
  return {started: true};
});
await step('alice, bob and carol attach to their first nodes again', () => attachAll({alice: X, bob: B, carol: Cn}));
await step('they subscribe to the group again: its SeqId and marks', async () => {
  const res = {};
  for (const who of users) res[who] = await T.sub(C[who], grp, {what: 'desc sub'});
  return res;
});
await step("where the topics are: the group back on alice's node, proxies on bob's and carol's; bob's 'me' and 'fnd' elsewhere, his 'me' not on his node", async () => {
  const g = await where(grp), me = await where(meName('bob')), fnd = await where(fndName('bob'));
  return {
    group: {master: roles(g.master), proxies: roles(g.proxies)},
    bobMeOnGroupNode: me.master.includes(g.master[0]),
    bobFndOnGroupNode: fnd.master.includes(g.master[0]),
    bobMeOnBobsNode: me.master.includes(at.bob),
  };
});
await step('6 messages through every node after the restart', () => send(6, 'back'));
await step("bob's 'me' right after, on a node that does not host the group", () => T.get(C.bob, 'me', {what: 'sub'}));
await step('bob notes recv and read 39; alice sees his marks', async () => {
  C.bob.note(grp, 'recv', 39);
  C.bob.note(grp, 'read', 39);
  return marksSeen({recv: 39, read: 39});
});
await step("bob's, alice's and carol's 'me' after the restart", async () => ({
  bob: await T.get(C.bob, 'me', {what: 'sub'}),
  alice: await T.get(C.alice, 'me', {what: 'sub'}),
  carol: await T.get(C.carol, 'me', {what: 'sub'}),
}));
await step("bob finds the group in 'fnd' after the restart", async () => {
  await T.set(C.bob, 'fnd', {desc: {public: 'club'}});
  return T.get(C.bob, 'fnd', {what: 'sub'});
});
await step('the whole history in pages of 10, as bob reads it', async () => {
  const pages = [];
  let before;
  for (let i = 0; i < 6; i++) {
    const r = await T.get(C.bob, grp, {what: 'data', data: before ? {before, limit: 10} : {limit: 10}});
    const s = seqs(r);
    if (!s.length) break;
    pages.push(s);
    before = Math.min(...s);
  }
  return pages;
});
await step('the group desc and subscribers through every node', async () => {
  const res = {};
  for (const who of users) res[who] = await T.get(C[who], grp, {what: 'desc sub'});
  return res;
});
await step('alice deletes the group', () => req(C.alice, grp, () => C.alice.delTopic(grp, true)));
await step("bob's 'me' after the group is deleted", () => T.get(C.bob, 'me', {what: 'sub'}));

for (const tn of Object.values(C)) {
  try { tn.disconnect(); } catch (e) {}
}
T.writeTranscript(out);
process.exit(0);
