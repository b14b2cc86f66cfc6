package pf

import (
	"time"

	"github.com/singletable/singletable/table"
)

// GlobalMetrics are the platform's metrics of one day
// (ANALYTICS / GLOBAL#{date}).
type GlobalMetrics struct {
	Date               Date      `dynamo:"date"`               // YYYY-MM-DD
	TotalUsers         int64     `dynamo:"totalUsers"`         // total user count
	ActiveUsers        int64     `dynamo:"activeUsers"`        // active users in 24h
	TotalOrganizations int64     `dynamo:"totalOrganizations"` // total organization count
	TotalRevenue       float64   `dynamo:"totalRevenue"`       // total revenue
	StorageUsed        float64   `dynamo:"storageUsed"`        // storage used in TB
	APICalls           int64     `dynamo:"apiCalls"`           // API calls in 24h
	Uptime             float64   `dynamo:"uptime"`             // system uptime percentage
	AvgResponseTime    float64   `dynamo:"avgResponseTime"`    // average response time in ms
	CreatedAt          time.Time `dynamo:"createdAt,omitempty"`
}

// Validate checks m before a write.
func (m *GlobalMetrics) Validate() error {
	if m.Uptime < 0 || m.Uptime > 100 {
		return table.Invalid("uptime", "%v is not a percentage", m.Uptime)
	}
	return nonNegative(
		named{"totalUsers", float64(m.TotalUsers)}, named{"activeUsers", float64(m.ActiveUsers)},
		named{"totalOrganizations", float64(m.TotalOrganizations)}, named{"totalRevenue", m.TotalRevenue},
		named{"storageUsed", m.StorageUsed}, named{"apiCalls", float64(m.APICalls)},
		named{"avgResponseTime", m.AvgResponseTime})
}

// OrganizationMetrics are one organization's metrics of one day
// (ANALYTICS / ORG#{organizationId}#{date}).
type OrganizationMetrics struct {
	OrganizationID OrgID     `dynamo:"organizationId"`
	Date           Date      `dynamo:"date"`        // YYYY-MM-DD
	Users          int64     `dynamo:"users"`       // user count
	Revenue        float64   `dynamo:"revenue"`     // monthly revenue
	Plan           Plan      `dynamo:"plan"`        // subscription plan
	StorageUsed    float64   `dynamo:"storageUsed"` // storage used in GB
	APICalls       int64     `dynamo:"apiCalls"`    // API calls
	ActiveUsers    int64     `dynamo:"activeUsers"` // active users
	CreatedAt      time.Time `dynamo:"createdAt,omitempty"`
}

// Validate checks m before a write.
func (m *OrganizationMetrics) Validate() error {
	return nonNegative(named{"users", float64(m.Users)}, named{"revenue", m.Revenue},
		named{"storageUsed", m.StorageUsed}, named{"apiCalls", float64(m.APICalls)},
		named{"activeUsers", float64(m.ActiveUsers)})
}

type named struct {
	name string
	v    float64
}

func nonNegative(fs ...named) error {
	for _, f := range fs {
		if f.v < 0 {
			return table.Invalid(f.name, "negative")
		}
	}
	return nil
}
