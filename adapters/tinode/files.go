package tinode

import (
	"strings"
	"time"

	"github.com/singletable/singletable/entity/tn"
	t "github.com/tinode/chat/server/store/types"
)

// FileStartUpload records a new upload (TN-31): one conditional PutItem.
// An existing id gives types.ErrDuplicate.
func (a *Adapter) FileStartUpload(fd *t.FileDef) error {
	ctx, cancel := a.ctx()
	defer cancel()
	f := tn.File{
		Id: fd.Id, CreatedAt: fd.CreatedAt, UpdatedAt: fd.UpdatedAt, User: tn.UserID(fd.User),
		Status: tn.FileStatus(fd.Status), MimeType: fd.MimeType, Size: fd.Size,
		Location: fd.Location, ETag: fd.ETag,
	}
	return terr(a.st.Files.Start(ctx, &f))
}

// FileFinishUpload completes an upload (TN-31): on success the record
// gets size, location and ETag (a read and a write); on failure it is
// deleted (one request) and returned with UploadFailed.
func (a *Adapter) FileFinishUpload(fd *t.FileDef, success bool, size int64) (*t.FileDef, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	f, err := a.st.Files.Finish(ctx, fd.Id, success, size, fd.Location, fd.ETag)
	if err != nil {
		return nil, terr(err)
	}
	return fromFile(&f), nil
}

// FileGet returns the record of file fid (TN-31): one GetItem. None gives
// (nil, nil).
func (a *Adapter) FileGet(fid string) (*t.FileDef, error) {
	if fid == "" {
		return nil, t.ErrMalformed
	}
	ctx, cancel := a.ctx()
	defer cancel()
	f, err := a.st.Files.ByID.Get(ctx, tn.File{Id: fid})
	if err != nil {
		return nil, notFoundNil(err)
	}
	return fromFile(&f), nil
}

// FileDeleteUnused deletes up to limit (default and at most 1000) records
// nothing links to, updated before olderThan (zero: any), and returns
// their locations (TN-33): a Query of the sparse unused-file index, then
// one version-checked delete each.
func (a *Adapter) FileDeleteUnused(olderThan time.Time, limit int) ([]string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	locs, err := a.st.Files.DeleteUnused(ctx, olderThan, limit)
	return locs, terr(err)
}

// FileLinkAttachments links files to a message (adding links), or to a
// topic or user (its one avatar: earlier links replaced) (TN-32). No file
// or no owner gives types.ErrMalformed, a missing file types.ErrNotFound.
func (a *Adapter) FileLinkAttachments(topic string, userID, msgID t.Uid, fids []string) error {
	if len(fids) == 0 || (topic == "" && msgID.IsZero() && userID.IsZero()) {
		return t.ErrMalformed
	}
	var owner tn.LinkOwner
	replace := true
	switch {
	case !msgID.IsZero():
		owner, replace = tn.MessageOwner(msgID.String()), false
	case topic != "":
		owner, fids = tn.TopicOwner(tn.TopicName(topic)), fids[:1]
	default:
		owner, fids = tn.UserOwner(tn.UserID(userID.String())), fids[:1]
	}
	ctx, cancel := a.ctx()
	defer cancel()
	return terr(a.st.Files.Link(ctx, owner, fids, replace))
}

// PCacheGet returns the value of key (TN-34): one GetItem. None gives
// types.ErrNotFound.
func (a *Adapter) PCacheGet(key string) (string, error) {
	ctx, cancel := a.ctx()
	defer cancel()
	e, err := a.st.Cache.ByKey.Get(ctx, tn.CacheEntry{Key: key})
	return e.Value, terr(err)
}

// PCacheUpsert sets key (TN-34): one PutItem, conditional with
// failOnDuplicate (a held key gives types.ErrDuplicate). A key holding
// '%' is refused (types.ErrMalformed), as in Tinode's SQL adapters.
func (a *Adapter) PCacheUpsert(key, value string, failOnDuplicate bool) error {
	if strings.Contains(key, "%") {
		return t.ErrMalformed
	}
	ctx, cancel := a.ctx()
	defer cancel()
	return terr(a.st.Cache.Upsert(ctx, key, value, failOnDuplicate))
}

// PCacheDelete deletes key (TN-34): one DeleteItem; a missing key is not
// an error.
func (a *Adapter) PCacheDelete(key string) error {
	ctx, cancel := a.ctx()
	defer cancel()
	return terr(a.st.Cache.Delete(ctx, key))
}

// PCacheExpire deletes the entries of the key prefix written before
// olderThan (TN-35): one Query of the prefix, then batched deletes. An
// empty prefix gives types.ErrMalformed.
func (a *Adapter) PCacheExpire(keyPrefix string, olderThan time.Time) error {
	if keyPrefix == "" {
		return t.ErrMalformed
	}
	ctx, cancel := a.ctx()
	defer cancel()
	_, err := a.st.Cache.Expire(ctx, keyPrefix, olderThan)
	return terr(err)
}
