package migrate_test

import (
	"testing"

	"github.com/singletable/singletable/table/tabletest"
)

func TestMain(m *testing.M) { tabletest.Main(m) }
