package table

import (
	"errors"
	"slices"
	"strings"

	"github.com/singletable/singletable/internal/stream"
)

// Summaries of changes, for tools that show a table's stream to a person
// (`singletable tail`): what happened to an item of any entity bound to
// the table, named by attribute, never by value.

// ChangeSummary is what a stream record says happened, without values.
type ChangeSummary struct {
	// Class is whose item it is ([Table.Classify]).
	Class Classification
	// Event is what happened; Key the item's primary key.
	Event ChangeEvent
	Key   Key
	// Changed names the attributes that changed, sorted, as
	// [ItemChange.Changed] does for an entity's item (never the engine's
	// own attributes); for the engine's items and unknown records, every
	// attribute whose stored value differs but the key, the entity-type,
	// version and write-token attributes.
	Changed []string
	// BookkeepingOnly marks an entity's modification that changed only
	// the engine's attributes (see [ItemChange.BookkeepingOnly]).
	BookkeepingOnly bool
	// Secrets are the top-level attributes holding the entity's secrets
	// (Def.Secrets; "credentials" for "credentials.token"): a tool never
	// shows their values.
	Secrets []string
	// Sealed says the entity's secrets could not be opened (the table has
	// no cipher), so Changed compared them as stored: a secret named
	// there had its ciphertext rewritten, not necessarily its value.
	Sealed bool
}

// changeSummarizer is implemented by every *Entity[T].
type changeSummarizer interface {
	summarizeChange(r Record) (ChangeSummary, error)
}

// SummarizeChange says what r did, by attribute name (see
// [ChangeSummary]). An entity's record is decoded as [Entity.DecodeChange]
// decodes it (its errors are *RecordError); when the table has no cipher
// for the entity's secrets, the images are compared as stored instead of
// failing. It sends no request.
func (t *Table) SummarizeChange(r Record) (ChangeSummary, error) {
	cl := t.Classify(r)
	if cl.Kind == KindEntity {
		if e, ok := cl.Entity.(changeSummarizer); ok {
			s, err := e.summarizeChange(r)
			s.Class = cl
			return s, err
		}
	}
	s := ChangeSummary{Class: cl}
	ev, err := r.Event()
	if err != nil {
		return s, t.NewRecordError(r, "", err)
	}
	s.Event = ev
	s.Key = t.c.KeyOf(recordKeys(r))
	own := map[string]bool{t.schema.PK: true, t.schema.SK: true}
	for _, a := range []string{t.schema.TypeAttr, t.schema.VersionAttr, t.schema.TokenAttr} {
		if a != "" {
			own[a] = true
		}
	}
	s.Changed = stream.ChangedAttrs(own, r.Old, r.New)
	return s, nil
}

func recordKeys(r Record) Item {
	if len(r.Keys) > 0 {
		return r.Keys
	}
	return r.Image()
}

func (e *Entity[T]) summarizeChange(r Record) (ChangeSummary, error) {
	s := ChangeSummary{}
	for _, p := range e.def.Secrets {
		top, _, _ := strings.Cut(p, ".")
		if !slices.Contains(s.Secrets, top) {
			s.Secrets = append(s.Secrets, top)
		}
	}
	c, err := e.DecodeChange(r)
	if err == nil {
		s.Event, s.Key, s.Changed, s.BookkeepingOnly = c.Event, c.Key, c.Changed(), c.BookkeepingOnly
		return s, nil
	}
	if !errors.Is(err, ErrNoCipher) {
		return s, err
	}
	// No cipher: compare the images as stored.
	s.Sealed = true
	if s.Event, err = r.Event(); err != nil {
		return s, e.t.NewRecordError(r, e.def.Type, err)
	}
	s.Key = e.t.c.KeyOf(recordKeys(r))
	s.Changed = stream.Changed(e.ownAttrs(), r.Old, r.New, s.Event)
	s.BookkeepingOnly = s.Event == Modified && r.Old != nil && r.New != nil && len(s.Changed) == 0
	return s, nil
}
