//go:build unix

package tabletest

import (
	"syscall"
	"time"
)

// selfCPU returns the user and system CPU time of this process
// (getrusage), microsecond resolution.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
