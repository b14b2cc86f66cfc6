package table_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// TicketID is a typed ID with no method of its own.
type TicketID string

// TicketIDs declares TicketID's format once: "tkt_" followed by 12
// random characters of nanoid's alphabet.
var TicketIDs = table.NewIDs[TicketID]("ticketId", table.IDFormat{Prefix: "tkt_", Random: 12})

// Ticket is a support ticket.
type Ticket struct {
	ID    TicketID `dynamo:"ticketId"`
	Title string   `dynamo:"title"`
}

// An ID type is declared once, by its format: New mints one from
// crypto/rand, Parse checks one a caller gives, and the engine checks
// every field of the type on each write and in keys, naming the
// attribute, before any request. An ID minted elsewhere (a UUID) is
// declared by the key segment it must fit: table.IDFormat{Segment:
// table.Segment{MaxBytes: 128}}.
func ExampleNewIDs() {
	t, done := tabletest.ForExample("ExampleNewIDs")
	defer done()
	ctx := context.Background()
	tickets := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), table.Def[Ticket]{
		Type: "Ticket", Keys: table.Template{PK: "TICKET#{ticketId}", SK: "TICKET"}})

	id := TicketIDs.New()
	fmt.Println(strings.HasPrefix(string(id), "tkt_"), len(id), tickets.Create(ctx, &Ticket{ID: id, Title: "printer"}))
	_, err := TicketIDs.Parse(string(id))
	fmt.Println(err)

	_, err = TicketIDs.Parse("tkt_1")
	fmt.Println(err)
	err = tickets.Create(ctx, &Ticket{ID: "tkt_1", Title: "refused before any request"})
	var ve *table.ValidationError
	fmt.Println(errors.As(err, &ve), ve.Field)
	_, err = tickets.CheckedKey(Ticket{ID: "tkt_12345678901!"})
	fmt.Println(errors.As(err, &ve), ve.Reason)
	// Output:
	// true 16 <nil>
	// <nil>
	// singletable: invalid ticketId: "tkt_1" is not tkt_ followed by 12 characters
	// true ticketId
	// true "tkt_12345678901!" holds '!', outside A-Za-z0-9_-
}
