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

// Valid reports whether p is a known plan.
func (p Plan) Valid() bool {
	switch p {
	case PlanFree, PlanStarter, PlanPro, PlanTeam:
		return true
	}
	return false
}

// ParsePlan returns s as a Plan, or a *table.ValidationError for an
// unknown plan.
func ParsePlan(s string) (Plan, error) { return Plan(s), checkEnum("plan", Plan(s)) }

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

// Valid reports whether p is a known provider.
func (p Provider) Valid() bool {
	switch p {
	case ProviderStripe, ProviderGitHub, ProviderShopify, ProviderCustom:
		return true
	}
	return false
}

// ParseProvider returns s as a Provider, or a *table.ValidationError.
func ParseProvider(s string) (Provider, error) {
	return Provider(s), checkEnum("provider", Provider(s))
}

// SigningAlgorithm is how a provider signs the webhooks it sends.
type SigningAlgorithm string

// The signing algorithms ("hmac-sha256 | etc." in the document).
const (
	SigningHMACSHA256 SigningAlgorithm = "hmac-sha256"
	SigningHMACSHA1   SigningAlgorithm = "hmac-sha1"
	SigningHMACSHA512 SigningAlgorithm = "hmac-sha512"
)

// Valid reports whether a is a known signing algorithm.
func (a SigningAlgorithm) Valid() bool {
	switch a {
	case SigningHMACSHA256, SigningHMACSHA1, SigningHMACSHA512:
		return true
	}
	return false
}

// ParseSigningAlgorithm returns s as a SigningAlgorithm, or a
// *table.ValidationError.
func ParseSigningAlgorithm(s string) (SigningAlgorithm, error) {
	return SigningAlgorithm(s), checkEnum("signingAlgorithm", SigningAlgorithm(s))
}

// Status is the state of a source or a connection.
type Status string

// The statuses of sources and connections. A deleted source or connection
// is kept (the document's soft delete) but is never returned.
const (
	StatusActive  Status = "active"
	StatusPaused  Status = "paused"
	StatusDeleted Status = "deleted"
)

// Valid reports whether s is a known status.
func (s Status) Valid() bool {
	switch s {
	case StatusActive, StatusPaused, StatusDeleted:
		return true
	}
	return false
}

// ParseStatus returns s as a Status, or a *table.ValidationError.
func ParseStatus(s string) (Status, error) { return Status(s), checkEnum("status", Status(s)) }

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

// Valid reports whether s is a known event status: the document's, and
// the running service's signature_failed ([EventSignatureFailed]).
func (s EventStatus) Valid() bool {
	switch s {
	case EventReceived, EventProcessing, EventFiltered, EventDelivered, EventRetrying, EventFailed, EventSignatureFailed:
		return true
	}
	return false
}

// Final reports whether an event in status s is done: delivered,
// filtered out, or failed for good.
func (s EventStatus) Final() bool {
	return s == EventDelivered || s == EventFiltered || s == EventFailed
}

// ParseEventStatus returns s as an EventStatus, or a *table.ValidationError.
func ParseEventStatus(s string) (EventStatus, error) {
	return EventStatus(s), checkEnum("status", EventStatus(s))
}

// Permission is what an API key may do.
type Permission string

// The permissions of the document, each including the ones before it.
const (
	PermissionRead  Permission = "read"
	PermissionWrite Permission = "write"
	PermissionAdmin Permission = "admin"
)

// Valid reports whether p is a known permission.
func (p Permission) Valid() bool {
	switch p {
	case PermissionRead, PermissionWrite, PermissionAdmin:
		return true
	}
	return false
}

// Allows reports whether a key with permission p may do what need
// requires: admin allows everything, write allows write and read.
func (p Permission) Allows(need Permission) bool {
	rank := map[Permission]int{PermissionRead: 1, PermissionWrite: 2, PermissionAdmin: 3}
	return p.Valid() && need.Valid() && rank[p] >= rank[need]
}

// ParsePermission returns s as a Permission, or a *table.ValidationError.
func ParsePermission(s string) (Permission, error) {
	return Permission(s), checkEnum("permissions", Permission(s))
}

func checkEnum[E interface {
	~string
	Valid() bool
}](field string, v E) error {
	if !v.Valid() {
		return table.Invalid(field, "unknown value %q", string(v))
	}
	return nil
}
