package tn

import "time"

// MaxCredRetries is how many failed confirmation attempts a credential
// records before Credentials.Fail refuses more.
const MaxCredRetries = 1000

// Credential is a user's credential under validation, such as an email
// address or a phone number, with the response expected to confirm it
// (today's Tinode's credentials table). A validated (Done) credential's
// Method and Value are unique among validated credentials; unvalidated
// ones may repeat across users (TN-30).
type Credential struct {
	User   UserID `dynamo:"User" json:"User"`
	Method string `dynamo:"Method" json:"Method"`
	Value  string `dynamo:"Value" json:"Value"`
	// Resp is the expected response (a code), kept until confirmed.
	Resp string `dynamo:"Resp,omitempty" json:"Resp,omitempty"`
	// Done is set when the credential was confirmed.
	Done bool `dynamo:"Done" json:"Done"`
	// Retries counts failed confirmation attempts.
	Retries   int        `dynamo:"Retries" json:"Retries"`
	CreatedAt time.Time  `dynamo:"CreatedAt" json:"CreatedAt"`
	UpdatedAt time.Time  `dynamo:"UpdatedAt" json:"UpdatedAt"`
	DeletedAt *time.Time `dynamo:"DeletedAt,omitempty" json:"DeletedAt,omitempty"`
}

// Validate checks the credential before any write.
func (c *Credential) Validate() error {
	if err := idSegment.Check("Method", c.Method); err != nil {
		return err
	}
	if len(c.Method) > 32 {
		return invalidKey("Method", "longer than 32 bytes")
	}
	if err := idSegment.Check("Value", c.Value); err != nil {
		return err
	}
	if len(c.Resp) > 1024 {
		return invalid("Resp", "longer than 1024 bytes")
	}
	if c.Retries < 0 || c.Retries > MaxCredRetries {
		return invalid("Retries", "%d is outside 0..%d", c.Retries, MaxCredRetries)
	}
	if c.UpdatedAt.IsZero() {
		return invalidKey("UpdatedAt", "zero (unvalidated credentials are indexed by it)")
	}
	return nil
}
