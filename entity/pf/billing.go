package pf

import (
	"time"

	"github.com/singletable/singletable/table"
)

// BillingRecord is an organization's billing record of one date
// (BILLING#{organizationId} / RECORD#{date}).
type BillingRecord struct {
	OrganizationID OrgID `dynamo:"organizationId" key:"organizationId"`
	// Date is the record's date; it is stored only in the key.
	Date             Date          `dynamo:"-" key:"date"`
	OrganizationName string        `dynamo:"organizationName"`
	Plan             Plan          `dynamo:"plan"`
	Amount           float64       `dynamo:"amount"`
	Status           BillingStatus `dynamo:"status"`
	DueDate          time.Time     `dynamo:"dueDate,omitempty"`     // ISO timestamp
	LastPayment      time.Time     `dynamo:"lastPayment,omitempty"` // ISO timestamp
	InvoiceURL       string        `dynamo:"invoiceUrl"`
	CreatedAt        time.Time     `dynamo:"createdAt,omitempty"`
	UpdatedAt        time.Time     `dynamo:"updatedAt,omitempty"`
}

// Validate checks r before a write.
func (r *BillingRecord) Validate() error {
	if r.Amount < 0 {
		return table.Invalid("amount", "negative")
	}
	return checkURL("invoiceUrl", r.InvoiceURL)
}

// BillingMetrics are the platform's billing metrics of one day
// (BILLING / METRICS#{date}).
type BillingMetrics struct {
	Date             Date      `dynamo:"date"`             // YYYY-MM-DD
	TotalRevenue     float64   `dynamo:"totalRevenue"`     // total revenue
	MonthlyRecurring float64   `dynamo:"monthlyRecurring"` // monthly recurring revenue
	OverdueAmount    float64   `dynamo:"overdueAmount"`    // total overdue amount
	ChurnRate        float64   `dynamo:"churnRate"`        // churn rate percentage
	CreatedAt        time.Time `dynamo:"createdAt,omitempty"`
}

// Validate checks m before a write.
func (m *BillingMetrics) Validate() error {
	if err := m.Date.Validate("date"); err != nil {
		return err
	}
	if m.ChurnRate < 0 || m.ChurnRate > 100 {
		return table.Invalid("churnRate", "%v is not a percentage", m.ChurnRate)
	}
	return nonNegative(named{"totalRevenue", m.TotalRevenue}, named{"monthlyRecurring", m.MonthlyRecurring},
		named{"overdueAmount", m.OverdueAmount})
}
