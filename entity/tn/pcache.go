package tn

import "time"

// CacheEntry is an entry of Tinode's persistent cache (today's kvmeta
// table): a string value by a string key, such as a pending confirmation
// code (TN-34, TN-35).
type CacheEntry struct {
	Key       string    `dynamo:"Key" json:"Key"`
	Value     string    `dynamo:"Value" json:"Value"`
	CreatedAt time.Time `dynamo:"CreatedAt" json:"CreatedAt"`
}

// Validate checks the entry before it is written.
func (c *CacheEntry) Validate() error {
	if err := idSegment.Check("Key", c.Key); err != nil {
		return err
	}
	if len(c.Value) > 64*1024 {
		return invalid("Value", "longer than 64 KiB")
	}
	return nil
}

// DBVersion records the version of the data layout in the table, as
// Tinode's kvmeta "version" row does (TN-36).
type DBVersion struct {
	Version   int       `dynamo:"Version" json:"Version"`
	CreatedAt time.Time `dynamo:"CreatedAt" json:"CreatedAt"`
	UpdatedAt time.Time `dynamo:"UpdatedAt" json:"UpdatedAt"`
}

// Validate requires a positive version.
func (v *DBVersion) Validate() error {
	if v.Version < 1 {
		return invalid("Version", "%d is not positive", v.Version)
	}
	return nil
}
