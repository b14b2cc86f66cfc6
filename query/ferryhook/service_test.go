package ferryhook_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/query/ferryhook"
	"github.com/singletable/singletable/table"
)

// One person, one email, whatever its case or form, next to the running
// service (issue 10 §3, §4), FH-2 and FH-6 under the service profile.
func TestServiceProfileEmailsAndKeys_FH2_FH6(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
	s := f.store
	// A user the service wrote: email as entered, in the attribute and gsi1pk.
	putRaw(t, f.main, map[string]any{"pk": "USER#usr_serviceuser00001", "sk": "PROFILE", "gsi1pk": "EMAIL#Ann@Example.com", "gsi1sk": "USER",
		"userId": "usr_serviceuser00001", "email": "Ann@Example.com", "name": "Ann", "passwordHash": nil, "plan": "free",
		"githubId": "42", "usageThisMonth": 0, "createdAt": "2026-11-01T00:00:00.000Z", "updatedAt": "2026-11-01T00:00:00.000Z"})
	// Found by the case it was entered in, and updatable (no "not normalized").
	got, err := s.Users.GetByEmail(ctx(t), "Ann@Example.com")
	if err != nil || got.UserID != "usr_serviceuser00001" {
		t.Fatalf("FH-2 as entered: %+v %v", got.UserID, err)
	}
	name := "Ann B."
	if _, err := s.Users.Update(ctx(t), got.UserID, ferryhook.UserUpdate{Name: &name}); err != nil {
		t.Fatalf("update of a service-written user: %v", err)
	}
	// Adopted (its guard holds the folded address), it is found in any case
	// or Unicode form, and a case-variant sign-up is refused.
	if err := s.Users.EnsureGuards(ctx(t), got.UserID); err != nil {
		t.Fatal(err)
	}
	for _, typed := range []string{"ann@example.com", "ANN@EXAMPLE.COM", " Ann@Example.com ", "ａｎｎ@example.com"} {
		if u, err := s.Users.GetByEmail(ctx(t), typed); err != nil || u.UserID != got.UserID {
			t.Errorf("FH-2 %q: %v %v", typed, u.UserID, err)
		}
	}
	if _, err := s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: "ann@EXAMPLE.com", Name: "Dup", PasswordHash: bcryptHash}); !errors.Is(err, ferryhook.ErrEmailTaken) {
		t.Errorf("case-variant sign-up: %v, want ErrEmailTaken", err)
	}
	// NFC and NFD spellings are one address.
	if _, err := s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: "jose\u0301@example.com", Name: "J", PasswordHash: bcryptHash}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: "jos\u00e9@example.com", Name: "J2", PasswordHash: bcryptHash}); !errors.Is(err, ferryhook.ErrEmailTaken) {
		t.Errorf("NFC twin of an NFD address: %v, want ErrEmailTaken", err)
	}
	// The other direction: the service's own lookup (gsi1pk = EMAIL#{as typed})
	// finds a user the library created, with the case the user typed.
	bob, err := s.Users.Create(ctx(t), ferryhook.CreateUserInput{Email: "Bob@Example.com", Name: "Bob", PasswordHash: bcryptHash})
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.main.Client().Query(ctx(t), &dynamodb.QueryInput{TableName: aws.String(f.main.Name()), IndexName: aws.String("gsi1"),
		KeyConditionExpression:    aws.String("gsi1pk = :e"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberS{Value: "EMAIL#Bob@Example.com"}}})
	if err != nil || len(out.Items) != 1 {
		t.Fatalf("the service's getByEmail: %v items, %v", len(out.Items), err)
	}
	if e := out.Items[0]["email"].(*types.AttributeValueMemberS).Value; e != "Bob@Example.com" {
		t.Errorf("stored email %q, want as typed", e)
	}
	// API keys the service's middleware accepts: fh_live_, 16-character
	// prefix, HMAC-SHA256 under an empty key.
	nk, err := s.APIKeys.Create(ctx(t), bob.UserID, ferryhook.CreateAPIKeyInput{Name: "ci"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(nk.Key, "fh_live_") || nk.APIKey.KeyPrefix != nk.Key[:16] || nk.APIKey.KeyHash != ferryhook.HMACSHA256Hex(nil)(nk.Key) {
		t.Errorf("service-profile key %q prefix %q: not what the service's middleware accepts", nk.Key, nk.APIKey.KeyPrefix)
	}
	if _, err := s.APIKeys.Authenticate(ctx(t), nk.Key); err != nil {
		t.Errorf("FH-6 with a service-profile key: %v", err)
	}
	_ = fh.PlanFree
}

// Values the running service wrote that the library's enums do not know
// (signingAlgorithm "stripe" and "none" with no secret, provider "twilio")
// read, list, and update in their other fields; the unknown values are
// carried through as stored and surfaced by Valid (issue 10 §2; FH-3,
// FH-4, FH-11).
func TestUnknownEnumValuesTolerated_FH3_FH4_FH11(t *testing.T) {
	t.Parallel()
	f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, ferryhook.ServiceProfile())
	s := f.store
	uid := "usr_tolerant00000001"
	putRaw(t, f.main, map[string]any{"pk": "USER#" + uid, "sk": "PROFILE", "gsi1pk": "EMAIL#t@example.com", "gsi1sk": "USER",
		"userId": uid, "email": "t@example.com", "name": "T", "githubId": "7", "plan": "free"})
	for i, v := range []struct{ provider, alg string }{{"stripe", "stripe"}, {"twilio", "none"}} {
		sid := "src_tolerant0000000" + string(rune('a'+i))
		putRaw(t, f.main, map[string]any{"pk": "USER#" + uid, "sk": "SRC#" + sid, "gsi3pk": "SRCID#" + sid, "gsi3sk": "SOURCE",
			"sourceId": sid, "userId": uid, "name": "S" + sid, "provider": v.provider, "signingSecret": nil,
			"signingAlgorithm": v.alg, "status": "active", "eventCount": 0, "createdAt": "2026-11-01T00:00:00.000Z"})
	}
	page, err := s.Sources.ByUser.List(ctx(t), fh.Source{UserID: fh.UserID(uid)}) // FH-3
	if err != nil || len(page.Items) != 2 {
		t.Fatalf("FH-3 with unknown values: %d items, %v", len(page.Items), err)
	}
	tw := page.Items[1]
	if tw.Provider != "twilio" || fh.Providers.Valid(tw.Provider) || tw.SigningAlgorithm != "none" || fh.SigningAlgorithms.Valid(tw.SigningAlgorithm) {
		t.Fatalf("unknown values not surfaced as stored: %+v", tw)
	}
	if got, err := s.Sources.GetByID(ctx(t), tw.SourceID); err != nil || got.Provider != "twilio" { // FH-4
		t.Fatalf("FH-4: %+v %v", got, err)
	}
	name := "Twilio inbound"
	got, err := s.Sources.Update(ctx(t), fh.UserID(uid), tw.SourceID, ferryhook.SourceUpdate{Name: &name})
	if err != nil || got.Name != name || got.Provider != "twilio" || got.SigningAlgorithm != "none" {
		t.Fatalf("update of another field: %+v %v", got, err)
	}
	// A write that sets an unknown value is still refused.
	bad := fh.SigningAlgorithm("rot13")
	if _, err := s.Sources.Update(ctx(t), fh.UserID(uid), tw.SourceID, ferryhook.SourceUpdate{SigningAlgorithm: &bad}); err == nil {
		t.Fatal("setting an unknown signing algorithm was accepted")
	}
}

