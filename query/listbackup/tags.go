package listbackup

import (
	"cmp"
	"context"
	"slices"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Tags serves LB-38..LB-41. The reads of one pattern are declared
// ([table.Pattern]): its fields, whole on the Store and the account's own
// on [AccountScope].
type Tags struct {
	// ByResourceType lists an account's tags for a resource type, by key
	// then value (LB-38).
	//
	//	page, err := s.Tags.ByResourceType.List(ctx, lb.Tag{AccountID: a, ResourceType: lb.ResourceSource})
	ByResourceType *table.Pattern[lb.Tag]
	// ByKey lists an account's tags for a resource type with one tag key,
	// by value (LB-39).
	ByKey *table.Pattern[lb.Tag]
	// Create creates a tag (LB-40, its write side); (account, resource type,
	// key, value) is unique. TagID defaults to a new UUID.
	Create func(context.Context, *lb.Tag) error
	// Delete deletes a tag (LB-66) and so detaches every resource attached
	// to it at once: the attachments are held in the tag item itself (its
	// resources list, LB-41) and no resource item refers to the tag. Tags
	// have no status in either document, so the delete is hard, which also
	// frees the (account, resource type, key, value) for a new tag.
	Delete func(context.Context, TagRef) error
	// Update applies change to a tag (LB-66): its color, description and
	// resources, written back only if nobody wrote in between, so a
	// concurrent Attach is never lost. Its identity (account, resource
	// type, key, value: its key; tagId: Def.Fixed) cannot change: to
	// rename a tag, create the new one and delete the old.
	Update func(context.Context, TagRef, func(*lb.Tag) error) (lb.Tag, error)

	get, attach, detach table.Op
	e                   *entities
	acct                lb.AccountID // set: the view of one account (Store.ForAccount)
}

func newTags(e *entities) *Tags {
	return (&Tags{e: e,
		ByResourceType: table.NewPattern(e.tags, table.PatternDef[lb.Tag]{ID: "LB-38", Name: "listbackup.Tags.ByResourceType",
			Doc: "An account's tags for a resource type, by key then value.", Reads: table.ReadPage}),
		ByKey: table.NewPattern(e.tags, table.PatternDef[lb.Tag]{ID: "LB-39", Name: "listbackup.Tags.ByKey",
			Doc: "An account's tags for a resource type with one tag key, by value.", Reads: table.ReadPage, SortPrefix: true,
			Check: func(t *lb.Tag) error { return lb.CheckTagPart("tagKey", t.TagKey) }}),
		get:    table.NewOp(e.t, "LB-40", "listbackup.Tags.Get"),
		attach: table.NewOp(e.t, "LB-41", "listbackup.Tags.Attach"),
		detach: table.NewOp(e.t, "LB-41", "listbackup.Tags.Detach"),
	}).declare()
}

// in returns the tags of account acct alone.
func (s *Tags) in(acct lb.AccountID) *Tags {
	c := *s
	c.acct, c.ByResourceType, c.ByKey = acct, s.ByResourceType.In(string(acct)), s.ByKey.In(string(acct))
	return c.declare()
}

// tagDeleteAlso is Tags.Delete's further IDs, one value for every view.
var tagDeleteAlso = []string{"LB-41"}

// declare declares the writes of the view (its account's, or whole).
func (s *Tags) declare() *Tags {
	view := items(s.e.tags, s.acct) // one view for every write
	s.Create = table.Create(view, table.WriteDef[lb.Tag]{ID: "LB-40", Name: "listbackup.Tags.Create",
		Doc:    "Creates a tag; (account, resource type, key, value) is unique.",
		Before: func(t *lb.Tag) { newID(&t.TagID) }})
	s.Delete = table.Delete(view, table.WriteDef[lb.Tag]{ID: "LB-66", Name: "listbackup.Tags.Delete",
		Doc:   "Deletes a tag, and so detaches every resource attached to it (held in the tag item): one conditional DeleteItem.",
		Check: checkTagRef, Also: tagDeleteAlso}, TagRef.tag)
	s.Update = table.Update(view, table.WriteDef[lb.Tag]{ID: "LB-66", Name: "listbackup.Tags.Update",
		Doc: "Applies change to a tag (color, description, resources); its identity cannot change.", Check: checkTagRef}, TagRef.tag)
	return s
}

// TagRef names a tag by its unique parts (its primary key).
type TagRef struct {
	AccountID    lb.AccountID
	ResourceType lb.ResourceType
	TagKey       string
	TagValue     string
}

// tag is the key fields of the tag r names.
func (r TagRef) tag() lb.Tag {
	return lb.Tag{AccountID: r.AccountID, ResourceType: r.ResourceType, TagKey: r.TagKey, TagValue: r.TagValue}
}

// checkTagRef is the caller's checks of a tag's key fields, beyond their own.
func checkTagRef(t *lb.Tag) error {
	return cmp.Or(lb.CheckTagPart("tagKey", t.TagKey), lb.CheckTagPart("tagValue", t.TagValue), lb.AccountIDs.Check(t.AccountID), table.CheckEnum("resourceType", t.ResourceType))
}

// key returns the key of the tag r names.
func (s *Tags) key(r TagRef) (table.Key, error) {
	t := r.tag()
	return s.e.tags.CheckedKey(t, checkTagRef(&t))
}

// Get returns a tag by ID (LB-40): Query GSI1 PK = TAGID#{tagId} (one
// item), confirmed by a strongly consistent GetItem of the tag
// (table.Entity.GetByIndex), so a lagging index never returns a deleted or
// renamed tag. Two requests, so a method, not a declared pattern. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *Tags) Get(ctx context.Context, id lb.TagID) (lb.Tag, error) {
	return table.Run(ctx, s.get, func(ctx context.Context) (lb.Tag, error) {
		if err := lb.TagIDs.Check(id); err != nil {
			return lb.Tag{}, err
		}
		return s.v().GetByIndex(ctx, partition(s.e.tags, table.GSI1, lb.Tag{TagID: id}))
	})
}

