// The differential scenario (diff_test.go): Tinode's own JavaScript client
// drives a Tinode server through a user's life: sign-up, credentials,
// login, tags, search, group and P2P topics, invitations, access, messages,
// history, notes, deletions, attachments, leaving, topic and account
// deletion, and a server restart. The same script runs against Tinode on
// its own PostgreSQL adapter and on adapters/tinode; each step records what
// the client saw (the {ctrl} reply, or the error, with the {meta} and
// {data} packets that came with it), normalised: IDs become labels
// (usr:alice, grp:1, file:1), times "<time>", tokens "<token>", and
// lists whose order Tinode does not define are sorted. The transcript is
// written as JSON to DIFF_OUT; diff_test.go compares two of them.
import {apiKey, host} from './client.mjs';
import * as T from './transcript.mjs';
import {label, req, seqs, sleep, step} from './transcript.mjs';

const restartURL = process.env.RESTART_URL;
const out = process.env.DIFF_OUT;

// The requests of transcript.mjs, by user name.
const connected = name => T.connected(name);
const sub = (who, ...a) => T.sub(C[who], ...a);
const get = (who, ...a) => T.get(C[who], ...a);
const set = (who, ...a) => T.set(C[who], ...a);
const pub = (who, ...a) => T.pub(C[who], ...a);
const leave = (who, ...a) => T.leave(C[who], ...a);

const U = {
  alice: {login: 'alice1', pass: 'alice-secret', email: 'alice@example.com'},
  bob: {login: 'bob1', pass: 'bob-secret', email: 'bob@example.com'},
  carol: {login: 'carol1', pass: 'carol-secret', email: 'carol@example.com'},
  dave: {login: 'dave1', pass: 'dave-secret', email: 'dave@example.com'},
};
const C = {}; // logged-in clients
let grp, grp2, token, fileURL;

async function signUp(who, extra = {}) {
  const u = U[who];
  const tn = await connected(who);
  const r = await req(tn, null, () => tn.createAccountBasic(u.login, u.pass, {
    public: {fn: `${who} the tester`, note: `I am ${who}`},
    private: {comment: `${who}'s own note`},
    tags: [`tester`, `${who}tag`],
    cred: [{meth: 'email', val: u.email}],
    ...extra,
  }));
  if (r.params && r.params.user) {
    u.uid = r.params.user;
    label(u.uid, 'usr', who);
  }
  C[who] = tn;
  return r;
}
async function login(who, pass) {
  const tn = await connected(who);
  const r = await req(tn, null, () => tn.loginBasic(U[who].login, pass || U[who].pass));
  if (!pass) C[who] = tn;
  else tn.disconnect();
  return r;
}
await step('alice signs up with public, private, tags and an email', () => signUp('alice'));
await step('alice validates her email with a wrong code', () =>
  req(C.alice, null, () => C.alice.loginBasic(U.alice.login, U.alice.pass, [{meth: 'email', resp: '000000'}])));
await step('alice validates her email with the right code', () =>
  req(C.alice, null, () => C.alice.loginBasic(U.alice.login, U.alice.pass, [{meth: 'email', resp: '123456'}])));
