package fh

import (
	"slices"

	"github.com/singletable/singletable/table"
)

// The running service's vocabulary. Its enums (its packages/core types and
// the zod schemas of its source, connection and API-key handlers) are not
// all the document's: a source's signingAlgorithm is one of stripe, github,
// shopify, generic-hmac-sha256 or none (written "none" when the caller
// gives none), its providers include twilio, sendgrid and slack, and an
// event may be signature_failed. Next to the service the library writes
// only these ([ServiceSigningAlgorithm] maps the document's names), and
// reads every one of them back as itself.

// The running service's signing algorithms.
const (
	SigningStripe            SigningAlgorithm = "stripe"
	SigningGitHub            SigningAlgorithm = "github"
	SigningShopify           SigningAlgorithm = "shopify"
	SigningGenericHMACSHA256 SigningAlgorithm = "generic-hmac-sha256"
	SigningNone              SigningAlgorithm = "none"
)

// The running service's providers beyond the document's.
const (
	ProviderTwilio   Provider = "twilio"
	ProviderSendGrid Provider = "sendgrid"
	ProviderSlack    Provider = "slack"
)

// EventSignatureFailed is the running service's status of an event whose
// provider signature did not verify (not in the document; valid in every
// profile, as the service may write it).
const EventSignatureFailed EventStatus = "signature_failed"

// ServiceSigningAlgorithms, ServiceProviders, ServiceEventStatuses are the
// values the running service accepts, in its own order.
var (
	ServiceSigningAlgorithms = []SigningAlgorithm{SigningStripe, SigningGitHub, SigningShopify, SigningGenericHMACSHA256, SigningNone}
	ServiceProviders         = []Provider{ProviderStripe, ProviderGitHub, ProviderShopify, ProviderTwilio, ProviderSendGrid, ProviderSlack, ProviderCustom}
	ServiceEventStatuses     = []EventStatus{EventReceived, EventProcessing, EventFiltered, EventSignatureFailed, EventDelivered, EventRetrying, EventFailed}
)

// ServiceSigningAlgorithm returns a in the running service's vocabulary:
// the document's hmac-sha256 is the service's generic-hmac-sha256, no
// algorithm is none, and the service's own values are themselves. The
// document's hmac-sha1 and hmac-sha512, which the service has no name for
// (its validation refuses them), give a *table.ValidationError.
func ServiceSigningAlgorithm(a SigningAlgorithm) (SigningAlgorithm, error) {
	switch {
	case a == "":
		return SigningNone, nil
	case a == SigningHMACSHA256:
		return SigningGenericHMACSHA256, nil
	case slices.Contains(ServiceSigningAlgorithms, a):
		return a, nil
	}
	return a, table.Invalid("signingAlgorithm", "%q is not one the running service accepts (stripe, github, shopify, generic-hmac-sha256, none)", string(a))
}

// ValidateService is [Source.Validate] by the running service's rules: a
// provider and a signing algorithm from its vocabulary, the algorithm
// always set (none without a secret), a secret optional.
func (s *Source) ValidateService() error {
	return first(
		checkName("name", s.Name),
		table.CheckEnum("provider", s.Provider, ServiceProviders...),
		checkText("signingSecret", s.SigningSecret, 1024),
		table.CheckEnum("signingAlgorithm", s.SigningAlgorithm, ServiceSigningAlgorithms...),
		checkCount("eventCount", s.EventCount),
	)
}
