package listbackup_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/internal/legacytest"
	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// handlerAccounts are accounts as ListBackup's handlers write them
// (auth/register's root, its path without the closing '/'; then n
// accounts/create children with the plan the client sent, "pro", and the
// parent's path with the child's ID appended, so two IDs run together):
// every account's path is repaired by the migration and every child's plan
// is kept. It returns the items and the IDs.
func handlerAccounts(n int, at time.Time) ([]table.Item, []string) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v int) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	const user = "user:0c7e1f2a-1111-4a4a-8b8b-000000000001"
	id := func(i int) string { return fmt.Sprintf("account:%08x-0000-4000-8000-%012x", i+1, i+1) }
	root := id(0)
	rootPath := "/" + strings.TrimPrefix(root, "account:")
	ts := s(at.Format(time.RFC3339Nano))
	items := []table.Item{{"accountId": s(root), "ownerUserId": s(user), "createdByUserId": s(user), "name": s("Root"),
		"accountPath": s(rootPath), "level": num(0), "plan": s("free"), "status": s("active"), "createdAt": ts, "updatedAt": ts}}
	ids := []string{root}
	for i := 1; i <= n; i++ {
		c := id(i)
		items = append(items, table.Item{"accountId": s(c), "parentAccountId": s(root), "ownerUserId": s(user), "createdByUserId": s(user),
			"name": s(fmt.Sprintf("Child %d", i)), "accountPath": s(rootPath + strings.TrimPrefix(c, "account:") + "/"), "level": num(1),
			"plan": s("pro"), "status": s("Active"), "createdAt": ts, "updatedAt": ts})
		ids = append(ids, c)
	}
	return items, ids
}

// A migration interrupted and resumed from its checkpoints reports, in its
// resumed run, every value kept and every path repaired across the whole
// migration (issue 35): the pages the interrupted run completed are not
// visited again, so what they kept and repaired is saved with their
// checkpoints and read back; an item the interrupted run wrote after its
// last checkpoint is found already copied and reported too. Each once.
// Interrupted twice over: cancelled after a page, and a page's checkpoint
// lost after its items were written. The accounts then read back with
// their plans (LB-5) and in their root's subtree (LB-8).
func TestMigrateResumedReportsKeptAndRepairs_LB5_LB8(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	lt, ok := listbackup.CodeLayout().Table("accounts")
	if !ok {
		t.Fatal("no accounts table in the code layout")
	}
	m := &migrate.Manifest{Name: "accounts only", Tables: []migrate.Table{lt}}
	stack := legacytest.Stack(c, t, client, "lbresume", m)
	items, ids := handlerAccounts(60, time.Now().Add(-time.Hour).UTC())
	legacytest.Put(t, client, stack, legacyData{"accounts": items})
	for _, interrupt := range []string{"cancelled", "checkpoint lost"} {
		t.Run(interrupt, func(t *testing.T) {
			resumeAfter(c, t, client, stack, m, interrupt, items, ids)
		})
	}
}

// lostCheckpoint fails the first save of a page's checkpoint (a job's
// PutItem of a _JOB# item that has seen items) in front of DynamoDB: the
// page's items are written, its position and notes are not.
func lostCheckpoint(lost *atomic.Bool) func(*dynamodb.Options) {
	mw := middleware.InitializeMiddlewareFunc("lostCheckpoint", func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
		if p, ok := in.Parameters.(*dynamodb.PutItemInput); ok {
			pk, _ := p.Item["PK"].(*types.AttributeValueMemberS)
			seen, _ := p.Item["seen"].(*types.AttributeValueMemberN)
			if pk != nil && strings.HasPrefix(pk.Value, "_JOB#") && seen != nil && seen.Value != "0" && lost.CompareAndSwap(false, true) {
				return middleware.InitializeOutput{}, middleware.Metadata{}, errors.New("injected: checkpoint save lost")
			}
		}
		return next.HandleInitialize(ctx, in)
	})
	return func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error { return st.Initialize.Add(mw, middleware.After) })
	}
}

