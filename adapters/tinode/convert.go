package tinode

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/singletable/singletable/entity/tn"
	t "github.com/tinode/chat/server/store/types"
)

// toJSON encodes one of Tinode's free-form values (Public, Trusted,
// Private, Head, Content) as stored JSON; nil stays null.
func toJSON(v any) (tn.RawJSON, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var r tn.RawJSON
	if err := r.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return r, nil
}

// fromJSON decodes stored JSON into the generic value Tinode's SQL
// adapters return (maps, slices, float64 numbers); null is nil.
func fromJSON(r tn.RawJSON) any {
	if r.IsNull() {
		return nil
	}
	var v any
	if err := json.Unmarshal(r, &v); err != nil {
		return nil
	}
	return v
}

func mode(m t.AccessMode) tn.AccessMode { return tn.AccessMode(m & t.ModeBitmask) }

func tmode(m tn.AccessMode) t.AccessMode { return t.AccessMode(m) }

func ptime(v time.Time) *time.Time {
	if v.IsZero() {
		return nil
	}
	return &v
}

func vtime(p *time.Time) time.Time {
	if p == nil {
		return time.Time{}
	}
	return *p
}

func toUser(u *t.User) (tn.User, error) {
	pub, err := toJSON(u.Public)
	if err != nil {
		return tn.User{}, err
	}
	tr, err := toJSON(u.Trusted)
	if err != nil {
		return tn.User{}, err
	}
	out := tn.User{
		Id: tn.UserID(u.Id), CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt,
		Access: tn.DefaultAccess{Auth: mode(u.Access.Auth), Anon: mode(u.Access.Anon)},
		Public: pub, Trusted: tr, State: tn.ObjState(u.State), StateAt: u.StateAt,
		LastSeen: u.LastSeen, UserAgent: u.UserAgent, Tags: []string(u.Tags),
	}
	if u.State == t.StateDeleted {
		out.DeletedAt = u.StateAt
	}
	for _, d := range u.Devices {
		if d == nil {
			continue
		}
		if out.Devices == nil {
			out.Devices = map[string]tn.Device{}
		}
		out.Devices[d.DeviceId] = toDevice(d)
	}
	return out, nil
}

func fromUser(u *tn.User) t.User {
	out := t.User{
		ObjHeader: t.ObjHeader{Id: string(u.Id), CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt},
		State:     t.ObjState(u.State), StateAt: u.StateAt,
		Access:   t.DefaultAccess{Auth: tmode(u.Access.Auth), Anon: tmode(u.Access.Anon)},
		LastSeen: u.LastSeen, UserAgent: u.UserAgent,
		Public: fromJSON(u.Public), Trusted: fromJSON(u.Trusted),
		Tags: t.StringSlice(u.Tags),
	}
	for id, d := range u.Devices {
		if out.Devices == nil {
			out.Devices = map[string]*t.DeviceDef{}
		}
		dd := fromDevice(d)
		out.Devices[id] = &dd
	}
	return out
}

// toDevice converts a device; Tinode's platform names are matched without
// case ("iOS" is ios) and any other platform is stored as web, the one
// platform without a vendor push service of its own.
func toDevice(d *t.DeviceDef) tn.Device {
	p := tn.Platform(strings.ToLower(d.Platform))
	if !tn.Platforms.Valid(p) {
		p = tn.PlatformWeb
	}
	return tn.Device{DeviceId: d.DeviceId, Platform: p, LastSeen: d.LastSeen.UTC(), Lang: d.Lang}
}

func fromDevice(d tn.Device) t.DeviceDef {
	return t.DeviceDef{DeviceId: d.DeviceId, Platform: string(d.Platform), LastSeen: d.LastSeen, Lang: d.Lang}
}

func toTopic(tp *t.Topic) (tn.Topic, error) {
	pub, err := toJSON(tp.Public)
	if err != nil {
		return tn.Topic{}, err
	}
	tr, err := toJSON(tp.Trusted)
	if err != nil {
		return tn.Topic{}, err
	}
	var aux tn.RawJSON
	if len(tp.Aux) > 0 {
		if aux, err = toJSON(map[string]any(tp.Aux)); err != nil {
			return tn.Topic{}, err
		}
	}
	return tn.Topic{
		Id: tn.TopicName(tp.Id), CreatedAt: tp.CreatedAt, UpdatedAt: tp.UpdatedAt,
		Access: tn.DefaultAccess{Auth: mode(tp.Access.Auth), Anon: mode(tp.Access.Anon)},
		Public: pub, Trusted: tr, Aux: aux, State: tn.ObjState(tp.State), StateAt: tp.StateAt,
		SeqId: tp.SeqId, DelId: tp.DelId, UseBt: tp.UseBt, Tags: []string(tp.Tags),
		Owner: tn.UserID(tp.Owner), TouchedAt: ptime(tp.TouchedAt),
	}, nil
}

