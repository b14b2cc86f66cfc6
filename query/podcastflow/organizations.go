package podcastflow

import (
	"context"
	"fmt"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
)

// Organizations serves the organization patterns, PF-5 and PF-6, and the
// writes the platform needs.
type Organizations struct {
	// Profile reads an organization's profile (PF-5).
	//
	//	o, err := s.Organizations.Profile.Get(ctx, pf.OrganizationProfile{OrganizationID: id})
	Profile *table.Pattern[pf.OrganizationProfile]
	// Settings reads an organization's settings (PF-5).
	Settings *table.Pattern[pf.OrganizationSettings]
	// AllOrganizations lists every organization by organizationId (PF-6),
	// with no Scan (the document's); its index partition is sharded
	// (Options.IndexShards).
	AllOrganizations *table.Pattern[pf.OrganizationProfile]
	// Create creates an organization (PF-5, its write side); status
	// defaults to trial.
	Create func(context.Context, *pf.OrganizationProfile) error
	// Update applies change to the organization with optimistic concurrency
	// (retried on a lost race); its status entry (PF-14) moves in the same
	// write. change is arbitrary code that needs the current profile.
	Update func(context.Context, pf.OrgID, func(*pf.OrganizationProfile) error) (pf.OrganizationProfile, error)
	// SetStatus sets an organization's status; its GSI3 entry (PF-14)
	// moves in the same write.
	SetStatus func(context.Context, pf.OrgID, pf.OrgStatus) (pf.OrganizationProfile, error)
	// Reindex rewrites an organization's profile through the library, so
	// that an item written by another service joins the indexes of PF-6
	// and PF-14.
	Reindex func(context.Context, pf.OrgID) (pf.OrganizationProfile, error)
	// PutSettings writes an organization's settings (PF-5, its write side)
	// as an upsert, so changes the application's scripts made to other
	// attributes are kept.
	PutSettings func(context.Context, *pf.OrganizationSettings) error

	getWithSettings, delete table.Op
	e                       *entities
}

func newOrganizations(e *entities) *Organizations {
	key := func(id pf.OrgID) pf.OrganizationProfile { return pf.OrganizationProfile{OrganizationID: id} }
	return &Organizations{e: e,
		Update: table.Update(e.orgs, table.WriteDef[pf.OrganizationProfile]{ID: "PF-14", Name: "podcastflow.Organizations.Update",
			Doc: "Applies change to the organization and writes it back with optimistic concurrency (retried on a lost race); its status entry (PF-14) moves in the same write."}, key),
		Create: table.Create(e.orgs, table.WriteDef[pf.OrganizationProfile]{ID: "PF-5", Name: "podcastflow.Organizations.Create",
			Doc: "Creates an organization; status defaults to trial.",
			Before: func(o *pf.OrganizationProfile) {
				if o.Status == "" {
					o.Status = pf.OrgTrial
				}
			}}),
		Profile: table.NewPattern(e.orgs, table.PatternDef[pf.OrganizationProfile]{ID: "PF-5", Name: "podcastflow.Organizations.Profile",
			Doc: "An organization's profile.", Reads: table.ReadOne}),
		Settings: table.NewPattern(e.orgSettings, table.PatternDef[pf.OrganizationSettings]{ID: "PF-5", Name: "podcastflow.Organizations.Settings",
			Doc: "An organization's settings.", Reads: table.ReadOne}),
		AllOrganizations: table.NewPattern(e.orgs, table.PatternDef[pf.OrganizationProfile]{ID: "PF-6", Name: "podcastflow.Organizations.AllOrganizations",
			Doc: "Every organization, by organizationId, one Query per shard per page (no Scan).", Reads: table.ReadPage, Index: IndexAll, WholePartition: true}),
		getWithSettings: table.NewOp(e.t, "PF-5", "podcastflow.Organizations.GetWithSettings"),
		PutSettings: table.Upsert(e.orgSettings, table.WriteDef[pf.OrganizationSettings]{ID: "PF-5", Name: "podcastflow.Organizations.PutSettings",
			Doc: "Writes an organization's settings: an upsert that writes only what differs from the stored item, so changes the application's scripts made to other attributes are kept."}),
		SetStatus: table.UpdateWith(e.orgs, table.WriteDef[pf.OrganizationProfile]{ID: "PF-14", Name: "podcastflow.Organizations.SetStatus",
			Doc: "Sets an organization's status; its GSI3 entry (PF-14) moves in the same write."}, key,
			"status", func(o *pf.OrganizationProfile, status pf.OrgStatus) error { o.Status = status; return nil }),
		delete: table.NewOp(e.t, "PF-5", "podcastflow.Organizations.Delete"),
		Reindex: table.Rewrite(e.orgs, table.WriteDef[pf.OrganizationProfile]{ID: "PF-6", Name: "podcastflow.Organizations.Reindex",
			Doc:  "Rewrites an organization's profile through the library, so that an item another service wrote joins the indexes of PF-6 and PF-14.",
			Also: []string{"PF-14"}}, key),
	}
}

// OrganizationWithSettings is an organization's profile with its settings
// (PF-5). Settings is nil when none were saved.
type OrganizationWithSettings struct {
	Profile  pf.OrganizationProfile
	Settings *pf.OrganizationSettings
}

// GetWithSettings returns an organization's profile and settings with one
// Query on the item collection (PF-5): PK = ORG#{organizationId}. Items
// without the entity-type attribute are recognized by their sort key.
// Errors: *table.ValidationError, table.ErrNotFound (no profile).
func (s *Organizations) GetWithSettings(ctx context.Context, id pf.OrgID) (OrganizationWithSettings, error) {
	return table.Run(ctx, s.getWithSettings, func(ctx context.Context) (OrganizationWithSettings, error) {
		var out OrganizationWithSettings
		k, err := s.e.orgs.CheckedKey(pf.OrganizationProfile{OrganizationID: id})
		if err != nil {
			return out, err
		}
		found := false
		_, err = s.e.t.ReadCollection(ctx, table.Query{PK: k.PK, Consistent: true},
			table.Into(s.e.orgs, func(o pf.OrganizationProfile) { out.Profile, found = o, true }),
			table.Into(s.e.orgSettings, func(st pf.OrganizationSettings) { out.Settings = &st }))
		if err != nil {
			return OrganizationWithSettings{}, err
		}
		if !found {
			return OrganizationWithSettings{}, fmt.Errorf("get organization %s with settings: %w", id, table.ErrNotFound)
		}
		return out, nil
	})
}

// Delete deletes an organization's profile and settings in one
// transaction. Its users, metrics and billing records are kept (billing
// is an audit trail; move or delete users first). Errors:
// *table.ValidationError, table.ErrNotFound (no profile).
//
// Pattern: PF-5 (its write side).
func (s *Organizations) Delete(ctx context.Context, id pf.OrgID) error {
	return s.delete.Do(ctx, func(ctx context.Context) error {
		pk, err := s.e.orgs.CheckedKey(pf.OrganizationProfile{OrganizationID: id})
		if err != nil {
			return err
		}
		sk := s.e.orgSettings.Key(pf.OrganizationSettings{OrganizationID: id})
		return s.e.t.Transact(ctx, s.e.orgs.DeleteOp(pk).OnFail(fmt.Errorf("delete organization %s: %w", id, table.ErrNotFound)),
			s.e.orgSettings.DeleteOp(sk).Unconditional())
	})
}
