package fh

// Connection routes a source's events to a destination URL (main table,
// SRC#{sourceId} / CONN#{connectionId}).
type Connection struct {
	// ConnectionID is conn_ + nanoid(16).
	ConnectionID ConnectionID `dynamo:"connectionId"`
	// SourceID is the parent source.
	SourceID SourceID `dynamo:"sourceId"`
	// UserID is the owner (the source's owner); every user-facing
	// operation checks it.
	UserID UserID `dynamo:"userId"`
	// Name is human readable.
	Name string `dynamo:"name"`
	// DestinationURL is where events are delivered (http or https).
	DestinationURL string `dynamo:"destinationUrl"`
	// SigningSecret signs outbound deliveries (HMAC).
	SigningSecret string `dynamo:"signingSecret"`
	// Filters is a JSON array of filter rules.
	Filters JSONText `dynamo:"filters"`
	// Transform is JSON transformation rules.
	Transform JSONText `dynamo:"transform"`
	// RetryConfig is a JSON custom retry schedule.
	RetryConfig JSONText `dynamo:"retryConfig"`
	// Status is active, paused (events held) or deleted.
	Status Status `dynamo:"status"`
	// DeliveryCount counts successful deliveries, atomically.
	DeliveryCount int64 `dynamo:"deliveryCount"`
	// FailureCount counts failed deliveries, atomically.
	FailureCount int64 `dynamo:"failureCount"`
	// CreatedAt and UpdatedAt are kept by the store.
	CreatedAt ISOTime `dynamo:"createdAt"`
	UpdatedAt ISOTime `dynamo:"updatedAt"`
}

// Validate checks the rules of c its fields\' types do not hold (its IDs and
// enumerations check themselves on every write: see the Def\'s Required).
func (c *Connection) Validate() error {
	return first(
		checkName("name", c.Name),
		checkURL("destinationUrl", c.DestinationURL),
		checkText("signingSecret", c.SigningSecret, 1024),
		checkJSON("filters", c.Filters),
		checkJSON("transform", c.Transform),
		checkJSON("retryConfig", c.RetryConfig),
		checkCount("deliveryCount", c.DeliveryCount),
		checkCount("failureCount", c.FailureCount),
	)
}
