package tinode

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/singletable/singletable/entity/tn"
	"github.com/singletable/singletable/table"
)

// Files are the access patterns of upload records (today's Tinode's
// fileuploads and filemsglinks): the record of each file, the links from
// topics, users and messages that keep it in use, and the unused ones a
// garbage collector deletes. The bytes live outside the table.
type Files struct {
	// ByID reads the record of a file (TN-31, Tinode's FileGet).
	//
	//	f, err := s.Files.ByID.Get(ctx, tn.File{Id: id})
	ByID *table.Pattern[tn.File]
	// Start records a new upload (TN-31, Tinode's FileStartUpload). Its
	// UseCount is set to 0: the record has no link, so it is in the
	// unused-file index from the start (TN-33).
	Start func(context.Context, *tn.File) error

	finish, link, links, unlink, deleteUnused table.Op
	s                                         *Store
}

func newFiles(s *Store) *Files {
	return &Files{s: s,
		Start: table.Create(s.file, table.WriteDef[tn.File]{ID: "TN-31", Name: "tinode.Files.Start", Also: []string{"TN-33"},
			Doc:    "Records a new upload (TN-31, Tinode's FileStartUpload): one PutItem on condition no upload has its ID.",
			Before: func(f *tn.File) { f.UseCount = 0 }}),
		finish:       table.NewOp(s.t, "TN-31", "tinode.Files.Finish"),
		link:         table.NewOp(s.t, "TN-32", "tinode.Files.Link"),
		links:        table.NewOp(s.t, "TN-32", "tinode.Files.Links"),
		unlink:       table.NewOp(s.t, "TN-32", "tinode.Files.Unlink"),
		deleteUnused: table.NewOp(s.t, "TN-33", "tinode.Files.DeleteUnused"),
		ByID: table.NewPattern(s.file, table.PatternDef[tn.File]{ID: "TN-31", Name: "tinode.Files.ByID",
			Doc: "An upload record by file id.", Reads: table.ReadOne,
			Require: []string{"Id"}}),
	}
}

// Finish ends the upload of file id (TN-31, Tinode's FileFinishUpload).
// On success the record becomes UploadCompleted with size, and with
// location and etag when they are not empty: a consistent GetItem and one
// UpdateItem checked on the version read. On failure the record is
// deleted (one DeleteItem; nothing keeps a failed upload) and returned
// with UploadFailed and size 0. A missing record gives table.ErrNotFound.
func (fs *Files) Finish(ctx context.Context, id string, success bool, size int64, location, etag string) (tn.File, error) {
	return table.Run(ctx, fs.finish, func(ctx context.Context) (tn.File, error) {
		k, err := fs.s.file.CheckedKey(tn.File{Id: id})
		if err != nil {
			return tn.File{}, err
		}
		if !success {
			f, err := fs.s.file.Take(ctx, k)
			if err != nil {
				return tn.File{}, err
			}
			f.Status, f.Size, f.UpdatedAt = tn.UploadFailed, 0, fs.s.now()
			return f, nil
		}
		if size < 0 {
			return tn.File{}, table.Invalid("Size", "negative")
		}
		return fs.s.file.Update(ctx, k, func(f *tn.File) error {
			f.Status, f.Size = tn.UploadCompleted, size
			if location != "" {
				f.Location = location
			}
			if etag != "" {
				f.ETag = etag
			}
			return nil
		})
	})
}

// Link links owner to the files fids (TN-32, Tinode's
// FileLinkAttachments). With replace (a topic's or user's avatar), the
// owner's earlier links to other files are removed first, so those files
// may become unused; a message only adds links. Each new link raises its
// file's UseCount (which takes the file out of the unused index) before
// the link item FLINK#{owner} / FILE#{fid} is written, and a removed link
// is deleted before the count is lowered: a call that stops half way
// leaves a count too high (a file kept), never a used file collected.
// A missing file gives table.ErrNotFound.
//
// Requests: with replace, a consistent Query of the owner's links; per
// removed link a DeleteItem, then a GetItem and an UpdateItem of its file;
// per new link a GetItem and an UpdateItem of its file and a PutItem.
func (fs *Files) Link(ctx context.Context, owner tn.LinkOwner, fids []string, replace bool) error {
	return fs.link.Do(ctx, func(ctx context.Context) error {
		if len(fids) == 0 {
			return table.Invalid("fids", "empty")
		}
		have := map[string]bool{}
		if replace {
			links, err := fs.Links(ctx, owner)
			if err != nil {
				return err
			}
			for _, l := range links {
				if slices.Contains(fids, l.File) {
					have[l.File] = true
					continue
				}
				if err := fs.unlinkOne(ctx, l); err != nil {
					return err
				}
			}
		}
		for _, fid := range fids {
			if have[fid] {
				continue
			}
			have[fid] = true
			l := tn.FileLink{Owner: owner, File: fid}
			if err := fs.s.link.Validate(&l); err != nil {
				return err
			}
			if err := fs.count(ctx, fid, 1); err != nil {
				return err
			}
			if err := fs.s.link.Create(ctx, &l); err != nil {
				if errors.Is(err, table.ErrAlreadyExists) {
					// Linked before: undo this call's count.
					if err := fs.count(ctx, fid, -1); err != nil {
						return err
					}
					continue
				}
				return err
			}
		}
		return nil
	})
}

