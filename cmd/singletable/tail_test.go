package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// syncBuffer is a bytes.Buffer safe for the command's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tailUntil runs tail with args until its output holds lines lines (or 60
// s pass), then stops it as Ctrl-C does (its context ends) and returns
// the lines; tail must return nil.
func tailUntil(t *testing.T, lines int, args ...string) []string {
	t.Helper()
	var out, errOut syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"tail"}, args...), &out, &errOut) }()
	deadline := time.Now().Add(time.Minute)
	for strings.Count(out.String(), "\n") < lines && time.Now().Before(deadline) {
		select {
		case err := <-done:
			cancel()
			t.Fatalf("tail returned before it was stopped: %v\n%s%s", err, out.String(), errOut.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	time.Sleep(300 * time.Millisecond) // room for a line too many to show up
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tail stopped with %v\n%s", err, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tail did not stop within 10 s of its context ending")
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// tail follows a ListBackup table's stream from its trim horizon and
// prints each change as a person reads it: time, entity, event, key,
// changed fields; bookkeeping and the engine's items apart; a foreign
// item as unknown; with -values, values with secrets redacted. The MFA
// secret's value never appears, though tail holds the key that opens it.
func TestTailCommand(t *testing.T) {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	t.Setenv("SINGLETABLE_SECRET_KEY", hex.EncodeToString(key))
	ciph, err := table.NewAESGCM(key)
	if err != nil {
		t.Fatal(err)
	}
	tbl := tabletest.NewTable(t, listbackup.Schema("listbackup"), func(o *table.Options) { o.Cipher = ciph })
	s := listbackup.New(tbl)
	ctx := context.Background()
	const secret = "JBSWY3DPEHPK3PXP"
	if err := s.Users.Create(ctx, &lb.User{UserID: "user:ada", Email: "ada@example.com", Username: "ada", Name: "Ada", MFAEnabled: true, MFASecret: secret}); err != nil {
		t.Fatal(err)
	}
	name := "Ada Lovelace"
	if _, err := s.Users.UpdateProfile(ctx, "user:ada", listbackup.ProfileChange{Name: &name}); err != nil {
		t.Fatal(err)
	}
	if err := s.Jobs.Create(ctx, &lb.Job{AccountID: "a1", JobID: "j1", JobType: lb.JobSync, SourceID: "s1", MaxRetries: 3}); err != nil {
		t.Fatal(err)
	}
	for _, st := range []lb.JobStatus{lb.JobRunning, lb.JobCompleted} {
		if _, err := s.Jobs.Update(ctx, "j1", func(j *lb.Job) error { j.Status = st; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Jobs.Update(ctx, "j1", func(j *lb.Job) error { return nil }); err != nil { // the version only
		t.Fatal(err)
	}
	if err := s.Jobs.Delete(ctx, "j1"); err != nil {
		t.Fatal(err)
	}
	if _, err := tbl.Client().PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tbl.Name()), Item: table.Item{
		"PK": &types.AttributeValueMemberS{Value: "OTHER#1"}, "SK": &types.AttributeValueMemberS{Value: "X"}, "note": &types.AttributeValueMemberS{Value: "foreign"},
	}}); err != nil {
		t.Fatal(err)
	}
	base := []string{"-app", "listbackup", "-table", tbl.Name(), "-endpoint", tabletest.Endpoint(t), "-from", "trim-horizon", "-poll", "50ms"}

	lines := tailUntil(t, 8, base...)
	want := []string{
		`User created USER#user:ada/PROFILE \S*email,\S*mfaSecret,\S*name,\S*username`,
		`User modified USER#user:ada/PROFILE name,updatedAt$`,
		`Job created JOB#j1/JOB \S*jobType,\S*status`,
		`Job modified JOB#j1/JOB \S*status`,
		`Job modified JOB#j1/JOB \S*status`,
		`Job modified JOB#j1/JOB \(bookkeeping only\)$`,
		`Job removed JOB#j1/JOB \S*jobType`,
		`unknown created OTHER#1/X note$`,
	}
	checkTail(t, lines, want)

	// -values -entity user: the user's lines only, values shown, the
	// secret redacted.
	lines = tailUntil(t, 2, append(base, "-values", "-entity", "user")...)
	checkTail(t, lines, []string{
		`User created USER#user:ada/PROFILE .*email="ada@example.com".* mfaSecret=\[redacted\]`,
		`User modified USER#user:ada/PROFILE name="Ada"->"Ada Lovelace" updatedAt=`,
	})
	// -library: the guards of the email and username appear too.
	// The foreign item is no User or Job.
	lines = tailUntil(t, 9, append(base, "-library", "-entity", "User,Job")...)
	checkTail(t, lines, append([]string{want[0],
		`_unique created UNIQUE#email#ada@example.com/UNIQUE ownerPK,ownerSK,uniqueName,uniqueValue$`,
		`_unique created UNIQUE#username#ada/UNIQUE ownerPK,ownerSK,uniqueName,uniqueValue$`},
		want[1:len(want)-1]...))
}

// checkTail checks that lines are want, in order, each with its time.
func checkTail(t *testing.T, lines, want []string) {
	t.Helper()
	all := strings.Join(lines, "\n")
	if strings.Contains(all, "JBSWY3DPEHPK3PXP") {
		t.Fatalf("a secret's value was printed:\n%s", all)
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), all)
	}
	for i, w := range want {
		if !regexp.MustCompile(`^\d\d:\d\d:\d\d\.\d{3} ` + w).MatchString(lines[i]) {
			t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
		}
	}
}
