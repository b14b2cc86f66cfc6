package lb

import (
	"net/url"
	"regexp"
	"time"

	"github.com/singletable/singletable/keys"
	"github.com/singletable/singletable/table"
)

// CheckURL returns a *table.ValidationError naming field unless u is an
// absolute https (or http) URL.
func CheckURL(field, u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
		return table.Invalid(field, "%q is not an absolute http(s) URL", u)
	}
	return nil
}

// Date is a calendar day, YYYY-MM-DD (metricDate).
type Date string

// DateOf returns the UTC day of t.
func DateOf(t time.Time) Date { return Date(keys.MustDate(t)) }

// Validate returns a *table.ValidationError naming field unless d is a real
// YYYY-MM-DD day.
func (d Date) Validate(field string) error {
	if _, err := keys.ParseDate(string(d)); err != nil {
		return &table.ValidationError{Field: field, Reason: "not a YYYY-MM-DD day: " + string(d), Key: true}
	}
	return nil
}

// ParseDate returns s as a Date, or a *table.ValidationError.
func ParseDate(s string) (Date, error) { d := Date(s); return d, d.Validate("metricDate") }

// Counter names a usage counter of [UsageMetrics] (LB-61).
type Counter string

// The usage counters.
const (
	CounterAPICalls      Counter = "apiCalls"
	CounterDataProcessed Counter = "dataProcessed"
	CounterStorageUsed   Counter = "storageUsed"
	CounterSyncJobs      Counter = "syncJobs"
	CounterActiveUsers   Counter = "activeUsers"
	CounterActiveSources Counter = "activeSources"
	CounterErrorCount    Counter = "errorCount"
)

// Counters are the usage counters.
var Counters = table.NewEnum("counter", CounterAPICalls, CounterDataProcessed, CounterStorageUsed, CounterSyncJobs,
	CounterActiveUsers, CounterActiveSources, CounterErrorCount)

// ParseCounter returns s as a Counter, or a *table.ValidationError.
func ParseCounter(s string) (Counter, error) { return Counters.Parse(s) }

// UsageMetrics are an account's usage on one day (core's usage_metrics).
type UsageMetrics struct {
	// AccountID is the account measured; its days are the items USAGE#{date}
	// in ACCOUNT#{accountId}.
	AccountID AccountID `dynamo:"accountId"`
	// MetricDate is the day measured (YYYY-MM-DD); all accounts of a day are
	// listed under USAGE#{date} (GSI1).
	MetricDate Date `dynamo:"metricDate"`
	// APICalls counts the day's API calls.
	APICalls      int64 `dynamo:"apiCalls"`
	DataProcessed int64 `dynamo:"dataProcessed"` // bytes
	StorageUsed   int64 `dynamo:"storageUsed"`   // bytes
	// SyncJobs counts the day's sync jobs.
	SyncJobs int64 `dynamo:"syncJobs"`
	// ActiveUsers counts the day's active users.
	ActiveUsers int64 `dynamo:"activeUsers"`
	// ActiveSources counts the day's active sources.
	ActiveSources int64 `dynamo:"activeSources"`
	// ErrorCount counts the day's errors.
	ErrorCount int64                       `dynamo:"errorCount"`
	ByPlatform map[string]map[string]int64 `dynamo:"byPlatform,omitempty"` // platform -> counter -> value
	ByUser     map[string]map[string]int64 `dynamo:"byUser,omitempty"`     // userId -> counter -> value
	// HourlyCounts are the day's API calls per hour (24 entries, UTC);
	// optional.
	HourlyCounts []int64 `dynamo:"hourlyCounts,omitempty"`
	// UpdatedAt is when the day's metrics were last written, in epoch seconds.
	UpdatedAt time.Time `dynamo:"updatedAt,unixtime"`
}

// PlanLimits are a billing plan's limits.
type PlanLimits struct {
	// APICallsPerMonth is the most API calls a month.
	APICallsPerMonth int64 `dynamo:"apiCallsPerMonth"`
	// StorageGB is the storage quota in gigabytes.
	StorageGB int64 `dynamo:"storageGB"`
	// Users is the most users an account may have.
	Users int64 `dynamo:"users"`
	// Sources is the most data sources an account may connect.
	Sources int64 `dynamo:"sources"`
	// SyncFrequency is the most frequent sync allowed (see SyncInterval).
	SyncFrequency SyncInterval `dynamo:"syncFrequency,omitempty"`
	// DataRetentionDays is how long backups are kept, in days.
	DataRetentionDays int64 `dynamo:"dataRetentionDays"`
	// Webhooks is the most webhooks an account may register.
	Webhooks int64 `dynamo:"webhooks"`
	// CustomDomains is the most custom domains an account may use.
	CustomDomains int64 `dynamo:"customDomains"`
	// Extra keeps the members of the map that no field models, as stored
	// (the nested catch-all: a migrated item keeps what its writer wrote).
	Extra table.Extra `dynamo:"-"`
}

// BillingPlan is a subscription plan (core's billing_plans).
type BillingPlan struct {
	// PlanID identifies the plan; the item's key is PLAN#{planId} / PLAN.
	PlanID PlanID `dynamo:"planId"`
	// PlanName is the display name.
	PlanName string `dynamo:"planName"`
	// PlanType is the plan's tier (see PlanType).
	PlanType PlanType `dynamo:"planType"`
	Price    int64    `dynamo:"price"`    // cents per month
	Currency string   `dynamo:"currency"` // ISO 4217
	// Limits are what the plan allows.
	Limits PlanLimits `dynamo:"limits"`
	// Features name the plan's features.
	Features []string `dynamo:"features"`
	// IsActive is set while the plan is offered; active plans are listed by
	// price (GSI1 PLANS#active, sparse).
	IsActive bool `dynamo:"isActive"`
	// IsDefault marks the plan new accounts get.
	IsDefault bool `dynamo:"isDefault"`
	// Customizable marks a plan whose limits are negotiated per account.
	Customizable bool `dynamo:"customizable"`
	// Metadata is any other data; optional.
	Metadata Object `dynamo:"metadata,omitempty"`
	// CreatedAt is when the plan was created, in epoch seconds.
	CreatedAt time.Time `dynamo:"createdAt,unixtime"`
	// UpdatedAt is when the plan was last written, in epoch seconds.
	UpdatedAt time.Time `dynamo:"updatedAt,unixtime"`
}

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

// MaxPrice is the largest price a plan may have, in cents (12 digits sort
// in keys).
const MaxPrice = 999_999_999_999

// Validate checks the plan's price and currency (its ID and enumerations
// check themselves on every write; Required: planName, planType).
func (p *BillingPlan) Validate() error {
	if p.Price < 0 || p.Price > MaxPrice {
		return table.Invalid("price", "%d is outside 0..%d cents", p.Price, int64(MaxPrice))
	}
	if !currencyRE.MatchString(p.Currency) {
		return table.Invalid("currency", "%q is not an ISO 4217 code such as USD", p.Currency)
	}
	return nil
}
