package ferryhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Sources serves the sources of the document's interface (FH-3, FH-4,
// FH-11).
type Sources struct {
	// ByUser lists a user's sources in sourceId order, ascending (FH-3;
	// FH-11 sources.listByUser). Deleted sources are left out (a page may
	// hold fewer than the limit).
	//
	//	page, err := s.Sources.ByUser.List(ctx, fh.Source{UserID: u})
	ByUser *table.Pattern[fh.Source]
	// ByID reads user's source (FH-11 sources.getById). Another user's or
	// a deleted source is not found (table.ErrNotFound).
	//
	//	src, err := s.Sources.ByID.Get(ctx, fh.Source{UserID: u, SourceID: id})
	ByID *table.Pattern[fh.Source]

	create, getByID, update, delete, shardEvents, counts table.Op
	s                                                    *Store
}

func newSources(s *Store) *Sources {
	return &Sources{s: s,
		create:      table.NewOp(s.main, "FH-11", "ferryhook.Sources.Create"),
		getByID:     table.NewOp(s.main, "FH-4", "ferryhook.Sources.GetByID"),
		update:      table.NewOp(s.main, "FH-11", "ferryhook.Sources.Update"),
		delete:      table.NewOp(s.main, "FH-11", "ferryhook.Sources.Delete"),
		shardEvents: table.NewOp(s.main, "FH-7", "ferryhook.Sources.ShardEvents"),
		counts:      table.NewOp(s.main, "FH-13", "ferryhook.Sources.Counts"),
		ByUser: table.NewPattern(s.source, table.PatternDef[fh.Source]{ID: "FH-3", Name: "ferryhook.Sources.ByUser",
			Doc: "A user's sources, deleted ones left out.", Reads: table.ReadPage,
			Keep: func(_, src *fh.Source) bool { return src.Status != fh.StatusDeleted }}),
		ByID: table.NewPattern(s.source, table.PatternDef[fh.Source]{ID: "FH-11", Name: "ferryhook.Sources.ByID",
			Doc: "A user's source by ID, a deleted one not found.", Reads: table.ReadOne,
			Require: []string{"sourceId"},
			Keep:    func(_, src *fh.Source) bool { return src.Status != fh.StatusDeleted }}),
	}
}

// CreateSourceInput describes a new source.
type CreateSourceInput struct {
	// Name is required ("Stripe Prod").
	Name string
	// Provider is required.
	Provider fh.Provider
	// SigningSecret is the provider's signing secret, if it signs.
	SigningSecret string
	// SigningAlgorithm defaults to hmac-sha256 when a secret is given.
	// Under [ServiceProfile] it is written in the running service's
	// vocabulary (fh.ServiceSigningAlgorithm: hmac-sha256 as
	// generic-hmac-sha256, none when unset), and the service's own values
	// (stripe, github, shopify, none) are accepted.
	SigningAlgorithm fh.SigningAlgorithm
}

// signing returns alg as the store writes it: in the running service's
// vocabulary under ServiceProfile (Options.ServiceVocabulary), as given
// otherwise.
func (s *Sources) signing(alg fh.SigningAlgorithm) (fh.SigningAlgorithm, error) {
	if !s.s.opts.ServiceVocabulary {
		return alg, nil
	}
	return fh.ServiceSigningAlgorithm(alg)
}

// Create creates an active source for user (FH-11 sources.create) in one
// transaction that also checks the user exists: a missing user gives
// table.ErrNotFound, bad input a *table.ValidationError. In the scaled
// profile the transaction also creates the source's counter shards
// (with its status and event layout), 34 actions.
func (s *Sources) Create(ctx context.Context, user fh.UserID, in CreateSourceInput) (fh.Source, error) {
	return table.Run(ctx, s.create, func(ctx context.Context) (fh.Source, error) {
		uk, err := s.s.user.CheckedKey(fh.User{UserID: user})
		if err != nil {
			return fh.Source{}, err
		}
		if in.SigningSecret != "" && in.SigningAlgorithm == "" {
			in.SigningAlgorithm = fh.SigningHMACSHA256
		}
		if in.SigningAlgorithm, err = s.signing(in.SigningAlgorithm); err != nil {
			return fh.Source{}, err
		}
		src := fh.Source{
			SourceID:         fh.SourceIDs.New(),
			UserID:           user,
			Name:             in.Name,
			Provider:         in.Provider,
			SigningSecret:    in.SigningSecret,
			SigningAlgorithm: in.SigningAlgorithm,
			Status:           fh.StatusActive,
			EventLayout:      s.s.newSourceLayout(),
		}
		if err := s.s.source.Validate(&src); err != nil { // ValidateService under Options.ServiceVocabulary
			return fh.Source{}, err
		}
		ops, err := s.s.source.CreateOp(&src)
		if err != nil {
			return fh.Source{}, err
		}
		if s.s.scaled() { // its counter shards, so its first ingest needs no shard creation
			ops = append(ops, s.s.srcCounters.NewShardOps(string(src.SourceID), s.s.sourceState(ownerInfo{layout: mustLayout(src.EventLayout)}))...)
		}
		if err := s.s.main.Transact(ctx, append([]table.TxOp{s.s.main.ConditionOp(uk).OnFail(notFound("user", string(user)))}, ops...)...); err != nil {
			return fh.Source{}, err
		}
		return src, nil
	})
}

