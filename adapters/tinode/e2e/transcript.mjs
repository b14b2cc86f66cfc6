// What the differential scenarios share (diff.mjs: one server; cluster.mjs:
// a three-node cluster): clients that record what they receive, the
// request wrapper that turns a reply into an observation, the
// normalisation that makes two runs comparable, and the transcript of
// steps. IDs become labels (usr:alice, grp:1, file:1), times "<time>",
// tokens "<token>", and lists whose order Tinode does not define are
// sorted; diff_test.go compares two transcripts step by step.
import {writeFileSync} from 'node:fs';
import {newClient} from './client.mjs';

export const sleep = ms => new Promise(r => setTimeout(r, ms));

// ---- normalisation ----
const labels = new Map(); // raw id -> label
const counters = {};
// label names the raw ID raw as kind:name (kind:1, kind:2, ... without a
// name) in every observation from now on.
export function label(raw, kind, name) {
  if (!raw || labels.has(raw)) return;
  if (!name) {
    counters[kind] = (counters[kind] || 0) + 1;
    name = String(counters[kind]);
  }
  labels.set(raw, `${kind}:${name}`);
}
const timeKeys = new Set(['ts', 'created', 'updated', 'touched', 'when', 'expires', 'deleted']);
const idRe = /(usr|grp|p2p|chn)[A-Za-z0-9_-]{11,22}/g;
const fileRe = /\/v0\/file\/s\/[A-Za-z0-9_-]+(\.[a-z0-9]+)?/g;
const isoRe = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
function normString(s) {
  if (isoRe.test(s)) return '<time>';
  s = s.replace(fileRe, m => {
    label(m, 'file');
    return labels.get(m);
  });
  return s.replace(idRe, m => {
    if (!labels.has(m)) label(m, m.slice(0, 3) + '?');
    return labels.get(m);
  });
}
export function norm(v, key) {
  if (v === null || v === undefined) return v;
  if (Array.isArray(v)) {
    const arr = v.map(x => norm(x));
    if (arr.length && typeof arr[0] == 'object' && arr[0] && ('topic' in arr[0] || 'user' in arr[0]) && !('seq' in arr[0] && 'content' in arr[0])) {
      arr.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    }
    return arr;
  }
  if (typeof v == 'object') {
    const o = {};
    for (const k of Object.keys(v).sort()) {
      if (k == 'id') continue; // the client's own request id
      if (k == 'tmpname') {
        o[k] = '<tmpname>'; // the client's own counter
        continue;
      }
      if (k == 'token') {
        o[k] = '<token>';
        continue;
      }
      if (k == 'ua') {
        o[k] = '<ua>';
        continue;
      }
      o[k] = norm(v[k], k);
    }
    return o;
  }
  if (typeof v == 'string') {
    if (timeKeys.has(key)) return '<time>';
    return normString(v);
  }
  return v;
}

// ---- clients ----
// client returns a client of host (TINODE_HOST when absent) that keeps
// the {meta} and {data} packets it receives (pkts, reset by each request)
// and the {meta} and {ctrl} replies (replies).
export function client(name, host) {
  const tn = newClient('singletable-diff', host);
  tn.name = name;
  tn.pkts = [];
  tn.replies = [];
  tn.onRawMessage = raw => {
    const pkt = JSON.parse(raw);
    if (pkt.meta || pkt.data) tn.pkts.push(pkt);
    if (pkt.meta || pkt.ctrl) tn.replies.push(pkt);
  };
  return tn;
}
export async function connected(name, host) {
  const tn = client(name, host);
  await tn.connect();
  return tn;
}
// req sends one request and returns what the client saw: the ctrl (or
// the error's code and text) and the meta and data packets of the topic.
// Data packets count only for requests that read data (wantData): others
// see other users' messages broadcast at times of their own.
export async function req(tn, topic, fn, wantData) {
  tn.pkts = [];
  let res;
  try {
    const ctrl = raw(tn, await fn());
    res = ctrl ? {code: ctrl.code, text: ctrl.text, topic: ctrl.topic, params: ctrl.params} : {code: 'none'};
  } catch (err) {
    res = {err: err && err.code ? err.code : String(err), text: err && err.message};
  }
  const pk = tn.pkts.filter(p => !topic || (p.meta || p.data).topic == topic);
  const meta = pk.filter(p => p.meta).map(p => p.meta);
  const data = wantData ? pk.filter(p => p.data).map(p => p.data) : [];
  if (meta.length) res.meta = meta;
  if (data.length) res.data = data.sort((x, y) => x.seq - y.seq);
  return res;
}
// raw returns the {ctrl} as the server sent it, for the one tinode-sdk
// settled the request with: the SDK's JSON reviver makes an access mode
// (params.acs) an AccessMode of numbers, the server sends strings
// ("JRWPS"). Which of the two a request settles with depends on the order
// of its replies (through a cluster proxy, a {meta} may come first and
// ctrlOf returns the raw {ctrl}), so the transcript takes the raw one
// always: the same packet prints the same whatever the order.
function raw(tn, ctrl) {
  return (ctrl && ctrl.id !== undefined && rawCtrl(tn, ctrl.id)) || ctrl;
}
// rawCtrl returns the {ctrl} with id as the server sent it, if it came.
function rawCtrl(tn, id) {
  const r = tn.replies.find(p => p.ctrl && p.ctrl.id == id);
  return r && r.ctrl;
}
// seqs returns the SeqIds of a data reply, newest first, as a chat client
// shows a page read backwards.
export const seqs = r => (r.data || []).map(d => d.seq).sort((x, y) => y - x);

