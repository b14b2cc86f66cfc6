package podcastflow

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/google/go-cmp/cmp"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// PF-12, PF-13, PF-14: the keys are declared as templates, so a patch
// that sets every field of an index key moves that key in the same
// UpdateItem; the email guard's field and the key's own field are refused
// (they change through Update, which moves the guard), and so is a value
// the field's type refuses, before any request.
func TestPatchRefusesDerivedFields_PF12_PF13_PF14(t *testing.T) {
	t.Parallel()
	tb := tabletest.NewTable(t, Schema(""))
	s := New(tb)
	k := s.e().users.Key(pf.UserProfile{UserID: "u1"})
	ok := s.e().orgs.Key(pf.OrganizationProfile{OrganizationID: "o1"})
	bk := s.e().billing.Key(pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-01"})
	for _, f := range []string{"role", "status", "email", "userId"} {
		if _, err := s.e().users.Patch(t.Context(), k, table.Patch{Set: map[string]any{f: "x"}}); !errors.Is(err, table.ErrInvalidInput) {
			t.Errorf("user Patch %s: err = %v, want ErrInvalidInput", f, err)
		}
	}
	if _, err := s.e().orgs.Patch(t.Context(), ok, table.Patch{Set: map[string]any{"status": "x"}}); !errors.Is(err, table.ErrInvalidInput) {
		t.Errorf("organization Patch status x: err = %v, want ErrInvalidInput", err)
	}
	// The billing record's date lives only in its key, which its templates
	// read back: a patch of its status moves GSI3 in the same UpdateItem.
	if err := s.e().billing.Create(t.Context(), &pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-01", Plan: pf.PlanStarter, Status: pf.BillingOverdue}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.e().billing.Patch(t.Context(), bk, table.Patch{Set: map[string]any{"status": string(pf.BillingPaid)}}); err != nil {
		t.Fatalf("billing Patch status: %v", err)
	}
	bout, err := tabletest.Client(t).GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(tb.Name()),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: bk.PK}, "SK": &types.AttributeValueMemberS{Value: bk.SK}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := bout.Item["GSI3PK"].(*types.AttributeValueMemberS); got == nil || got.Value != "STATUS#paid" {
		t.Errorf("after the status patch GSI3PK = %v, want STATUS#paid", got)
	}
	if _, ok := bout.Item["date"]; ok {
		t.Errorf("the key-only date was stored as an attribute: %v", bout.Item)
	}
	// A valid role moves GSI2 (ROLE#{role}) with the patch.
	u := &pf.UserProfile{UserID: "u1", Email: "u1@example.com", Name: "U One", Role: pf.RoleTalent, Status: pf.UserActive, OrganizationID: "o1"}
	if err := s.e().users.Create(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	if _, err := s.e().users.Patch(t.Context(), k, table.Patch{Set: map[string]any{"role": string(pf.RoleClient)}}); err != nil {
		t.Fatal(err)
	}
	out, err := tabletest.Client(t).GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(tb.Name()),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: k.PK}, "SK": &types.AttributeValueMemberS{Value: k.SK}}})
	if err != nil {
		t.Fatal(err)
	}
	want := table.ShardPK(s.Users.ByRole.Query(pf.UserProfile{Role: pf.RoleClient}).PK, table.Shard("u1", DefaultIndexShards), DefaultIndexShards)
	if got, _ := out.Item["GSI2PK"].(*types.AttributeValueMemberS); got == nil || got.Value != want {
		t.Errorf("after the role patch GSI2PK = %v, want %q", got, want)
	}
}

// GSI key values are exactly the documented design.
func TestIndexKeys(t *testing.T) {
	t.Parallel()
	e := newEntities(table.New(nil, Schema("")), 1) // one shard: the unsharded keys
	userIndexes, orgIndexes := e.users.IndexKeysOf, e.orgs.IndexKeysOf
	u := &pf.UserProfile{UserID: "u1", Role: pf.RoleTalent, Status: pf.UserActive, OrganizationID: "o1"}
	got, err := userIndexes(u)
	if err != nil {
		t.Fatal(err)
	}
	want := map[table.Index]table.IndexKey{
		table.GSI1: {PK: "ORG#o1", SK: "USER#u1"},
		table.GSI2: {PK: "ROLE#talent", SK: "USER#u1"},
		table.GSI3: {PK: "STATUS#active", SK: "USER#u1"},
		table.GSI4: {PK: "USERS", SK: "USER#u1"},
	}
	for ix, k := range want {
		if got[ix] != k {
			t.Errorf("user GSI%d = %+v, want %+v", ix, got[ix], k)
		}
	}
	u.Role, u.OrganizationID = pf.RoleMaster, ""
	if got, _ := userIndexes(u); len(got) != 3 {
		t.Errorf("master without organization has %d index entries, want 3 (no GSI1)", len(got))
	}
	r, err := e.billing.IndexKeysOf(&pf.BillingRecord{OrganizationID: "o1", Date: "2024-01-01", Status: pf.BillingOverdue})
	if err != nil || r[table.GSI3] != (table.IndexKey{PK: "STATUS#overdue", SK: "BILLING#o1#2024-01-01"}) {
		t.Errorf("billing GSI3 = %+v, %v", r, err)
	}
	o, err := orgIndexes(&pf.OrganizationProfile{OrganizationID: "o1", Status: pf.OrgTrial})
	if err != nil || o[table.GSI3] != (table.IndexKey{PK: "STATUS#trial", SK: "ORG#o1"}) || o[table.GSI4] != (table.IndexKey{PK: "ORGS", SK: "ORG#o1"}) {
		t.Errorf("organization GSIs = %+v, %v", o, err)
	}
}