// resumeAfter migrates stack's accounts into a table of its own, the run
// interrupted (cancelled after a segment's first page, or a page's
// checkpoint lost after its items were written), then resumed; and checks
// the resumed run's report and the accounts.
func resumeAfter(c context.Context, t *testing.T, client *dynamodb.Client, stack string, m *migrate.Manifest, interrupt string, items []table.Item, ids []string) {
	children := len(items) - 1
	tb := tabletest.NewTable(t, listbackup.Schema("lbresume"))
	s := listbackup.New(tb)
	switch interrupt {
	case "cancelled":
		// Interrupted after the first page a segment completes: its
		// checkpoint is saved, the other segments stop where they are.
		ictx, stop := context.WithCancel(c)
		var pages atomic.Int64
		_, err := s.Migrate(ictx, migrate.Options{Stack: stack, Manifest: m, Segments: 4, Progress: func(string, table.JobReport) {
			pages.Add(1)
			stop()
		}})
		stop()
		if !errors.Is(err, context.Canceled) || pages.Load() == 0 {
			t.Fatalf("interrupted run: %v after %d pages, want context.Canceled after one", err, pages.Load())
		}
	case "checkpoint lost":
		var lost atomic.Bool
		faulty := listbackup.New(table.New(tabletest.NewClient(t, lostCheckpoint(&lost)), tb.Schema(), func(o *table.Options) { o.Cipher = tabletest.Cipher() }))
		_, err := faulty.Migrate(c, migrate.Options{Stack: stack, Manifest: m, Segments: 1})
		if err == nil || !lost.Load() {
			t.Fatalf("interrupted run: %v, want the lost checkpoint's error", err)
		}
	}
	segments := 4
	if interrupt == "checkpoint lost" {
		segments = 1
	}
	res, err := s.Migrate(c, migrate.Options{Stack: stack, Manifest: m, Segments: segments, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || !res[0].Report.Resumed {
		t.Fatalf("resumed run: %+v", res)
	}
	r := res[0]
	t.Logf("resumed run: %v; %d kept, %d repairs", r.Report, r.KeptCount, r.RepairCount)
	if r.Report.Seen != int64(len(items)) || r.Report.Changed+r.Report.Unchanged != int64(len(items)) || r.Report.Conflicted != 0 {
		t.Errorf("report %v, want all %d accounts seen and copied", r.Report, len(items))
	}
	count := func(list []string, id string) int {
		n := 0
		for _, e := range list {
			if strings.Contains(e, "accountId="+id+":") {
				n++
			}
		}
		return n
	}
	if r.KeptCount != children || len(r.Kept) != children {
		t.Errorf("kept: %d listed, %d counted; want %d (every child's plan)", len(r.Kept), r.KeptCount, children)
	}
	if r.RepairCount != len(items) || len(r.Repairs) != len(items) {
		t.Errorf("repairs: %d listed, %d counted; want %d (every account's path)", len(r.Repairs), r.RepairCount, len(items))
	}
	for i, id := range ids {
		if n := count(r.Repairs, id); n != 1 {
			t.Errorf("%s: listed in %d repairs, want 1", id, n)
		}
		if i == 0 {
			continue
		}
		k := 0
		for _, e := range r.Kept {
			if strings.HasPrefix(e, `plan "pro" in ACCOUNT#`+id+"/") {
				k++
			}
		}
		if k != 1 {
			t.Errorf("%s: listed in %d kept values, want 1 (kept: %q...)", id, k, r.Kept[:min(2, len(r.Kept))])
		}
	}

	a, err := s.Accounts.ByID.Get(c, lb.Account{AccountID: lb.AccountID(ids[children])}) // LB-5
	if err != nil || a.Plan != "pro" {
		t.Errorf("LB-5 a child: plan %q, %v", a.Plan, err)
	}
	rootPath := "/" + strings.TrimPrefix(ids[0], "account:") + "/"
	n := 0
	for _, err := range s.Accounts.Subtree.All(c, lb.Account{AccountPath: rootPath}) { // LB-8
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != len(items) {
		t.Errorf("LB-8 the root's subtree: %d accounts, want %d", n, len(items))
	}
}
