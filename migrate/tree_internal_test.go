package migrate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Account paths rebuilt from the parentAccountId chain (issue 35, LB-8):
// ListBackup's auth/register stores a root's path without its closing '/',
// and its accounts/create and create-sub-account append the new ID to the
// parent's path, so a child's path runs its root's ID and its own
// together. The chain gives every path; where it is broken (a parent not
// in the table, a loop) the stored path is kept and the nodes below build
// on it.
func TestLegacyTreeRebuild_LB8(t *testing.T) {
	t.Parallel()
	tr := Tree{Path: "accountPath", ID: "accountId", Parent: "parentAccountId", TrimPrefix: "account:"}
	nodes := map[string]treeNode{
		"account:r":  {path: "/r/"}, // root, made ready (the manifest's suffix added the '/')
		"account:c":  {parent: "account:r", path: "/rc/"},
		"account:g":  {parent: "account:c", path: "/rc/g/"},
		"account:o":  {parent: "account:gone", path: "/gone/o/"}, // its parent was deleted
		"account:oc": {parent: "account:o", path: "/goneo/oc/"},
		"account:x":  {parent: "account:y", path: "/x/"}, // x and y are each other's parent
		"account:y":  {parent: "account:x", path: "/y/"},
		"account:z":  {parent: "account:y", path: "/yz/"},
	}
	want := map[string]string{
		"account:r":  "/r/",
		"account:c":  "/r/c/",
		"account:g":  "/r/c/g/",
		"account:o":  "/gone/o/",
		"account:oc": "/gone/o/oc/",
		"account:x":  "/x/",
		"account:y":  "/y/",
		"account:z":  "/y/z/",
	}
	for range 20 { // map order varies: every visiting order gives the same paths
		if d := cmp.Diff(want, tr.rebuild(nodes)); d != "" {
			t.Fatalf("paths (-want +got):\n%s", d)
		}
	}
}
