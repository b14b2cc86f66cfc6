package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/query/listbackup"
	"github.com/singletable/singletable/table/tabletest"
)

// singletable migrate on a small legacy deployment: the dry run needs no
// key and writes nothing, the run without a key is refused before any
// write (secrets would stay plaintext), the run copies and verifies, a
// second run changes nothing. (The migration itself is proven on
// thousands of items in query/listbackup.)
func TestMigrateCommand(t *testing.T) {
	c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := tabletest.Client(t)
	stack := fmt.Sprintf("cmdmig%d", time.Now().UnixNano()%1_000_000)
	if err := listbackup.CreateLegacyTables(c, client, stack); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, lt := range listbackup.LegacyTables() {
			client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(stack + "-" + lt.Suffix)})
		}
	})
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	put := func(suffix string, item map[string]types.AttributeValue) {
		if _, err := client.PutItem(c, &dynamodb.PutItemInput{TableName: aws.String(stack + "-" + suffix), Item: item}); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	put("accounts", map[string]types.AttributeValue{"accountId": s("account:1"), "accountName": s("Acme"), "accountPath": s("/acme/"),
		"accountType": s("conglomerate"), "status": s("active"), "level": &types.AttributeValueMemberN{Value: "0"}, "createdAt": s(now), "updatedAt": s(now)})
	for i := range 3 {
		put("users", map[string]types.AttributeValue{"userId": s(fmt.Sprintf("user:%d", i)), "email": s(fmt.Sprintf("u%d@example.com", i)),
			"name": s("U"), "accountId": s("account:1"), "status": s("active"), "role": s("user"), "createdAt": s(now), "updatedAt": s(now),
			"mfaEnabled": &types.AttributeValueMemberBOOL{Value: false}})
	}
	put("sources", map[string]types.AttributeValue{"accountId": s("account:1"), "sourceId": s("source:1"), "sourceName": s("Stripe"),
		"platform": s("stripe"), "connectionType": s("apikey"), "status": s("active"), "createdAt": s(now), "updatedAt": s(now),
		"credentials": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"encryptedData": s("sk_live_plain")}}})
	main := tabletest.TableName("lbcmd", t.Name())
	t.Cleanup(func() {
		client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(main)})
	})
	base := []string{"migrate", "-app", "listbackup", "-stack", stack, "-endpoint", tabletest.Endpoint(t), "-table", main, "-quiet"}

	t.Setenv("SINGLETABLE_SECRET_KEY", "")
	out, err := runCmd(t, append(base, "-dry-run", "-create")...)
	if err != nil || !strings.Contains(out, "dry run 5 items") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	if _, err := runCmd(t, base...); exitCode(err) != 2 {
		t.Errorf("a run without SINGLETABLE_SECRET_KEY: %v (exit %d), want a usage error", err, exitCode(err))
	}
	t.Setenv("SINGLETABLE_SECRET_KEY", strings.Repeat("ab", 32))
	out, err = runCmd(t, base...)
	if err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	for _, want := range []string{"migrated 5 items", "verified " + stack + "-users: 3 of 3 found", "verified " + stack + "-sources: 1 of 1 found"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, err = runCmd(t, base...)
	if err != nil || !strings.Contains(out, stack+"-users -> User: seen 3, changed 0, unchanged 3") {
		t.Errorf("second run: %v\n%s", err, out)
	}
	if _, err := runCmd(t, "migrate", "-app", "tinode", "-stack", "x", "-endpoint", tabletest.Endpoint(t)); exitCode(err) != 2 {
		t.Errorf("migrate -app tinode: exit %d, want 2", exitCode(err))
	}
}
