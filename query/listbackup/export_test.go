package listbackup

import (
	"fmt"

	"github.com/singletable/singletable/table"
)

// keyEntities are the store's entity declarations on a table they never
// reach: the keys the external tests read stored items by.
var keyEntities = newEntities(table.New(nil, Schema("")), DefaultIndexShards)

// Key returns the primary key the store's entity of T builds from the
// key fields set in item (table.Entity.Key).
func Key[T any](item T) table.Key { return entityOf[T]().Key(item) }

// FromKey returns the key fields k holds, read by the store's entity of T
// (table.Entity.FromKey).
func FromKey[T any](k table.Key) (T, error) { return entityOf[T]().FromKey(k) }

// entityOf returns the store's entity of T.
func entityOf[T any]() *table.Entity[T] {
	e := keyEntities
	for _, x := range []any{e.users, e.accounts, e.memberships, e.teams, e.sources, e.activities, e.jobs, e.connections,
		e.states, e.oauthTokens, e.refreshTokens, e.families, e.tags, e.notifications, e.schedules, e.runs, e.apiKeys,
		e.webhooks, e.usage, e.plans, e.groups, e.teamMembers, e.labels, e.entityTags, e.mfaCodes, e.platforms,
		e.platformSrcs, e.inbox} {
		if ent, ok := x.(*table.Entity[T]); ok {
			return ent
		}
	}
	panic(fmt.Sprintf("listbackup: no entity of %T", *new(T)))
}
