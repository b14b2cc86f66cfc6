package tinode

import adapter "github.com/tinode/chat/server/db"

// The adapter implements every method of Tinode's interface.
var _ adapter.Adapter = (*Adapter)(nil)
