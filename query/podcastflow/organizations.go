package podcastflow

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Organizations serves the organization patterns, PF-5 and PF-6, and the
// writes the platform needs.
type Organizations struct{ e *entities }

// OrganizationWithSettings is an organization's profile with its settings
// (PF-5). Settings is nil when none were saved.
type OrganizationWithSettings struct {
	Profile  pf.OrganizationProfile
	Settings *pf.OrganizationSettings
}

// Create creates organization o; status defaults to trial. Errors:
// *table.ValidationError, table.ErrAlreadyExists.
//
// Pattern: PF-5 (its write side).
func (s *Organizations) Create(ctx context.Context, o *pf.OrganizationProfile) (err error) {
	ctx, call := s.e.t.Call(ctx, "PF-5", "podcastflow.Organizations.Create")
	defer func() { call.End(err) }()
	if o.Status == "" {
		o.Status = pf.OrgTrial
	}
	return s.e.orgs.Create(ctx, o)
}

// Get returns an organization's profile (PF-5): GetItem
// PK = ORG#{organizationId}, SK = PROFILE. Errors: *table.ValidationError,
// table.ErrNotFound.
func (s *Organizations) Get(ctx context.Context, id pf.OrgID) (_ pf.OrganizationProfile, err error) {
	ctx, call := s.e.t.Call(ctx, "PF-5", "podcastflow.Organizations.Get")
	defer func() { call.End(err) }()
	k, err := pf.OrganizationProfileKey(id)
	if err != nil {
		return pf.OrganizationProfile{}, err
	}
	return s.e.orgs.Get(ctx, k)
}

// Settings returns an organization's settings: GetItem
// PK = ORG#{organizationId}, SK = SETTINGS. Errors:
// *table.ValidationError, table.ErrNotFound.
//
// Pattern: PF-5 (the read beside it).
func (s *Organizations) Settings(ctx context.Context, id pf.OrgID) (_ pf.OrganizationSettings, err error) {
	ctx, call := s.e.t.Call(ctx, "PF-5", "podcastflow.Organizations.Settings")
	defer func() { call.End(err) }()
	k, err := pf.OrganizationSettingsKey(id)
	if err != nil {
		return pf.OrganizationSettings{}, err
	}
	return s.e.orgSettings.Get(ctx, k)
}

// GetWithSettings returns an organization's profile and settings with one
// Query on the item collection (PF-5): PK = ORG#{organizationId}. Items
// without the entity-type attribute are recognized by their sort key.
// Errors: *table.ValidationError, table.ErrNotFound (no profile).
func (s *Organizations) GetWithSettings(ctx context.Context, id pf.OrgID) (_ OrganizationWithSettings, err error) {
	ctx, call := s.e.t.Call(ctx, "PF-5", "podcastflow.Organizations.GetWithSettings")
	defer func() { call.End(err) }()
	var out OrganizationWithSettings
	pk, err := pf.OrgPK(id)
	if err != nil {
		return out, err
	}
	found := false
	_, err = s.e.t.ReadCollection(ctx, table.Query{PK: pk, Consistent: true},
		table.Into(s.e.orgs, func(o pf.OrganizationProfile) { out.Profile, found = o, true }),
		table.Into(s.e.orgSettings, func(st pf.OrganizationSettings) { out.Settings = &st }))
	if err != nil {
		return OrganizationWithSettings{}, err
	}
	if !found {
		return OrganizationWithSettings{}, fmt.Errorf("get organization %s with settings: %w", id, table.ErrNotFound)
	}
	return out, nil
}

// List returns one page of all organizations, by organizationId (PF-6):
// Query GSI4 PK = ORGS#{n} for each shard n (Options.IndexShards; ORGS
// itself with one shard), sent at once and merged: one request per shard
// per page. The document's Scan is not used. Errors:
// *table.ValidationError, table.ErrInvalidCursor.
func (s *Organizations) List(ctx context.Context, opts ...table.ListOption) (_ table.Page[pf.OrganizationProfile], err error) {
	ctx, call := s.e.t.Call(ctx, "PF-6", "podcastflow.Organizations.List")
	defer func() { call.End(err) }()
	return s.e.orgs.List(ctx, table.Query{Index: IndexAll, PK: AllOrgsPK}, opts...)
}

