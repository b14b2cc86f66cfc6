package migrate

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table"
)

// prep makes a legacy table's items ready for their entity, for the
// migration and its verification alike: the manifest's rules ([Table]
// ready), then the tree's path rebuilt from the parent chain when the
// table declares one ([Tree]).
type prep struct {
	lt    Table
	paths map[string]string // ID -> rebuilt path (Tree only)
}

// prepFor reads what legacy table name's items need to be made ready: the
// parent chain of a tree (one Scan of the table).
func prepFor(ctx context.Context, client *dynamodb.Client, name string, lt Table) (prep, error) {
	p := prep{lt: lt}
	tr := lt.Tree
	if tr == nil {
		return p, nil
	}
	nodes := map[string]treeNode{}
	pages := dynamodb.NewScanPaginator(client, &dynamodb.ScanInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true)})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return p, fmt.Errorf("read the tree of %s: %w", name, err)
		}
		for _, raw := range page.Items {
			it := lt.ready(raw)
			if id := strAttr(it, tr.ID); id != "" {
				nodes[id] = treeNode{parent: strAttr(it, tr.Parent), path: strAttr(it, tr.Path)}
			}
		}
	}
	p.paths = tr.rebuild(nodes)
	return p, nil
}

// item makes raw ready; repair says how its path was rebuilt ("" when the
// stored path was right, or kept).
func (p prep) item(raw table.Item) (ready table.Item, repair string) {
	ready = p.lt.ready(raw)
	tr := p.lt.Tree
	if tr == nil {
		return ready, ""
	}
	id := strAttr(ready, tr.ID)
	want, ok := p.paths[id]
	if !ok {
		return ready, ""
	}
	if strAttr(ready, tr.Path) != want {
		ready[tr.Path] = &types.AttributeValueMemberS{Value: want}
	}
	var stored string
	if v, ok := raw[tr.Path].(*types.AttributeValueMemberS); ok {
		stored = v.Value
	}
	if stored == want {
		return ready, ""
	}
	return ready, fmt.Sprintf("%s of %s=%s: %q -> %q", tr.Path, tr.ID, id, stored, want)
}

type treeNode struct{ parent, path string }

// rebuild returns every node's path from the parent chain. A node whose
// chain is broken (its parent is not in nodes, or it is on a loop) keeps
// its stored path, and the nodes below it build on that.
func (tr Tree) rebuild(nodes map[string]treeNode) map[string]string {
	out := make(map[string]string, len(nodes))
	seg := func(id string) string { return strings.TrimPrefix(id, tr.TrimPrefix) + "/" }
	for id := range nodes {
		var chain []string // id, its parent, ...: the nodes still to resolve
		at := map[string]int{}
		var base string // the path of the parent of chain's last node
		for cur := id; ; {
			if p, done := out[cur]; done {
				base = p
				break
			}
			if i, seen := at[cur]; seen { // a loop: its nodes keep their paths
				for _, x := range chain[i:] {
					out[x] = nodes[x].path
				}
				chain, base = chain[:i], out[cur]
				break
			}
			n := nodes[cur]
			if _, known := nodes[n.parent]; n.parent == "" || !known {
				if n.parent == "" {
					out[cur] = "/" + seg(cur) // a root
				} else {
					out[cur] = n.path // the parent is gone: keep what is stored
				}
				base = out[cur]
				break
			}
			at[cur] = len(chain)
			chain = append(chain, cur)
			cur = n.parent
		}
		for i := len(chain) - 1; i >= 0; i-- {
			base += seg(chain[i])
			out[chain[i]] = base
		}
	}
	return out
}

// strAttr returns the string attribute name of item, or "".
func strAttr(item table.Item, name string) string {
	if v, ok := item[name].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}
