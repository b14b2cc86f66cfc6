package tinode

import (
	"log"

	"github.com/tinode/chat/server/logs"
)

// warnf logs a warning through Tinode's logger, or the standard one when
// Tinode's is not set up (tests, programs that use the adapter without
// Tinode's server).
func warnf(format string, args ...any) {
	if logs.Warn != nil {
		logs.Warn.Printf(format, args...)
		return
	}
	log.Printf("WARN "+format, args...)
}