// Attach attaches a resource to a tag (LB-41); attaching it again changes
// nothing. A consistent read and one conditional write
// (table.Entity.Update), so concurrent attaches are never lost. Errors:
// *table.ValidationError, table.ErrNotFound.
func (s *Tags) Attach(ctx context.Context, ref TagRef, resourceID string, by lb.UserID) (lb.Tag, error) {
	return table.Run(ctx, s.attach, func(ctx context.Context) (lb.Tag, error) {
		k, err := s.key(ref)
		if err != nil {
			return lb.Tag{}, err
		}
		if err := lb.CheckID("resourceId", resourceID); err != nil {
			return lb.Tag{}, err
		}
		now := s.e.now()
		return s.v().Update(ctx, k, func(t *lb.Tag) error {
			if !slices.ContainsFunc(t.Resources, func(r lb.TaggedResource) bool { return r.ResourceID == resourceID }) {
				t.Resources = append(t.Resources, lb.TaggedResource{ResourceID: resourceID, AttachedAt: now, AttachedBy: by})
			}
			return nil
		})
	})
}

// Detach detaches a resource from a tag (LB-41); detaching an absent one
// changes nothing. A consistent read and one conditional write
// (table.Entity.Update), because the resources list is changed in Go and
// written back only if nobody wrote it in between, so a concurrent Attach
// is never lost. Errors: *table.ValidationError, table.ErrNotFound.
func (s *Tags) Detach(ctx context.Context, ref TagRef, resourceID string) (lb.Tag, error) {
	return table.Run(ctx, s.detach, func(ctx context.Context) (lb.Tag, error) {
		k, err := s.key(ref)
		if err != nil {
			return lb.Tag{}, err
		}
		if err := lb.CheckID("resourceId", resourceID); err != nil {
			return lb.Tag{}, err
		}
		return s.v().Update(ctx, k, func(t *lb.Tag) error {
			t.Resources = slices.DeleteFunc(t.Resources, func(r lb.TaggedResource) bool { return r.ResourceID == resourceID })
			return nil
		})
	})
}