await step('bob signs up and validates', async () => {
  const r = await signUp('bob');
  const v = await req(C.bob, null, () => C.bob.loginBasic(U.bob.login, U.bob.pass, [{meth: 'email', resp: '123456'}]));
  return {signUp: r, validate: v};
});
await step('carol and dave sign up and validate', async () => {
  const res = {};
  for (const who of ['carol', 'dave']) {
    res[who] = await signUp(who);
    res[who + 'Validate'] = await req(C[who], null, () => C[who].loginBasic(U[who].login, U[who].pass, [{meth: 'email', resp: '123456'}]));
  }
  return res;
});
await step('a taken login is refused', async () => {
  const tn = await connected('x');
  const r = await req(tn, null, () => tn.createAccountBasic(U.alice.login, 'other-secret', {public: {fn: 'x'}, cred: [{meth: 'email', val: 'x@example.com'}]}));
  tn.disconnect();
  return r;
});
await step('a taken email is refused', async () => {
  const tn = await connected('x');
  const r = await req(tn, null, () => tn.createAccountBasic('xavier1', 'other-secret', {public: {fn: 'x'}, cred: [{meth: 'email', val: U.alice.email}]}));
  tn.disconnect();
  return r;
});
await step('alice logs in with a wrong password', () => login('alice', 'not-her-password'));
await step('alice logs in by password', async () => {
  const r = await login('alice');
  token = C.alice.getAuthToken().token;
  return r;
});
await step('alice logs in by token', async () => {
  const tn = await connected('alice-token');
  const r = await req(tn, null, () => tn.loginToken(token));
  tn.disconnect();
  return r;
});
for (const who of ['bob', 'carol', 'dave']) {
  C[who].disconnect();
  await login(who);
}
await step('alice subscribes to me: desc, subs, tags, creds', () => sub('alice', 'me', {what: 'desc sub tags cred'}));
await step('alice sets plain and alias tags', () => set('alice', 'me', {tags: ['tester', 'alicetag', 'chess', 'alias:alice', `basic:${U.alice.login}`, `email:${U.alice.email}`]}));
await step('alice reads her tags', () => get('alice', 'me', {what: 'tags'}));
await step('bob subscribes to me', () => sub('bob', 'me', {what: 'desc sub tags'}));
await step('bob sets an alias held by alice', () => set('bob', 'me', {tags: ['tester', 'bobtag', 'alias:alice', `basic:${U.bob.login}`, `email:${U.bob.email}`]}));
await step('bob sets a tag in the restricted email namespace', () => set('bob', 'me', {tags: ['tester', 'bobtag', 'alias:alice', `basic:${U.bob.login}`, `email:${U.bob.email}`, 'email:bob2@example.com']}));
await step('bob reads his tags', () => get('bob', 'me', {what: 'tags'}));
await step('bob updates his public and private', () => set('bob', 'me', {desc: {public: {fn: 'Robert'}, private: {comment: 'bob, renamed'}}}));
await step('bob reads his desc', () => get('bob', 'me', {what: 'desc'}));
await step('bob adds a second email', () => set('bob', 'me', {cred: {meth: 'email', val: 'bob2@example.com'}}));
await step('bob reads his credentials', () => get('bob', 'me', {what: 'cred'}));
await step('bob searches fnd for a plain tag', async () => {
  await sub('bob', 'fnd', {});
  await set('bob', 'fnd', {desc: {public: 'chess'}});
  return get('bob', 'fnd', {what: 'sub'});
});
await step('bob searches fnd for an alias', async () => {
  await set('bob', 'fnd', {desc: {public: 'alias:alice'}});
  return get('bob', 'fnd', {what: 'sub'});
});
await step('bob searches fnd for an email', async () => {
  await set('bob', 'fnd', {desc: {public: 'email:carol@example.com'}});
  return get('bob', 'fnd', {what: 'sub'});
});
await step('alice creates a group topic', async () => {
  await sub('alice', 'me', {what: 'desc'});
  const name = C.alice.newGroupTopicName(false);
  const r = await sub('alice', name, {what: 'desc sub tags'},
    {desc: {public: {fn: 'Chess club'}, private: {comment: 'my club'}, defacs: {auth: 'JRWPS', anon: 'N'}}, tags: ['chess', 'club']});
  grp = r.topic;
  label(grp, 'grp', '1');
  return r;
});
await step('bob joins the group', () => sub('bob', grp, {what: 'desc sub'}, {desc: {private: {comment: 'bob in the club'}}}));
await step('alice invites carol', async () => set('alice', grp, {sub: {user: U.carol.uid, mode: 'JRWP'}}));
await step('carol sees the invitation in me', async () => sub('carol', 'me', {what: 'sub'}));
await step('carol accepts', () => sub('carol', grp, {what: 'desc sub'}));
await step('alice lowers bob to JRW', () => set('alice', grp, {sub: {user: U.bob.uid, mode: 'JRW'}}));
await step('bob publishes without P', () => pub('bob', grp, 'no P'));
await step('alice gives bob JRWP back', () => set('alice', grp, {sub: {user: U.bob.uid, mode: 'JRWP'}}));
await step('the group subscribers as alice sees them', () => get('alice', grp, {what: 'sub'}));
await step('30 messages with gap-free SeqIds', async () => {
  const got = [];
  for (let i = 1; i <= 30; i++) {
    const who = ['alice', 'bob', 'carol'][i % 3];
    const r = await pub(who, grp, `message ${i}`);
    got.push(r.params ? r.params.seq : r);
  }
  return got;
});
await step('topic desc after the messages', () => get('bob', grp, {what: 'desc'}));
let minSeq;
await step('history: withLaterData(10)', async () => {
  const r = await get('bob', grp, {what: 'data', data: {limit: 10}});
  minSeq = Math.min(...seqs(r));
  return {seqs: seqs(r), data: r.data && r.data.slice(0, 2)};
});
for (let i = 1; i <= 3; i++) {
  await step(`history: withEarlierData(10) #${i}`, async () => {
    const r = await get('bob', grp, {what: 'data', data: {before: minSeq, limit: 10}});
    const s = seqs(r);
    if (s.length) minSeq = Math.min(...s);
    return {seqs: s};
  });
}
// The pages past the first message and other selections of no SeqId:
// PostgreSQL answers them 204 no content (issue 43; the adapter answered
// 500 when query/tinode refused the empty range).
await step('history: withEarlierData(10) past the first message (before 1)', async () => {
  const r = await get('bob', grp, {what: 'data', data: {before: 1, limit: 10}});
  return {seqs: seqs(r), r};
});
await step('history: an empty range (since 10, before 10)', async () =>
  get('bob', grp, {what: 'data', data: {since: 10, before: 10}}));
