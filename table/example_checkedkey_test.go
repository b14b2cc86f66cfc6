package table_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tabletest"
)

// PlayerID is a typed ID that checks itself.
type PlayerID string

// Validate refuses an ID without the "plr_" prefix.
func (id PlayerID) Validate(field string) error {
	if !strings.HasPrefix(string(id), "plr_") {
		return table.Invalid(field, "%q does not start with plr_", id)
	}
	return nil
}

// Player is a game's player.
type Player struct {
	ID    PlayerID `dynamo:"playerId"`
	Score int      `dynamo:"score"`
}

// CheckedKey builds a key from an ID a caller gave (a request's path, a
// form) after the key fields' own checks, called with the attribute's
// name: a bad or empty ID is a *table.ValidationError before any request.
// Key builds the key of an item read back, and runs no field's own check.
func ExampleEntity_CheckedKey() {
	t, done := tabletest.ForExample("ExampleEntity_CheckedKey")
	defer done()
	ctx := context.Background()
	players := table.NewEntity(tabletest.NewTable(t, table.NewSchema("example")), table.Def[Player]{
		Type: "Player", Keys: table.Template{PK: "PLAYER#{playerId}", SK: "PLAYER"}})
	_ = players.Create(ctx, &Player{ID: "plr_1", Score: 7})

	k, err := players.CheckedKey(Player{ID: "plr_1"})
	fmt.Println(k, err)
	p, err := players.Get(ctx, k)
	fmt.Println(p.Score, err)

	for _, id := range []PlayerID{"1", ""} {
		_, err = players.CheckedKey(Player{ID: id}) // refused before any request
		var ve *table.ValidationError
		fmt.Println(errors.As(err, &ve), ve.Field, ve.Reason)
	}
	fmt.Println(players.Key(Player{ID: "1"})) // no own check: a read-back key
	// Output:
	// {PLAYER#plr_1 PLAYER} <nil>
	// 7 <nil>
	// true playerId "1" does not start with plr_
	// true playerId "" does not start with plr_
	// {PLAYER#1 PLAYER}
}
