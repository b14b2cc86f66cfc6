package tn

import (
	"time"

	"github.com/singletable/singletable/table"
)

// Precision is the precision Tinode's times are stored at: milliseconds,
// as the document's samples show them ("2017-09-25T09:26:11.469Z") and
// Tinode's server takes them (types.TimeNow rounds to the millisecond).
// Times written by other writers at another precision are read as stored.
const Precision = time.Millisecond

// Stamps are the CreatedAt and UpdatedAt the store keeps
// (Def.Timestamps): a create sets CreatedAt and an UpdatedAt equal to it
// ("initially equal to CreatedAt"), every later write UpdatedAt.
var Stamps = table.Timestamps{Created: "CreatedAt", Updated: "UpdatedAt", Precision: Precision}

// CreatedStamp is [Stamps] for the items that keep only CreatedAt (file
// links).
var CreatedStamp = table.Timestamps{Created: "CreatedAt", Precision: Precision}
