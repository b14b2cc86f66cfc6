//go:build !unix

package tabletest

import "time"

// selfCPU returns 0: this process's CPU time is read with getrusage, on
// Unix only.
func selfCPU() time.Duration { return 0 }
