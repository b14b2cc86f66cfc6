//go:build unix && !linux

package dynamolocal

import "syscall"

// procAttr puts the JVM in its own process group. Without Linux's
// parent-death signal, a JVM can outlive a process killed with SIGKILL.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