await step('history: since above before (since 12, before 4)', async () =>
  get('bob', grp, {what: 'data', data: {since: 12, before: 4}}));
await step('history: since past the last message (since 31)', async () =>
  get('bob', grp, {what: 'data', data: {since: 31, limit: 10}}));
await step('history: a range whose hi is not above its low [12, 12)', async () =>
  get('bob', grp, {what: 'data', data: {ranges: [{low: 12, hi: 12}]}}));
await step('history: SeqId 0 alone, next to [29, 33)', async () =>
  get('bob', grp, {what: 'data', data: {ranges: [{low: 0}, {low: 29, hi: 33}]}}));
await step("history: the client's gap fill, ranges [16, 26) limit 10", async () =>
  ({seqs: seqs(await get('bob', grp, {what: 'data', data: {ranges: [{low: 16, hi: 26}], limit: 10}}))}));
await step('history: ranges 3..4, 7 and 28.. ', async () =>
  ({seqs: seqs(await get('bob', grp, {what: 'data', data: {ranges: [{low: 3, hi: 5}, {low: 7}, {low: 28, hi: 40}]}}))}));
await step('history forwards: since 5, limit 7', async () => ({seqs: seqs(await get('bob', grp, {what: 'data', data: {since: 5, limit: 7}}))}));
await step('history forwards: since 25, before 28', async () => ({seqs: seqs(await get('bob', grp, {what: 'data', data: {since: 25, before: 28}}))}));
await step('bob notes recv 25 and read 20; alice sees his marks', async () => {
  C.bob.note(grp, 'recv', 25);
  C.bob.note(grp, 'read', 20);
  await sleep(500);
  const r = await get('alice', grp, {what: 'sub'});
  return r;
});
await step("bob's me: the group with his marks", () => get('bob', 'me', {what: 'sub'}));
await step('bob deletes 1..5 for himself', () => req(C.bob, grp, () => C.bob.delMessages(grp, [{low: 1, hi: 6}], false)));
await step('bob reads since 1 (limit 8)', async () => ({seqs: seqs(await get('bob', grp, {what: 'data', data: {since: 1, limit: 8}}))}));
await step('alice hard-deletes 6..8 and 10', () => req(C.alice, grp, () => C.alice.delMessages(grp, [{low: 6, hi: 9}, {low: 10}], true)));
await step('carol reads since 1 (limit 12)', async () => {
  const r = await get('carol', grp, {what: 'data', data: {since: 1, limit: 12}});
  return {seqs: seqs(r), data: r.data};
});
// Pages that straddle the deleted messages: bob's own 1..5 and the
// hard-deleted 6..8 and 10; the limit counts the messages answered.
await step('bob pages back across the deleted messages: before 12, limit 5', async () =>
  ({seqs: seqs(await get('bob', grp, {what: 'data', data: {before: 12, limit: 5}}))}));
