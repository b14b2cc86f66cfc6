// Package ferryhook holds the entities of Ferryhook, a webhook relay
// (from its schema document): plain structs with one typed field per documented
// attribute, their typed IDs and enums, their validation, and their keys in
// the document's exact format.
//
// # Mapping table
//
// Two tables, as the document decides: ferryhook-main (configuration) and
// ferryhook-events (high volume, TTL on expiresAt). Keys are byte for byte
// those of the document, so data written by the existing service reads
// back unchanged.
//
//	entity           table   PK                    SK                             GSI keys                          serves
//	User             main    USER#{userId}         PROFILE                        GSI1 EMAIL#{email} / USER         FH-1, FH-2, FH-11 users
//	Source           main    USER#{userId}         SRC#{sourceId}                 GSI3 SRCID#{sourceId} / SOURCE    FH-3, FH-4, FH-11 sources
//	Connection       main    SRC#{sourceId}        CONN#{connectionId}            -                                 FH-5, FH-11 connections
//	APIKey           main    USER#{userId}         KEY#{keyId}                    GSI2 KEYHASH#{keyHash} / KEY      FH-6, FH-10, FH-11 apiKeys
//	Event            events  SRC#{sourceId}        EVT#{receivedAt}#{eventId}     GSI1 EVTID#{eventId} / EVENT      FH-7, FH-8, FH-11 events, FH-12
//	DeliveryAttempt  events  EVT#{eventId}         ATT#{attemptNumber}            -                                 FH-9, FH-11 attempts
//	(email guard)    main    UNIQUE#email#{email}  UNIQUE                         -                                 FH-2 uniqueness
//	(keyhash guard)  main    UNIQUE#keyhash#{hash} UNIQUE                         -                                 FH-6 uniqueness
//
// receivedAt in the event sort key is 13-digit Unix milliseconds, so byte
// order is time order and FH-7 reads newest first with
// ScanIndexForward=false. attemptNumber is 1..8, one digit, written
// unpadded (ATT#3) as the document's service writes it. The guard items
// are the library's: the document checks emails through GSI1 only, which
// races; a guard written in the same transaction as the user cannot.
//
// # Representations
//
// The document's representations are kept: createdAt, updatedAt,
// lastEventAt, lastUsedAt and usagePeriodStart are ISO 8601 strings
// ([ISOTime], written as JavaScript's Date.toISOString does);
// receivedAt, processedAt, deliveredAt and attemptedAt are Unix
// milliseconds ([UnixMillis]); expiresAt is Unix seconds ([UnixSeconds]),
// the events table's TTL attribute. filters, transform, retryConfig and
// headers are JSON text ([JSONText]).
//
// # IDs and enums
//
// IDs are a prefix and nanoid(16) (usr_, src_, conn_, key_, evt_) drawn
// from crypto/rand over the 64-character URL alphabet, so every character
// is uniform; each ID type is declared once with table.NewIDs ([UserIDs]:
// New, Parse, Check), and the engine checks its fields on every write and
// in keys. An [EventID] also has a located form, its own rule. Plans, providers, statuses, permissions and
// signing algorithms are typed constants whose Parse functions reject
// unknown values. Retention by plan (FH-12) is [Plan.Retention].
package fh
