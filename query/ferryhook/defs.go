package ferryhook

import (
	"github.com/singletable/singletable/entity/fh"
	"github.com/singletable/singletable/table"
)

// Unique-value names of the guard items.
const (
	uniqueEmail   = "email"
	uniqueKeyHash = "keyhash"
)

var userDef = table.Def[fh.User]{
	Type: "User",
	Keys: fh.UserKeys,
	IndexKeys: map[table.Index]table.Template{
		table.GSI1: fh.UserEmailIndex,
	},
	// One person, one email, whatever its case or Unicode form: the guard
	// holds the folded address (keys.FoldEmail), GSI1 the stored one.
	UniqueOn:   []string{uniqueEmail},
	UniqueFold: map[string]func(string) string{uniqueEmail: fh.NormalizeEmail},
	Timestamps: fh.Stamps,
	Required:   []string{"plan"},
}

var sourceDef = table.Def[fh.Source]{
	Type: "Source",
	Keys: fh.SourceKeys,
	IndexKeys: map[table.Index]table.Template{
		table.GSI3: fh.SourceIDIndex,
	},
	Timestamps: fh.CreatedStamp,
	// The provider's signing secret is a credential: encrypted at rest.
	Secrets:  []string{"signingSecret"},
	Required: []string{"provider", "status"},
}

var connectionDef = table.Def[fh.Connection]{
	Type:       "Connection",
	Keys:       fh.ConnectionKeys,
	Timestamps: fh.Stamps,
	// The outbound signing secret is a credential: encrypted at rest.
	Secrets:  []string{"signingSecret"},
	Required: []string{"userId", "status"},
}

var apiKeyDef = table.Def[fh.APIKey]{
	Type: "APIKey",
	Keys: fh.APIKeyKeys,
	IndexKeys: map[table.Index]table.Template{
		table.GSI2: fh.APIKeyHashIndex,
	},
	// A key is live only while stored under GSI2 (FH-6): the running
	// service's apiKeys.delete revokes it by removing gsi2pk and gsi2sk and
	// leaving the item. No write of the library (the adoption job
	// included) puts a revoked key back in GSI2 or claims its guard, and
	// every lookup (APIKeys.Authenticate, GetByHash) refuses it.
	ValidWhileIndexed: []table.Index{table.GSI2},
	// The guard is named keyhash, as stored since the first release.
	UniqueOn: []string{uniqueKeyHash + "=keyHash"},
	// The key-hash guard only names the key's item, which answers
	// APIKeys.Authenticate (a guard is never the truth, issue 26).
	Timestamps: fh.CreatedStamp,
	Required:   []string{"permissions"},
}

var eventDef = table.Def[fh.Event]{
	Type: "Event",
	Keys: fh.EventKeys,
	IndexKeys: map[table.Index]table.Template{
		table.GSI1: fh.EventIDIndex,
	},
	TTL:      table.TTL{From: "expiresAt"},
	Required: []string{"userId", "status"},
}

var attemptDef = table.Def[fh.DeliveryAttempt]{
	Type:     "DeliveryAttempt",
	Keys:     fh.AttemptKeys,
	TTL:      table.TTL{From: "expiresAt"}, // 0: never
	Required: []string{"connectionId"},
}