// GetByID returns a source without knowing its user, as the ingest handler
// needs (FH-4; FH-11 sources.getById): Query GSI3 GSI3PK =
// SRCID#{sourceId}, GSI3SK = SOURCE, then a strongly consistent GetItem of
// the source found (table.Entity.GetByIndex): its answer decides whether
// events are accepted, so a lagging index never returns a deleted or
// paused source as active. Two requests. A missing or deleted source gives
// table.ErrNotFound.
func (s *Sources) GetByID(ctx context.Context, id fh.SourceID) (fh.Source, error) {
	return table.Run(ctx, s.getByID, func(ctx context.Context) (fh.Source, error) {
		if err := fh.SourceIDs.Check(id); err != nil {
			return fh.Source{}, err
		}
		src, err := s.s.source.GetByIndex(ctx, s.s.source.Partition(table.GSI3, fh.Source{SourceID: id}))
		if errors.Is(err, table.ErrNotFound) || err == nil && src.Status == fh.StatusDeleted {
			return fh.Source{}, notFound("source", string(id))
		}
		return src, err
	})
}

// SourceUpdate is a partial update of a source (the document's
// Partial<Source>); nil fields are left alone. Status may be active or
// paused (use Delete to delete).
type SourceUpdate struct {
	Name             *string
	SigningSecret    *string
	SigningAlgorithm *fh.SigningAlgorithm
	Status           *fh.Status
}

// Update changes user's source (FH-11 sources.update) and returns it as
// stored (read, then conditional write on the version, retried on a lost
// race; counters bumped meanwhile are kept). In the scaled profile
// ([ScaledProfile]) a status change also writes the status into the
// source's counter shards, in the same transaction, so the next ingest is
// refused (or accepted again) by its own transaction. Another user's, a missing or
// a deleted source gives table.ErrNotFound and changes nothing; bad input
// a *table.ValidationError.
func (s *Sources) Update(ctx context.Context, user fh.UserID, id fh.SourceID, up SourceUpdate) (fh.Source, error) {
	return table.Run(ctx, s.update, func(ctx context.Context) (fh.Source, error) {
		k, err := s.s.source.CheckedKey(fh.Source{UserID: user, SourceID: id})
		if err != nil {
			return fh.Source{}, err
		}
		if up == (SourceUpdate{}) {
			return fh.Source{}, table.Invalid("update", "no field to change")
		}
		if up.Status != nil && *up.Status != fh.StatusActive && *up.Status != fh.StatusPaused {
			return fh.Source{}, table.Invalid("status", "%q: set active or paused (use Delete to delete)", *up.Status)
		}
		if s.s.opts.ServiceVocabulary && up.SigningAlgorithm != nil {
			alg, err := s.signing(*up.SigningAlgorithm)
			if err != nil {
				return fh.Source{}, err
			}
			up.SigningAlgorithm = &alg
			if err := fh.ValidateSourceChange(up.Name, up.SigningSecret, nil); err != nil {
				return fh.Source{}, err
			}
		} else if err := fh.ValidateSourceChange(up.Name, up.SigningSecret, up.SigningAlgorithm); err != nil {
			return fh.Source{}, err // before any request
		}
		// The scaled profile's counter shards hold a copy of the status: a
		// status change writes them in the same transaction.
		var also []table.TxOp
		if s.s.scaled() && up.Status != nil {
			also = s.s.srcCounters.StateOps(string(id), map[string]string{"status": string(*up.Status)})
		}
		if up.Status != nil {
			defer s.s.forgetSource(id)
		}
		return s.s.source.UpdateAlso(ctx, k, also, func(cur *fh.Source) error {
			if cur.Status == fh.StatusDeleted {
				return notFound("source", string(id))
			}
			set(&cur.Name, up.Name)
			set(&cur.SigningSecret, up.SigningSecret)
			set(&cur.SigningAlgorithm, up.SigningAlgorithm)
			set(&cur.Status, up.Status)
			switch {
			case s.s.opts.ServiceVocabulary:
				// The service's rule: an algorithm always, none when unset; a
				// secret may go without one (its validation allows it).
				if cur.SigningAlgorithm == "" {
					cur.SigningAlgorithm = fh.SigningNone
				}
			case up.SigningSecret != nil && *up.SigningSecret == "":
				cur.SigningAlgorithm = ""
			case cur.SigningSecret != "" && cur.SigningAlgorithm == "":
				cur.SigningAlgorithm = fh.SigningHMACSHA256
			}
			return nil
		})
	})
}

// Delete deletes user's source (FH-11 sources.delete): status deleted, as
// the document's statuses say, so it is never returned again and accepts no
// events. Another user's, a missing or an already deleted source gives
// table.ErrNotFound and changes nothing. One UpdateItem; in the scaled
// profile one transaction that also marks the source's counter shards
// deleted, so no ingest is counted after it.
func (s *Sources) Delete(ctx context.Context, user fh.UserID, id fh.SourceID) error {
	return s.delete.Do(ctx, func(ctx context.Context) error {
		k, err := s.s.source.CheckedKey(fh.Source{UserID: user, SourceID: id})
		if err != nil {
			return err
		}
		defer s.s.forgetSource(id)
		// One UpdateItem: status deleted unless already deleted.
		p := table.Patch{
			Set:        map[string]any{"status": fh.StatusDeleted},
			IfNotEqual: map[string]any{"status": fh.StatusDeleted},
		}
		if !s.s.scaled() {
			_, err = s.s.source.Patch(ctx, k, p)
			if errors.Is(err, table.ErrConditionFailed) {
				return notFound("source", string(id))
			}
			return err
		}
		// Scaled: the same patch and the status of every counter shard, in
		// one transaction.
		op, err := s.s.source.PatchOp(k, p)
		if err != nil {
			return err
		}
		ops := append([]table.TxOp{op.OnFail(notFound("source", string(id)))}, s.s.srcCounters.StateOps(string(id), map[string]string{"status": string(fh.StatusDeleted)})...)
		return s.s.main.Transact(ctx, ops...)
	})
}

func notFound(what, id string) error {
	return fmt.Errorf("%s %s: %w", what, id, table.ErrNotFound)
}
