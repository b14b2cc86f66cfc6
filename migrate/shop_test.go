package migrate_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/internal/legacytest"
	"github.com/singletable/singletable/migrate"
	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// A shop of its own, not ListBackup's: two legacy tables (<stack>-authors
// keyed by author_id, <stack>-books keyed by bookId with a GSI on author_id
// and an expiry in Unix seconds) become two entities of one table.

// shopAuthor is an author: PK = AUTHOR#{authorId}, SK = PROFILE.
type shopAuthor struct {
	ID   string `dynamo:"authorId"`
	Name string `dynamo:"name"`
}

// shopBook is a book: PK = BOOK#{bookId}, SK = BOOK; GSI1 = AUTHOR#{authorId}
// / BOOK#{bookId} lists an author's books.
type shopBook struct {
	ID        string `dynamo:"bookId"`
	Author    string `dynamo:"authorId"`
	Title     string `dynamo:"title"`
	Genre     string `dynamo:"genre"`
	Ref       string `dynamo:"ref"`
	ExpiresAt int64  `dynamo:"expiresAt,omitempty"`
}

var (
	authorDef = table.Def[shopAuthor]{Type: "Author", Keys: table.Template{PK: "AUTHOR#{authorId}", SK: "PROFILE"}}
	bookDef   = table.Def[shopBook]{Type: "Book", Keys: table.Template{PK: "BOOK#{bookId}", SK: "BOOK"},
		IndexKeys: map[table.Index]table.Template{table.GSI1: {PK: "AUTHOR#{authorId}", SK: "BOOK#{bookId}"}}}
)

// shopManifest is the shop's legacy layout: author_id renamed authorId
// (both tables), book_title renamed title, genre "SciFi" mapped to
// "scifi", ref composed from the legacy attributes, expiry in expiresAt.
const shopManifest = `{
  "name": "shop",
  "description": "a shop kept as one table per entity",
  "tables": [
    {"table": "authors", "pk": "author_id", "entity": "Author", "renames": {"author_id": "authorId"}},
    {"table": "books", "pk": "bookId", "entity": "Book",
     "indexes": [{"name": "byAuthor", "pk": "author_id"}],
     "ttl": {"attribute": "expiresAt", "unit": "s"},
     "compose": {"ref": "{author_id}/{bookId}"},
     "renames": {"author_id": "authorId", "book_title": "title"},
     "values": {"genre": {"SciFi": "scifi"}}},
    {"table": "carts", "pk": "cartId", "skip": "transient: carts live an hour"}
  ]
}`

// shop is a single table with the shop's entities, and the targets that
// send the manifest's entity names to them.
type shop struct {
	t       *table.Table
	authors *table.Entity[shopAuthor]
	books   *table.Entity[shopBook]
}

func newShop(t *table.Table) shop {
	return shop{t: t, authors: table.NewEntity(t, authorDef), books: table.NewEntity(t, bookDef)}
}

func (s shop) targets() migrate.Targets {
	return migrate.Targets{"Author": migrate.Into(s.authors), "Book": migrate.Into(s.books)}
}

func readShopManifest(t testing.TB) *migrate.Manifest {
	t.Helper()
	m, err := migrate.ReadManifest(strings.NewReader(shopManifest))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// shopItems are the legacy items: authors, then books (n live, one past
// its expiry, one expiring in a day), as the legacy service wrote them.
func shopItems(n int, now time.Time) map[string][]table.Item {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	num := func(v int64) types.AttributeValue { return &types.AttributeValueMemberN{Value: fmt.Sprint(v)} }
	d := map[string][]table.Item{
		"authors": {
			{"author_id": s("a1"), "name": s("Ursula")},
			{"author_id": s("a2"), "name": s("Stanisław")},
		},
	}
	for i := range n {
		genre := "SciFi"
		if i%3 == 0 {
			genre = "fantasy"
		}
		d["books"] = append(d["books"], table.Item{"bookId": s(fmt.Sprintf("b%03d", i)), "author_id": s(fmt.Sprintf("a%d", 1+i%2)),
			"book_title": s(fmt.Sprintf("Book %d", i)), "genre": s(genre)})
	}
	d["books"] = append(d["books"],
		table.Item{"bookId": s("gone"), "author_id": s("a1"), "book_title": s("Withdrawn"), "genre": s("SciFi"), "expiresAt": num(now.Add(-time.Hour).Unix())},
		table.Item{"bookId": s("soon"), "author_id": s("a2"), "book_title": s("Preorder"), "genre": s("SciFi"), "expiresAt": num(now.Add(24 * time.Hour).Unix())})
	return d
}

// newStack creates the shop's legacy tables under a fresh stack and fills
// them; it returns the stack and the items written.
func newStack(c context.Context, t *testing.T, n int) (string, map[string][]table.Item) {
	t.Helper()
	client := tabletest.Client(t)
	stack := legacytest.Stack(c, t, client, "shop", readShopManifest(t))
	items := shopItems(n, time.Now())
	legacytest.Put(t, client, stack, items)
	return stack, items
}
