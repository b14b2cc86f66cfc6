package fh

import (
	"time"

	"github.com/singletable/singletable/table"
)

// Plan is a billing plan.
type Plan string

// The plans of the document.
const (
	PlanFree    Plan = "free"
	PlanStarter Plan = "starter"
	PlanPro     Plan = "pro"
	PlanTeam    Plan = "team"
)

// Plans are the plans of the document.
var Plans = table.NewEnum("plan", PlanFree, PlanStarter, PlanPro, PlanTeam)

// Retention is how long events of a user on plan p are kept (FH-12): 24
// hours on free, 7 days on starter, 30 days on pro, 90 days on team. An
// unknown plan gets the shortest retention.
func (p Plan) Retention() time.Duration {
	switch p {
	case PlanStarter:
		return 7 * 24 * time.Hour
	case PlanPro:
		return 30 * 24 * time.Hour
	case PlanTeam:
		return 90 * 24 * time.Hour
	}
	return 24 * time.Hour
}

// EventsPerMonth is the monthly event allowance of plan p, as the
// running service's PLAN_LIMITS (packages/core/src/config.ts,
// eventsPerMonth) states it: 5,000 on free, 100,000 on starter,
// 1,000,000 on pro, 5,000,000 on team. An unknown plan gets free's, as
// it gets free's retention.
func (p Plan) EventsPerMonth() int64 {
	switch p {
	case PlanStarter:
		return 100_000
	case PlanPro:
		return 1_000_000
	case PlanTeam:
		return 5_000_000
	}
	return 5_000
}

// RefusesOverLimit reports whether ingestion refuses the events of a user
// on plan p once their usage this month reaches [Plan.EventsPerMonth]:
// on free (and an unknown plan) only. The running service's ingest
// handler answers 429 PLAN_LIMIT_REACHED there and lets paid plans
// through, flagged for overage billing.
func (p Plan) RefusesOverLimit() bool {
	switch p {
	case PlanStarter, PlanPro, PlanTeam:
		return false
	}
	return true
}

// ExpiresAt returns the expiresAt of an event received at receivedAt by a
// user on plan p (FH-12): receivedAt, in whole seconds, plus the plan's
// retention, as the document's Math.floor(ms / 1000) + TTL_SECONDS.
func (p Plan) ExpiresAt(receivedAt UnixMillis) UnixSeconds {
	return UnixSeconds(int64(receivedAt)/1000 + int64(p.Retention()/time.Second))
}

// Provider is the service that sends a source's webhooks.
type Provider string

// The providers of the document.
const (
	ProviderStripe  Provider = "stripe"
	ProviderGitHub  Provider = "github"
	ProviderShopify Provider = "shopify"
	ProviderCustom  Provider = "custom"
)

// Providers are the providers of the document.
var Providers = table.NewEnum("provider", ProviderStripe, ProviderGitHub, ProviderShopify, ProviderCustom)

// SigningAlgorithm is how a provider signs the webhooks it sends.
type SigningAlgorithm string

// The signing algorithms ("hmac-sha256 | etc." in the document).
const (
	SigningHMACSHA256 SigningAlgorithm = "hmac-sha256"
	SigningHMACSHA1   SigningAlgorithm = "hmac-sha1"
	SigningHMACSHA512 SigningAlgorithm = "hmac-sha512"
)

// SigningAlgorithms are the signing algorithms of the document.
var SigningAlgorithms = table.NewEnum("signingAlgorithm", SigningHMACSHA256, SigningHMACSHA1, SigningHMACSHA512)

// Status is the state of a source or a connection.
type Status string

// The statuses of sources and connections. A deleted source or connection
// is kept (the document's soft delete) but is never returned.
const (
	StatusActive  Status = "active"
	StatusPaused  Status = "paused"
	StatusDeleted Status = "deleted"
)

// Statuses are the statuses of sources and connections.
var Statuses = table.NewEnum("status", StatusActive, StatusPaused, StatusDeleted)

// EventStatus is where an event is in the delivery pipeline.
type EventStatus string

// The event statuses of the document.
const (
	EventReceived   EventStatus = "received"
	EventProcessing EventStatus = "processing"
	EventFiltered   EventStatus = "filtered"
	EventDelivered  EventStatus = "delivered"
	EventRetrying   EventStatus = "retrying"
	EventFailed     EventStatus = "failed"
)

// EventStatuses are the event statuses: the document's, and the running
// service's signature_failed ([EventSignatureFailed]).
var EventStatuses = table.NewEnum("status", EventReceived, EventProcessing, EventFiltered, EventDelivered, EventRetrying, EventFailed, EventSignatureFailed)

// Final reports whether an event in status s is done: delivered,
// filtered out, or failed for good.
func (s EventStatus) Final() bool {
	return s == EventDelivered || s == EventFiltered || s == EventFailed
}

// Permission is what an API key may do.
type Permission string

// The permissions of the document, each including the ones before it.
const (
	PermissionRead  Permission = "read"
	PermissionWrite Permission = "write"
	PermissionAdmin Permission = "admin"
)

// Permissions are the permissions of the document.
var Permissions = table.NewEnum("permissions", PermissionRead, PermissionWrite, PermissionAdmin)

// Allows reports whether a key with permission p may do what need
// requires: admin allows everything, write allows write and read.
func (p Permission) Allows(need Permission) bool {
	rank := map[Permission]int{PermissionRead: 1, PermissionWrite: 2, PermissionAdmin: 3}
	return Permissions.Valid(p) && Permissions.Valid(need) && rank[p] >= rank[need]
}
