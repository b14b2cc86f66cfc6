// Tinode's JavaScript client set up for Node, shared by scenario.mjs (the
// e2e scenario) and transcript.mjs (the differential transcripts): WebSocket from
// the ws package, and no IndexedDB (the client runs with persist off, but
// still clears its cache at start, so it gets a store that holds nothing).
import WebSocket from 'ws';
import TinodeSDK from 'tinode-sdk';

export const Tinode = TinodeSDK.Tinode || TinodeSDK;
Tinode.setNetworkProviders(WebSocket, null);
Tinode.setDatabaseProvider({
  deleteDatabase() {
    const req = {};
    setTimeout(() => req.onsuccess && req.onsuccess({}), 0);
    return req;
  },
  open() {
    const req = {};
    setTimeout(() => req.onerror && req.onerror({target: {error: new Error('no IndexedDB')}}), 0);
    return req;
  },
});

// host is the Tinode server (TINODE_HOST), apiKey the key of its test
// configuration.
export const host = process.env.TINODE_HOST;
export const apiKey = 'AQEAAAABAAD_rAp4DJh05a1HAwFT3A6K';

// newClient returns a client of server (host when absent) for the
// application appName.
export function newClient(appName, server) {
  return new Tinode({appName, host: server || host, apiKey, transport: 'ws', secure: false, persist: false});
}
