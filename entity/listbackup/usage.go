package listbackup

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

// Counters returns every counter.
func Counters() []Counter {
	return []Counter{CounterAPICalls, CounterDataProcessed, CounterStorageUsed, CounterSyncJobs,
		CounterActiveUsers, CounterActiveSources, CounterErrorCount}
}

// ParseCounter returns s as a Counter, or a *table.ValidationError.
func ParseCounter(s string) (Counter, error) { return table.ParseEnum("counter", s, Counters()...) }

// UsageMetrics are an account's usage on one day (core's usage_metrics).
type UsageMetrics struct {
	AccountID     AccountID                   `dynamo:"accountId"`
	MetricDate    Date                        `dynamo:"metricDate"`
	APICalls      int64                       `dynamo:"apiCalls"`
	DataProcessed int64                       `dynamo:"dataProcessed"` // bytes
	StorageUsed   int64                       `dynamo:"storageUsed"`   // bytes
	SyncJobs      int64                       `dynamo:"syncJobs"`
	ActiveUsers   int64                       `dynamo:"activeUsers"`
	ActiveSources int64                       `dynamo:"activeSources"`
	ErrorCount    int64                       `dynamo:"errorCount"`
	ByPlatform    map[string]map[string]int64 `dynamo:"byPlatform,omitempty"` // platform -> counter -> value
	ByUser        map[string]map[string]int64 `dynamo:"byUser,omitempty"`     // userId -> counter -> value
	HourlyCounts  []int64                     `dynamo:"hourlyCounts,omitempty"`
	UpdatedAt     time.Time                   `dynamo:"updatedAt,unixtime"`
}

// Validate checks the metrics before a write.
func (m *UsageMetrics) Validate() error {
	return first(m.AccountID.Validate("accountId"), m.MetricDate.Validate("metricDate"))
}

// PlanLimits are a billing plan's limits.
type PlanLimits struct {
	APICallsPerMonth  int64        `dynamo:"apiCallsPerMonth"`
	StorageGB         int64        `dynamo:"storageGB"`
	Users             int64        `dynamo:"users"`
	Sources           int64        `dynamo:"sources"`
	SyncFrequency     SyncInterval `dynamo:"syncFrequency,omitempty"`
	DataRetentionDays int64        `dynamo:"dataRetentionDays"`
	Webhooks          int64        `dynamo:"webhooks"`
	CustomDomains     int64        `dynamo:"customDomains"`
}

// BillingPlan is a subscription plan (core's billing_plans).
type BillingPlan struct {
	PlanID       PlanID     `dynamo:"planId"`
	PlanName     string     `dynamo:"planName"`
	PlanType     PlanType   `dynamo:"planType"`
	Price        int64      `dynamo:"price"`    // cents per month
	Currency     string     `dynamo:"currency"` // ISO 4217
	Limits       PlanLimits `dynamo:"limits"`
	Features     []string   `dynamo:"features"`
	IsActive     bool       `dynamo:"isActive"`
	IsDefault    bool       `dynamo:"isDefault"`
	Customizable bool       `dynamo:"customizable"`
	Metadata     Object     `dynamo:"metadata,omitempty"`
	CreatedAt    time.Time  `dynamo:"createdAt,unixtime"`
	UpdatedAt    time.Time  `dynamo:"updatedAt,unixtime"`
}

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

// MaxPrice is the largest price a plan may have, in cents (12 digits sort
// in keys).
const MaxPrice = 999_999_999_999

// Validate checks the plan before a write.
func (p *BillingPlan) Validate() error {
	err := first(p.PlanID.Validate("planId"), required("planName", p.PlanName), p.PlanType.Check("planType"))
	if err != nil {
		return err
	}
	if p.Price < 0 || p.Price > MaxPrice {
		return table.Invalid("price", "%d is outside 0..%d cents", p.Price, int64(MaxPrice))
	}
	if !currencyRE.MatchString(p.Currency) {
		return table.Invalid("currency", "%q is not an ISO 4217 code such as USD", p.Currency)
	}
	if p.Limits.SyncFrequency != "" {
		return p.Limits.SyncFrequency.Check("limits.syncFrequency")
	}
	return nil
}