// The service profile's explicit choices (issue 10 §4): signing secrets
// encrypted unless SigningSecretsAsStored says otherwise; the attributes
// the service always writes (an empty body and its content type) written
// too (FH-7).
func TestServiceProfileWrites_FH7(t *testing.T) {
	t.Parallel()
	for _, asStored := range []bool{false, true} {
		opts := []func(*ferryhook.Options){ferryhook.ServiceProfile()}
		if asStored {
			opts = append(opts, ferryhook.SigningSecretsAsStored())
		}
		f := newFixture(t, []table.SchemaOption{table.WithLowercaseKeys()}, opts...)
		u := mustUser(t, f.store, "sig@example.com")
		src := mustSource(t, f.store, u.UserID, "stripe")
		raw, err := f.main.Client().GetItem(ctx(t), &dynamodb.GetItemInput{TableName: aws.String(f.main.Name()), Key: map[string]types.AttributeValue{
			"pk": &types.AttributeValueMemberS{Value: "USER#" + string(u.UserID)}, "sk": &types.AttributeValueMemberS{Value: "SRC#" + string(src.SourceID)}}})
		if err != nil {
			t.Fatal(err)
		}
		stored, isS := raw.Item["signingSecret"].(*types.AttributeValueMemberS)
		plain := isS && stored.Value == "whsec_test"
		if plain != asStored {
			t.Errorf("SigningSecretsAsStored=%v: signingSecret stored as %#v", asStored, raw.Item["signingSecret"])
		}
		ev, err := f.store.Ingest(ctx(t), src.SourceID, ferryhook.IngestRequest{Method: "POST"})
		if err != nil {
			t.Fatal(err)
		}
		page, err := f.events.Client().Query(ctx(t), &dynamodb.QueryInput{TableName: aws.String(f.events.Name()), IndexName: aws.String("gsi1"),
			KeyConditionExpression:    aws.String("gsi1pk = :e"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":e": &types.AttributeValueMemberS{Value: "EVTID#" + string(ev.EventID)}}})
		if err != nil || len(page.Items) != 1 {
			t.Fatalf("event: %v %v", page, err)
		}
		for _, a := range []string{"body", "contentType"} {
			if v, ok := page.Items[0][a].(*types.AttributeValueMemberS); !ok || v.Value != "" {
				t.Errorf("event %s = %#v, want \"\" as the service writes it", a, page.Items[0][a])
			}
		}
	}
}