func fromTopic(tp *tn.Topic) *t.Topic {
	out := &t.Topic{
		ObjHeader: t.ObjHeader{Id: string(tp.Id), CreatedAt: tp.CreatedAt, UpdatedAt: tp.UpdatedAt},
		State:     t.ObjState(tp.State), StateAt: tp.StateAt, TouchedAt: vtime(tp.TouchedAt),
		UseBt: tp.UseBt, Owner: string(tp.Owner),
		Access: t.DefaultAccess{Auth: tmode(tp.Access.Auth), Anon: tmode(tp.Access.Anon)},
		SeqId:  tp.SeqId, DelId: tp.DelId, SubCnt: tp.SubCnt,
		Public: fromJSON(tp.Public), Trusted: fromJSON(tp.Trusted), Tags: t.StringSlice(tp.Tags),
	}
	if m, ok := fromJSON(tp.Aux).(map[string]any); ok {
		out.Aux = t.KVMap(m)
	}
	return out
}

func toSub(s *t.Subscription) (tn.Subscription, error) {
	priv, err := toJSON(s.Private)
	if err != nil {
		return tn.Subscription{}, err
	}
	return tn.Subscription{
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, DeletedAt: s.DeletedAt,
		ReadSeqId: s.ReadSeqId, RecvSeqId: s.RecvSeqId, DelId: s.DelId,
		Topic: tn.TopicName(s.Topic), User: tn.UserID(s.User),
		ModeWant: mode(s.ModeWant), ModeGiven: mode(s.ModeGiven), Private: priv,
	}, nil
}

func fromSub(s *tn.Subscription) t.Subscription {
	return t.Subscription{
		ObjHeader: t.ObjHeader{Id: s.Id, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt},
		User:      string(s.User), Topic: string(s.Topic), DeletedAt: s.DeletedAt,
		DelId: s.DelId, RecvSeqId: s.RecvSeqId, ReadSeqId: s.ReadSeqId,
		ModeWant: tmode(s.ModeWant), ModeGiven: tmode(s.ModeGiven), Private: fromJSON(s.Private),
	}
}

func toMessage(m *t.Message) (tn.Message, error) {
	var head tn.RawJSON
	var err error
	if len(m.Head) > 0 {
		if head, err = toJSON(map[string]any(m.Head)); err != nil {
			return tn.Message{}, err
		}
	}
	content, err := toJSON(m.Content)
	if err != nil {
		return tn.Message{}, err
	}
	out := tn.Message{
		Id: m.Id, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt, DeletedAt: m.DeletedAt,
		DelId: m.DelId, From: tn.UserID(m.From), Topic: tn.TopicName(m.Topic), SeqId: m.SeqId,
		Head: head, Content: content,
	}
	for _, d := range m.DeletedFor {
		out.DeletedFor = append(out.DeletedFor, tn.SoftDelete{User: tn.UserID(d.User), DelId: d.DelId})
	}
	return out, nil
}

func fromMessage(m *tn.Message) t.Message {
	out := t.Message{
		ObjHeader: t.ObjHeader{Id: m.Id, CreatedAt: m.CreatedAt, UpdatedAt: m.UpdatedAt},
		DeletedAt: m.DeletedAt, DelId: m.DelId, SeqId: m.SeqId, Topic: string(m.Topic),
		From: string(m.From), Content: fromJSON(m.Content),
	}
	if h, ok := fromJSON(m.Head).(map[string]any); ok {
		out.Head = t.KVMap(h)
	}
	for _, d := range m.DeletedFor {
		out.DeletedFor = append(out.DeletedFor, t.SoftDelete{User: string(d.User), DelId: d.DelId})
	}
	return out
}

func toRanges(rs []t.Range) []tn.Range {
	out := make([]tn.Range, len(rs))
	for i, r := range rs {
		out[i] = tn.Range{Low: r.Low, Hi: r.Hi}
	}
	return out
}

func fromRanges(rs []tn.Range) []t.Range {
	out := make([]t.Range, len(rs))
	for i, r := range rs {
		out[i] = t.Range{Low: r.Low, Hi: r.Hi}
	}
	return out
}

func fromCred(c *tn.Credential) t.Credential {
	return t.Credential{
		ObjHeader: t.ObjHeader{Id: c.Method + ":" + c.Value, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt},
		User:      string(c.User), Method: c.Method, Value: c.Value, Resp: c.Resp, Done: c.Done, Retries: c.Retries,
	}
}

func fromFile(f *tn.File) *t.FileDef {
	return &t.FileDef{
		ObjHeader: t.ObjHeader{Id: f.Id, CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt},
		Status:    int(f.Status), User: string(f.User), MimeType: f.MimeType, Size: f.Size,
		Location: f.Location, ETag: f.ETag,
	}
}
