// The DX task (docs/dx/README.md) in ElectroDB 3 with @aws-sdk/client-dynamodb v3.
// Run: DYNAMODB_ENDPOINT=http://localhost:8000 node task.mjs
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { Entity, Service } from "electrodb";

const table = process.env.DX_TABLE || "dx-electrodb";
const client = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT || "http://localhost:8000",
  region: "us-east-1",
  credentials: { accessKeyId: "local", secretAccessKey: "local" },
});
let requests = 0; // counts requests, to show the typo is refused before one is sent
client.middlewareStack.add((next) => (args) => (requests++, next(args)), { step: "initialize" });
const S = (AttributeName) => ({ AttributeName, AttributeType: "S" });
await client.send(new DeleteTableCommand({ TableName: table })).catch(() => {}); // left by a failed run
await client.send(new CreateTableCommand({
  TableName: table,
  BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [S("PK"), S("SK"), S("GSI1PK"), S("GSI1SK")],
  KeySchema: [{ AttributeName: "PK", KeyType: "HASH" }, { AttributeName: "SK", KeyType: "RANGE" }],
  GlobalSecondaryIndexes: [{
    IndexName: "GSI1",
    KeySchema: [{ AttributeName: "GSI1PK", KeyType: "HASH" }, { AttributeName: "GSI1SK", KeyType: "RANGE" }],
    Projection: { ProjectionType: "ALL" },
  }],
}));
const at = (minute) => new Date(Date.UTC(2026, 10, 22, 10, minute)).toISOString();

// --- counted from here ---
const note = new Entity({
  model: { entity: "note", version: "1", service: "dx" },
  attributes: {
    id: { type: "string", required: true },
    author: { type: "string", required: true },
    slug: { type: "string", required: true },
    text: { type: "string" },
    at: { type: "string", required: true },
  },
  indexes: {
    byId: { pk: { field: "PK", composite: ["id"] }, sk: { field: "SK", composite: [] } },
    byAuthor: {
      index: "GSI1",
      pk: { field: "GSI1PK", composite: ["author"] },
      sk: { field: "GSI1SK", composite: ["at"] },
    },
  },
}, { client, table });
const noteSlug = new Entity({
  model: { entity: "noteSlug", version: "1", service: "dx" },
  attributes: { slug: { type: "string", required: true }, id: { type: "string", required: true } },
  indexes: { bySlug: { pk: { field: "PK", composite: ["slug"] }, sk: { field: "SK", composite: [] } } },
}, { client, table });
const notes = new Service({ note, noteSlug });

const create = (n) => notes.transaction.write(({ note, noteSlug }) => [
  note.create(n).commit(),
  noteSlug.create({ slug: n.slug, id: n.id }).commit(),
]).go();

for (const [i, slug] of ["hello", "again", "third"].entries()) {
  const res = await create({ id: `n${i}`, author: "ann", slug, text: slug, at: at(i) });
  if (res.canceled) throw new Error(`create n${i}: ${res.data.map((r) => r.code)}`);
}
const dupId = await create({ id: "n0", author: "ann", slug: "x", text: "x", at: at(3) });
if (!dupId.canceled) throw new Error("duplicate id was not refused");
const dupSlug = await create({ id: "n9", author: "ann", slug: "hello", text: "hello", at: at(3) });
if (!dupSlug.canceled) throw new Error("duplicate slug was not refused");

const page1 = await note.query.byAuthor({ author: "ann" }).go({ order: "desc", limit: 2 });
const page2 = await note.query.byAuthor({ author: "ann" }).go({ order: "desc", limit: 2, cursor: page1.cursor });

// .data() names attributes through ElectroDB's attribute proxy, which refuses an unknown name;
// .set({ txet: ... }) would silently drop the unknown key in JavaScript (TypeScript rejects it).
const updated = await note.patch({ id: "n0" })
  .data(({ text }, { set }) => set(text, "Hello, world"))
  .go({ response: "all_new" });
// --- to here ---

// Task 7, not counted: the same update with a typo in the attribute name.
const before = requests;
const typo = await note.patch({ id: "n0" })
  .data(({ txet }, { set }) => set(txet, "Hello, world"))
  .go().then(() => new Error("typo was NOT refused"), (err) => err);

console.log("created n0 n1 n2");
console.log("duplicate id n0 refused:", dupId.data.map((r) => r.code).join(", "));
console.log("duplicate slug hello refused:", dupSlug.data.map((r) => r.code).join(", "));
console.log("page 1:", page1.data.map((n) => n.slug).join(" "), "cursor:", page1.cursor);
console.log("page 2:", page2.data.map((n) => n.slug).join(" "), "cursor:", page2.cursor);
console.log("updated text:", updated.data.text);
console.log(`typo refused at runtime, requests sent for it: ${requests - before}:`, typo.message);
await client.send(new DeleteTableCommand({ TableName: table }));