// Links returns the files owner links to (TN-32): one consistent Query of
// PK = FLINK#{owner} per 1 MB.
func (fs *Files) Links(ctx context.Context, owner tn.LinkOwner) ([]tn.FileLink, error) {
	return table.Run(ctx, fs.links, func(ctx context.Context) ([]tn.FileLink, error) {
		q := fs.s.link.Partition(table.Primary, tn.FileLink{Owner: owner})
		if err := q.Err(); err != nil {
			return nil, err
		}
		q.Consistent = true
		var out []tn.FileLink
		for l, err := range fs.s.link.ListAll(ctx, q) {
			if err != nil {
				return nil, err
			}
			out = append(out, l)
		}
		return out, nil
	})
}

// Unlink removes every link of owner (TN-32), when the topic, user or
// message is deleted for good, and returns how many it removed: the
// owner's links as Links reads them, then per link a DeleteItem and the
// file's count lowered (a GetItem and an UpdateItem).
func (fs *Files) Unlink(ctx context.Context, owner tn.LinkOwner) (int, error) {
	return table.Run(ctx, fs.unlink, func(ctx context.Context) (int, error) {
		links, err := fs.Links(ctx, owner)
		if err != nil {
			return 0, err
		}
		for i, l := range links {
			if err := fs.unlinkOne(ctx, l); err != nil {
				return i, err
			}
		}
		return len(links), nil
	})
}

func (fs *Files) unlinkOne(ctx context.Context, l tn.FileLink) error {
	k, err := fs.s.link.KeyOf(&l)
	if err != nil {
		return err
	}
	if err := fs.s.link.Delete(ctx, k); err != nil && !errors.Is(err, table.ErrNotFound) {
		return err
	}
	err = fs.count(ctx, l.File, -1)
	if errors.Is(err, table.ErrNotFound) {
		return nil // the file was deleted already
	}
	return err
}

// count moves file fid's UseCount by delta (never below 0). It is an
// Update, not an atomic ADD, because the unused-file index key depends on
// the count and moves in the same write.
func (fs *Files) count(ctx context.Context, fid string, delta int) error {
	k, err := fs.s.file.CheckedKey(tn.File{Id: fid})
	if err != nil {
		return err
	}
	_, err = fs.s.file.Update(ctx, k, func(f *tn.File) error {
		f.UseCount = max(0, f.UseCount+delta)
		return nil
	})
	if err != nil {
		return fmt.Errorf("file %s: %w", fid, err)
	}
	return nil
}

// DeleteUnused deletes up to limit (1..1000) file records that nothing
// links to, updated before olderThan (zero: any time), and returns the
// Locations of those that had one, so the media handler deletes the bytes
// (TN-33, Tinode's FileDeleteUnused). It reads GSI2 PK = FILEUNUSED#{n},
// SK BETWEEN FILEUNUSED# AND FILEUNUSED#{Timestamp(olderThan)}, for each
// shard n (Options.IndexShards; FILEUNUSED itself with one shard), sent at
// once and merged oldest first (one Query per shard per page of 1 MB, no
// Scan), then deletes each record on the version it read, so a file
// linked in between is kept. The index is
// eventually consistent: a file linked just before may still be listed,
// and its version check keeps it.
func (fs *Files) DeleteUnused(ctx context.Context, olderThan time.Time, limit int) ([]string, error) {
	return table.Run(ctx, fs.deleteUnused, func(ctx context.Context) ([]string, error) {
		if limit < 1 || limit > 1000 {
			return nil, table.Invalid("limit", "%d is outside 1..1000", limit)
		}
		// The partition without its shard segment (FILEUNUSED), which List
		// reads shard by shard: all of it, or the files before olderThan.
		q := fs.s.file.Partition(table.GSI2, tn.File{})
		if !olderThan.IsZero() {
			q = fs.s.file.Range(table.GSI2, tn.File{}, tn.File{UpdatedAt: olderThan})
		}
		var found []tn.File
		for f, err := range fs.s.file.ListAll(ctx, q) {
			if err != nil {
				return nil, err
			}
			if f.UseCount > 0 {
				continue
			}
			found = append(found, f)
			if len(found) == limit {
				break
			}
		}
		var locations []string
		for _, f := range found {
			k, _ := fs.s.file.CheckedKey(tn.File{Id: f.Id})
			err := fs.s.t.Transact(ctx, fs.s.file.DeleteVersionOp(k, f.Version))
			if err != nil {
				if errors.Is(err, table.ErrConflict) || errors.Is(err, table.ErrNotFound) || errors.Is(err, table.ErrConditionFailed) || errors.Is(err, table.ErrTransactionCanceled) {
					continue // linked or deleted in between
				}
				return locations, err
			}
			if f.Location != "" {
				locations = append(locations, f.Location)
			}
		}
		return locations, nil
	})
}