// quiet waits until no packet has arrived for 120 ms (at most 3 s):
// Tinode answers a {sub} with its {ctrl} first and the {meta} and {data}
// of its get part after, so the step waits for them.
export async function quiet(tn) {
  const t0 = Date.now();
  let n = -1, since = Date.now();
  while (Date.now() - t0 < 3000) {
    if (tn.pkts.length != n) {
      n = tn.pkts.length;
      since = Date.now();
    } else if (Date.now() - since >= 120) {
      return;
    }
    await sleep(25);
  }
}
const readsData = params => !!params && typeof params.what == 'string' && params.what.split(' ').includes('data');
// Before a read of data, stragglers (broadcasts of earlier messages) are
// let in and dropped; after it, the rest of the reply is waited for.
// parts waits (at most 10 s) until every part of a get (desc, sub, data,
// ...) has its reply to request id: a {meta} holding it, or a {ctrl}
// naming it (204 no content, the count after data) or an error. Tinode
// answers the parts one after another, the first often before the rest.
// The {ctrl} closing the data part tells how many {data} packets it
// sent (count); parts waits for them too: a topic hosted on another node
// of a cluster answers through its proxy, where the {ctrl} may overtake
// them.
async function parts(tn, id, what, topic) {
  if (!id || !what) return;
  const want = what.split(' ').filter(Boolean);
  const t0 = Date.now();
  while (Date.now() - t0 < 10000) {
    const mine = tn.replies.filter(p => (p.meta || p.ctrl).id == id);
    if (mine.some(p => p.ctrl && p.ctrl.code >= 300)) return;
    const done = w => mine.some(p => (p.meta && p.meta[w] !== undefined) || (p.ctrl && p.ctrl.params && p.ctrl.params.what == w));
    const end = mine.find(p => p.ctrl && p.ctrl.params && p.ctrl.params.what == 'data' && p.ctrl.params.count);
    const got = tn.pkts.filter(p => p.data && (!topic || p.data.topic == topic)).length;
    if (want.every(done) && (!end || got >= end.ctrl.params.count)) return;
    await sleep(20);
  }
}

// ctrlOf returns the {ctrl} reply to the request r answers. tinode-sdk
// settles a request with the first reply carrying its id, which is the
// {meta} of a {sub}'s get part when it comes before the {ctrl} (a topic
// hosted on another node of a cluster answers through its proxy, and
// the two may come in either order); the {ctrl} is then waited for (at
// most 10 s).
async function ctrlOf(tn, r) {
  if (!r || r.code !== undefined || !r.id) return r;
  const t0 = Date.now();
  while (Date.now() - t0 < 10000) {
    const c = rawCtrl(tn, r.id);
    if (c) return c;
    await sleep(20);
  }
  return r;
}

// The requests of a scenario, on client tn.
export async function sub(tn, topic, get, set) {
  if (readsData(get)) await quiet(tn);
  return req(tn, topic, async () => {
    const ctrl = await tn.subscribe(topic, get, set);
    await parts(tn, ctrl && ctrl.id, get && get.what, topic);
    return ctrlOf(tn, ctrl);
  }, readsData(get));
}
export async function get(tn, topic, params) {
  if (readsData(params)) await quiet(tn);
  return req(tn, topic, async () => {
    const ctrl = await tn.getMeta(topic, params);
    await parts(tn, ctrl && ctrl.id, params && params.what, topic);
    return ctrl;
  }, readsData(params));
}
export const set = (tn, topic, params) => req(tn, topic, () => tn.setMeta(topic, params));
export const pub = (tn, topic, content, extra) => req(tn, topic, () => {
  const p = tn.createMessage(topic, content, true);
  return tn.publishMessage(p, extra);
});
export const leave = (tn, topic, unsub) => req(tn, topic, () => tn.leave(topic, unsub));

// ---- steps ----
const steps = [];
// step runs fn and records what it returns, normalised, as the next step
// of the transcript; an exception is recorded as the step's observation.
export async function step(name, fn) {
  const t0 = Date.now();
  let obs;
  try {
    obs = await fn();
  } catch (err) {
    obs = {scenarioError: String(err && err.message || err)};
  }
  steps.push({step: name, obs: norm(obs)});
  console.log(`${String(steps.length).padStart(2)} ${name} (${Date.now() - t0} ms)`);
}

// writeTranscript writes the steps recorded as JSON to path.
export function writeTranscript(path) {
  writeFileSync(path, JSON.stringify({steps}, null, 1));
  console.log(`${steps.length} steps recorded`);
}