// All iterates over all organizations (PF-6); see [Organizations.List].
func (s *Organizations) All(ctx context.Context, opts ...table.ListOption) iter.Seq2[pf.OrganizationProfile, error] {
	return table.CallSeq2(ctx, s.e.t, "PF-6", "podcastflow.Organizations.All", func(ctx context.Context) iter.Seq2[pf.OrganizationProfile, error] {
		return s.e.orgs.ListAll(ctx, table.Query{Index: IndexAll, PK: AllOrgsPK}, opts...)
	})
}

// PutSettings writes an organization's settings: an upsert that writes only
// what differs from the stored item (table.Entity.Upsert), so changes the
// application's scripts made to other attributes are kept. Errors:
// *table.ValidationError.
//
// Pattern: PF-5 (its write side).
func (s *Organizations) PutSettings(ctx context.Context, st *pf.OrganizationSettings) (err error) {
	ctx, call := s.e.t.Call(ctx, "PF-5", "podcastflow.Organizations.PutSettings")
	defer func() { call.End(err) }()
	return s.e.orgSettings.Upsert(ctx, st)
}

// Update applies change to the organization and writes it back with
// optimistic concurrency (retried on a lost race); its status entry
// (PF-14) moves in the same write. Errors: *table.ValidationError,
// table.ErrNotFound.
//
// Requests: a consistent GetItem of the profile, then one UpdateItem
// conditioned on the version read, writing only the attributes that changed
// so that attributes written by other services are kept. change is arbitrary
// code that needs the current profile.
func (s *Organizations) Update(ctx context.Context, id pf.OrgID, change func(*pf.OrganizationProfile) error) (_ pf.OrganizationProfile, err error) {
	ctx, call := s.e.t.Call(ctx, "PF-14", "podcastflow.Organizations.Update")
	defer func() { call.End(err) }()
	k, err := pf.OrganizationProfileKey(id)
	if err != nil {
		return pf.OrganizationProfile{}, err
	}
	return s.e.orgs.Update(ctx, k, change)
}

// SetStatus sets an organization's status; its GSI3 entry (PF-14) moves
// in the same write. Errors: as [Organizations.Update].
//
// Requests: as Organizations.Update, a consistent GetItem and one
// conditional UpdateItem.
func (s *Organizations) SetStatus(ctx context.Context, id pf.OrgID, status pf.OrgStatus) (_ pf.OrganizationProfile, err error) {
	ctx, call := s.e.t.Call(ctx, "PF-14", "podcastflow.Organizations.SetStatus")
	defer func() { call.End(err) }()
	if _, err := pf.ParseOrgStatus(string(status)); err != nil {
		return pf.OrganizationProfile{}, err
	}
	return s.Update(ctx, id, func(o *pf.OrganizationProfile) error { o.Status = status; return nil })
}

// Delete deletes an organization's profile and settings in one
// transaction. Its users, metrics and billing records are kept (billing
// is an audit trail; move or delete users first). Errors:
// *table.ValidationError, table.ErrNotFound (no profile).
//
// Pattern: PF-5 (its write side).
func (s *Organizations) Delete(ctx context.Context, id pf.OrgID) (err error) {
	ctx, call := s.e.t.Call(ctx, "PF-5", "podcastflow.Organizations.Delete")
	defer func() { call.End(err) }()
	pk, err := pf.OrganizationProfileKey(id)
	if err != nil {
		return err
	}
	sk, _ := pf.OrganizationSettingsKey(id)
	err = s.e.t.Transact(ctx, s.e.orgs.DeleteOp(pk), s.e.orgSettings.DeleteOp(sk).Unconditional())
	var te *table.TxError
	if errors.As(err, &te) && len(te.Failed()) == 1 && te.Failed()[0].Key == pk && te.Failed()[0].Code == "ConditionalCheckFailed" {
		return fmt.Errorf("delete organization %s: %w", id, table.ErrNotFound)
	}
	return err
}

// Reindex rewrites an organization's profile through the library, so that
// an item written by another service joins the indexes of PF-6 and PF-14.
// Errors: as [Organizations.Update].
//
// Requests: a consistent GetItem of the profile, then one UpdateItem
// conditioned on the version read, writing only the attributes that changed
// so that attributes written by other services are kept. The read is what
// finds the fields to index.
func (s *Organizations) Reindex(ctx context.Context, id pf.OrgID) (_ pf.OrganizationProfile, err error) {
	ctx, call := s.e.t.Call(ctx, "PF-6", "podcastflow.Organizations.Reindex")
	defer func() { call.End(err) }()
	return s.Update(ctx, id, func(*pf.OrganizationProfile) error { return nil })
}
