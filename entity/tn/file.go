package tn

import (
	"strings"
	"time"
)

// FileStatus is the state of an upload, with Tinode's values.
type FileStatus int

// Upload states.
const (
	UploadStarted FileStatus = iota
	UploadCompleted
	UploadFailed
	UploadDeleted
)

// File is the record of an uploaded file (today's Tinode's fileuploads):
// who uploaded it, where the media handler put it, and how many topics,
// users and messages link to it. The bytes live outside the table (TN-31).
type File struct {
	Id        string     `dynamo:"Id" json:"Id"`
	CreatedAt time.Time  `dynamo:"CreatedAt" json:"CreatedAt"`
	UpdatedAt time.Time  `dynamo:"UpdatedAt" json:"UpdatedAt"`
	User      UserID     `dynamo:"User,omitempty" json:"User,omitempty"`
	Status    FileStatus `dynamo:"Status" json:"Status"`
	MimeType  string     `dynamo:"MimeType,omitempty" json:"MimeType,omitempty"`
	Size      int64      `dynamo:"Size" json:"Size"`
	Location  string     `dynamo:"Location,omitempty" json:"Location,omitempty"`
	ETag      string     `dynamo:"ETag,omitempty" json:"ETag,omitempty"`
	// UseCount is the number of links (FileLink) to the file. A file with
	// none is in the unused-file index, where Files.DeleteUnused finds it.
	UseCount int `dynamo:"UseCount,omitempty" json:"UseCount,omitempty"`
	// Version mirrors the item's version attribute (filled on read).
	Version int64 `dynamo:"-" json:"-"`
}

// Validate checks the record before any write.
func (f *File) Validate() error {
	if err := idSegment.Check("Id", f.Id); err != nil {
		return err
	}
	if f.Status < UploadStarted || f.Status > UploadDeleted {
		return invalid("Status", "unknown status %d", int(f.Status))
	}
	if f.Size < 0 {
		return invalid("Size", "negative")
	}
	if f.UseCount < 0 {
		return invalid("UseCount", "negative")
	}
	if len(f.Location) > 2048 || len(f.MimeType) > 255 || len(f.ETag) > 255 {
		return invalid("Location", "Location, MimeType or ETag too long")
	}
	if f.UpdatedAt.IsZero() {
		return invalidKey("UpdatedAt", "zero (unused files are indexed by it)")
	}
	return nil
}

// LinkOwner names what a file is linked to: "topic:{name}", "user:{id}"
// or "msg:{id}".
type LinkOwner string

// TopicOwner, UserOwner and MessageOwner return the owner names.
func TopicOwner(name TopicName) LinkOwner { return LinkOwner("topic:" + string(name)) }

// UserOwner is a user's link owner name (an avatar).
func UserOwner(id UserID) LinkOwner { return LinkOwner("user:" + string(id)) }

// MessageOwner is a message's link owner name (an attachment).
func MessageOwner(id string) LinkOwner { return LinkOwner("msg:" + id) }

// IsMessage reports whether the owner is a message.
func (o LinkOwner) IsMessage() bool { return strings.HasPrefix(string(o), "msg:") }

// FileLink records that Owner uses File (today's Tinode's filemsglinks).
// It is kept in the owner's partition, so an owner's links are one Query.
type FileLink struct {
	Owner     LinkOwner `dynamo:"Owner" json:"Owner"`
	File      string    `dynamo:"File" json:"File"`
	CreatedAt time.Time `dynamo:"CreatedAt" json:"CreatedAt"`
}

// Validate checks the link before it is written.
func (l *FileLink) Validate() error {
	if err := idSegment.Check("Owner", string(l.Owner)); err != nil {
		return err
	}
	k, _, ok := strings.Cut(string(l.Owner), ":")
	if !ok || (k != "topic" && k != "user" && k != "msg") {
		return invalidKey("Owner", "%q is not topic:, user: or msg:", l.Owner)
	}
	return idSegment.Check("File", l.File)
}
