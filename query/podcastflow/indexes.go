package podcastflow

import (
	"github.com/singletable/singletable/table"
)

// The GSIs this package keys.
const (
	// IndexOrgUsers is the document's GSI1 (organization users, PF-12).
	IndexOrgUsers = table.GSI1
	// IndexRole is the document's GSI2 (users by role, PF-13).
	IndexRole = table.GSI2
	// IndexStatus is the document's GSI3 (entities by status, PF-14).
	IndexStatus = table.GSI3
	// IndexAll lists every user and every organization (PF-4, PF-6),
	// replacing the document's Scan.
	IndexAll = table.GSI4
)
