package main

// The sample items of the Tinode schema document (the 2017 adapter's
// sample data, one item per table).
const (
	sampleUser  = `{"Access":{"Anon":0,"Auth":31},"ClearId":0,"CreatedAt":"2017-09-25T09:26:11.469Z","DeletedAt":null,"Devices":{},"Id":"KKyCVA956m8","LastSeen":"2017-10-04T13:42:29.612Z","Public":{"fn":"tndbomb_4","photo":{"data":"/9j/4A...B//9k=","type":"jpg"}},"SeqId":4,"State":0,"Tags":["email:tndbomb_4@example.com"],"UpdatedAt":"2017-10-04T13:41:37.221Z","UserAgent":"TinodeWeb/0.13 (MacIntel) tinodejs/0.13"}`
	sampleAuth  = `{"authLvl":20,"expires":"0001-01-01T00:00:00Z","secret":"JDJhJDEwJEFOenlnZU1ZOXMwLkZUTFVRUHVYZS56TFFuWEhDb28yMFhEaEFTRHZsMlNDbDJIV0VMbzZh","unique":"basic:tndbomb_5","userid":"9Si0WE3N_0Q"}`
	sampleTopic = `{"Access":{"Anon":0,"Auth":0},"ClearId":0,"CreatedAt":"2017-09-26T14:08:26.104Z","DeletedAt":null,"Id":"p2pAlPRDF12iirthS2WpDz1eg","Public":null,"SeqId":16,"State":0,"UpdatedAt":"2017-09-26T14:08:26.104Z","UseBt":false}`
	sampleMsg   = `{"Content":"Hello this is message from tinode bombardier! :D","CreatedAt":"2017-09-26T14:05:15.361Z","DeletedAt":null,"DeletedFor":[],"ExpireTime":1537970847,"From":"FcjMAj2Q8D8","Head":null,"Id":"QFzKAEbEyrw","SeqId":5,"Topic":"p2pAlPRDF12iioVyMwCPZDwPw","UpdatedAt":"2017-09-26T14:05:15.361Z"}`
)