await step('bob pages back past them: before 9, limit 10 (none left)', async () =>
  get('bob', grp, {what: 'data', data: {before: 9, limit: 10}}));
await step('carol reads since 4 before 12, limit 3, across 6..8 and 10', async () =>
  ({seqs: seqs(await get('carol', grp, {what: 'data', data: {since: 4, before: 12, limit: 3}}))}));
await step('carol reads ranges [6, 9) and 10 (all hard-deleted)', async () =>
  get('carol', grp, {what: 'data', data: {ranges: [{low: 6, hi: 9}, {low: 10}]}}));
await step('the deletion log as bob sees it', () => get('bob', grp, {what: 'del', del: {since: 1}}));
await step('the deletion log as carol sees it', () => get('carol', grp, {what: 'del', del: {since: 1}}));
await step('alice uploads a file and sends it', async () => {
  const form = new FormData();
  form.append('file', new Blob(['hello, attachment'], {type: 'text/plain'}), 'hello.txt');
  form.append('id', '1');
  form.append('topic', grp);
  const res = await fetch(`http://${host}/v0/file/u/`, {
    method: 'POST', body: form,
    headers: {'X-Tinode-APIKey': apiKey, 'X-Tinode-Auth': 'Token ' + C.alice.getAuthToken().token},
  });
  const up = await res.json();
  fileURL = up.ctrl && up.ctrl.params && up.ctrl.params.url;
  const content = {txt: ' ', fmt: [{at: -1, len: 0, key: 0}], ent: [{tp: 'EX', data: {mime: 'text/plain', name: 'hello.txt', ref: fileURL, size: 17}}]};
  const p = await pub('alice', grp, content, [fileURL]);
  return {upload: {code: up.ctrl && up.ctrl.code, params: up.ctrl && up.ctrl.params}, pub: p};
});
await step('bob reads the attachment message and downloads the file', async () => {
  const r = await get('bob', grp, {what: 'data', data: {since: 31}});
  const res = await fetch(`http://${host}${fileURL}`, {headers: {'X-Tinode-APIKey': apiKey, 'X-Tinode-Auth': 'Token ' + C.bob.getAuthToken().token}});
  return {data: r.data, status: res.status, body: await res.text()};
});
await step('alice opens a P2P topic with bob and writes', async () => {
  const s = await sub('alice', U.bob.uid, {what: 'desc sub'}, {desc: {private: {comment: 'chat with bob'}}});
  const p = await pub('alice', U.bob.uid, 'hi bob');
  return {sub: s, pub: p};
});
await step('bob reads the P2P topic', async () => {
  const s = await sub('bob', U.alice.uid, {what: 'desc sub data'});
  const p = await pub('bob', U.alice.uid, 'hi alice');
  return {sub: s, pub: p};
});
await step('carol opens a P2P topic with bob', async () => {
  const s = await sub('carol', U.bob.uid, {what: 'desc'});
  const p = await pub('carol', U.bob.uid, 'hi bob, carol here');
  return {sub: s, pub: p};
});
await step("bob's me lists the group and two P2P topics", () => get('bob', 'me', {what: 'sub'}));
await step('dave joins and leaves the group (unsubscribe)', async () => {
  const j = await sub('dave', grp, {what: 'desc'});
  const l = await leave('dave', grp, true);
  return {join: j, leave: l};
});
await step('carol leaves the group without unsubscribing', () => leave('carol', grp, false));
await step('the group desc and subscribers after leaving', async () => ({
  desc: await get('alice', grp, {what: 'desc'}), sub: await get('alice', grp, {what: 'sub'}),
}));
await step('alice creates a second group, bob joins, alice deletes it', async () => {
  const name = C.alice.newGroupTopicName(false);
  const c = await sub('alice', name, {what: 'desc'}, {desc: {public: {fn: 'Short-lived'}, defacs: {auth: 'JRWPS', anon: 'N'}}});
  grp2 = c.topic;
  label(grp2, 'grp', '2');
  const j = await sub('bob', grp2, {what: 'desc'});
  await pub('bob', grp2, 'soon gone');
  const d = await req(C.alice, grp2, () => C.alice.delTopic(grp2, true));
  return {create: c, join: j, del: d};
});
await step("bob's me after the topic deletion", () => get('bob', 'me', {what: 'sub'}));
await step('bob cannot subscribe to the deleted topic', () => sub('bob', grp2, {what: 'desc'}));
await step('carol deletes her account', async () => {
  await sub('carol', grp, {what: 'desc'});
  return req(C.carol, null, () => C.carol.delCurrentUser(true));
});
await step("bob's me after carol's account deletion", () => get('bob', 'me', {what: 'sub'}));
await step("alice's me after carol's account deletion", () => get('alice', 'me', {what: 'sub'}));
await step('the group subscribers without carol', () => get('alice', grp, {what: 'sub desc'}));
await step('carol cannot log in', () => login('carol', U.carol.pass));
await step('fnd does not find carol', async () => {
  await set('bob', 'fnd', {desc: {public: 'caroltag'}});
  return get('bob', 'fnd', {what: 'sub'});
});

