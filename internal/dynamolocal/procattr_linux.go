package dynamolocal

import "syscall"

// procAttr puts the JVM in its own process group and has the kernel kill it
// when the thread that created it exits (see launch).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
