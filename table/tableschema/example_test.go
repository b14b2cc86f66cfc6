package tableschema_test

import (
	"fmt"
	"strings"

	"github.com/singletable/singletable/table"
	"github.com/singletable/singletable/table/tableschema"
)

// The schema the tests create, exported for deployment.
func ExampleTerraform() {
	tf := string(tableschema.Terraform(table.NewSchema("shop", table.WithIndexCount(1)), "shop"))
	fmt.Println(strings.Count(tf, "global_secondary_index {"), strings.Contains(tf, `attribute_name = "ttl"`))
	// Output: 1 true
}