// ---- a restart on the same database ----
for (const tn of Object.values(C)) {
  try { tn.disconnect(); } catch (e) {}
}
await step('the server restarts on the same database', async () => {
  const res = await fetch(restartURL);
  return {status: res.status};
});
await step('after restart: alice logs in by her token', async () => {
  const tn = await connected('alice');
  C.alice = tn;
  return req(tn, null, () => tn.loginToken(token));
});
await login('bob');
await step("after restart: alice's me (desc, subs, tags)", () => sub('alice', 'me', {what: 'desc sub tags'}));
await step("after restart: bob's me subscriptions", () => sub('bob', 'me', {what: 'sub'}));
await step('after restart: the group desc and newest page', async () => {
  const r = await sub('bob', grp, {what: 'desc data', data: {limit: 5}});
  return {desc: r.meta, seqs: seqs(r)};
});
await step('after restart: the next SeqId follows on', () => pub('bob', grp, 'after the restart'));
await step('after restart: fnd finds alice by alias', async () => {
  await sub('bob', 'fnd', {});
  await set('bob', 'fnd', {desc: {public: 'alias:alice'}});
  return get('bob', 'fnd', {what: 'sub'});
});
await step('after restart: the P2P history', async () => {
  const r = await sub('bob', U.alice.uid, {what: 'data', data: {limit: 10}});
  return {data: r.data};
});
await step('dave writes to bob in P2P, then deletes his account (soft)', async () => {
  await login('dave');
  const s = await sub('dave', U.bob.uid, {what: 'desc'});
  const p = await pub('dave', U.bob.uid, 'hi bob, dave here');
  const d = await req(C.dave, null, () => C.dave.delCurrentUser(false));
  return {sub: s, pub: p, del: d};
});
await step("bob's me after dave's soft deletion", () => get('bob', 'me', {what: 'sub'}));
await step('alice deletes the group', () => req(C.alice, grp, () => C.alice.delTopic(grp, true)));
await step("bob's me after the group is deleted", () => get('bob', 'me', {what: 'sub'}));

for (const tn of Object.values(C)) {
  try { tn.disconnect(); } catch (e) {}
}
T.writeTranscript(out);
process.exit(0);