// With N shards, the all-items partitions end in FNV-1a(ID) mod N.
func TestIndexKeysSharded(t *testing.T) {
	t.Parallel()
	e := newEntities(table.New(nil, Schema("")), 4)
	n := table.Shard("u1", 4)
	got, err := e.users.IndexKeysOf(&pf.UserProfile{UserID: "u1", Role: pf.RoleTalent, Status: pf.UserActive, OrganizationID: "o1"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[table.Index]table.IndexKey{
		table.GSI1: {PK: "ORG#o1", SK: "USER#u1"},
		table.GSI2: {PK: fmt.Sprintf("ROLE#talent#%d", n), SK: "USER#u1"},
		table.GSI3: {PK: fmt.Sprintf("STATUS#active#%d", n), SK: "USER#u1"},
		table.GSI4: {PK: fmt.Sprintf("USERS#%d", n), SK: "USER#u1"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	o, err := e.orgs.IndexKeysOf(&pf.OrganizationProfile{OrganizationID: "o1", Status: pf.OrgTrial})
	if m := table.Shard("o1", 4); err != nil || o[table.GSI4] != (table.IndexKey{PK: fmt.Sprintf("ORGS#%d", m), SK: "ORG#o1"}) {
		t.Errorf("organization GSIs = %+v, %v", o, err)
	}
}

// e returns the store's entities (its aggregates share them).
func (s *Store) e() *entities { return s.Users.e }

// The primary keys are the document's, byte for byte, built from typed
// fields through the entities' declarations; a bad key field is refused
// before any request by the declared patterns that read by it.
func TestPrimaryKeysByteForByte(t *testing.T) {
	t.Parallel()
	tb := table.New(nil, Schema(""))
	s := New(tb)
	e := s.e()
	got := []table.Key{
		e.users.Key(pf.UserProfile{UserID: "u-1"}),
		e.prefs.Key(pf.UserPreferences{UserID: "u-1"}),
		e.orgs.Key(pf.OrganizationProfile{OrganizationID: "org_7"}),
		e.orgSettings.Key(pf.OrganizationSettings{OrganizationID: "org_7"}),
		e.platform.Key(pf.PlatformSettings{}),
		e.globalM.Key(pf.GlobalMetrics{Date: "2024-02-29"}),
		e.orgM.Key(pf.OrganizationMetrics{OrganizationID: "org_7", Date: "2024-02-29"}),
		e.billing.Key(pf.BillingRecord{OrganizationID: "org_7", Date: "2024-03-01"}),
		e.billingM.Key(pf.BillingMetrics{Date: "2024-03-01"}),
	}
	want := []table.Key{
		{PK: "USER#u-1", SK: "PROFILE"},
		{PK: "USER#u-1", SK: "PREFERENCES"},
		{PK: "ORG#org_7", SK: "PROFILE"},
		{PK: "ORG#org_7", SK: "SETTINGS"},
		{PK: "PLATFORM", SK: "SETTINGS"},
		{PK: "ANALYTICS", SK: "GLOBAL#2024-02-29"},
		{PK: "ANALYTICS", SK: "ORG#org_7#2024-02-29"},
		{PK: "BILLING#org_7", SK: "RECORD#2024-03-01"},
		{PK: "BILLING", SK: "METRICS#2024-03-01"},
	}
	for i, k := range got {
		if k.Err() != nil || k != want[i] {
			t.Errorf("key %d = %v (%v), want %v", i, k, k.Err(), want[i])
		}
	}
	ctx := t.Context()
	for name, err := range map[string]error{
		"empty user":          err1(s.Users.Profile.Get(ctx, pf.UserProfile{})),
		"user with delimiter": err1(s.Users.Profile.Get(ctx, pf.UserProfile{UserID: "a#b"})),
		"org with control":    err1(s.Organizations.Profile.Get(ctx, pf.OrganizationProfile{OrganizationID: "x\n"})),
		"impossible date":     err1(s.Analytics.GlobalMetrics.Get(ctx, pf.GlobalMetrics{Date: "2024-02-30"})),
		"short date":          err1(s.Analytics.OrganizationMetrics.Get(ctx, pf.OrganizationMetrics{OrganizationID: "o", Date: "2024-2-1"})),
		"record without org":  err1(s.Billing.Records.Get(ctx, pf.BillingRecord{Date: "2024-01-01"})),
	} {
		if !errors.Is(err, table.ErrInvalidKey) {
			t.Errorf("%s: err = %v, want ErrInvalidKey", name, err)
		}
	}
}

func err1(_ any, err error) error { return err }
