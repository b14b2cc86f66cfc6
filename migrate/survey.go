package migrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Deployment is what a deployment holds, measured against a manifest
// ([Survey]).
type Deployment struct {
	// Stack is the deployment's stack name; Layout the manifest it was
	// measured against.
	Stack  string
	Layout *Manifest
	// Tables are the manifest's tables, each with what the deployment has.
	Tables []SurveyedTable
	// Unknown lists the deployment's tables (<stack>-...) the manifest does
	// not name: not migrated, reported.
	Unknown []string
}

// SurveyedTable is one table of a manifest in a deployment.
type SurveyedTable struct {
	Table
	// Name is the table's name, <stack>-<table>; Present says the
	// deployment has it.
	Name    string
	Present bool
	// ItemCount is DescribeTable's estimate (updated by DynamoDB about
	// every six hours), -1 when the table is missing.
	ItemCount int64
}

// Missing returns the names of the manifest's tables the deployment lacks.
func (d Deployment) Missing() []string {
	var out []string
	for _, t := range d.Tables {
		if !t.Present {
			out = append(out, t.Name)
		}
	}
	return out
}

// stackTables lists the tables named <stack>-... (ListTables, all pages).
func stackTables(ctx context.Context, client *dynamodb.Client, stack string) ([]string, error) {
	var out []string
	var start *string
	for {
		page, err := client.ListTables(ctx, &dynamodb.ListTablesInput{ExclusiveStartTableName: start})
		if err != nil {
			return nil, fmt.Errorf("list tables: %w", err)
		}
		for _, n := range page.TableNames {
			if strings.HasPrefix(n, stack+"-") {
				out = append(out, n)
			}
		}
		if page.LastEvaluatedTableName == nil {
			return out, nil
		}
		start = page.LastEvaluatedTableName
	}
}

// ErrNoLayout is returned by [Detect] when the stack's tables match none
// of the layouts given, or two equally.
var ErrNoLayout = errors.New("migrate: no known legacy layout")

// Detect recognises which of layouts the deployment of stack is, by its
// tables: the layout that names the most of them, which must name more
// than any other ([ErrNoLayout] if none does). It also returns the
// stack's tables found (<stack>-...), whatever the outcome.
func Detect(ctx context.Context, client *dynamodb.Client, stack string, layouts ...*Manifest) (*Manifest, []string, error) {
	found, err := stackTables(ctx, client, stack)
	if err != nil {
		return nil, nil, err
	}
	var best *Manifest
	bestN, tie := 0, false
	for _, m := range layouts {
		n := 0
		for _, lt := range m.Tables {
			if slices.Contains(found, stack+"-"+lt.Suffix) {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tie = m, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	switch {
	case best == nil:
		return nil, found, fmt.Errorf("%w: no table named %s-... matches one", ErrNoLayout, stack)
	case tie:
		return nil, found, fmt.Errorf("%w: the tables of %s match two layouts equally; name one with a manifest", ErrNoLayout, stack)
	}
	return best, found, nil
}

// Survey measures the deployment of stack against m: which of its tables
// exist, with their item-count estimates, and which tables of the stack m
// does not know. It reads (ListTables, DescribeTable) and writes nothing.
func Survey(ctx context.Context, client *dynamodb.Client, stack string, m *Manifest) (Deployment, error) {
	found, err := stackTables(ctx, client, stack)
	if err != nil {
		return Deployment{}, err
	}
	dep := Deployment{Stack: stack, Layout: m}
	known := map[string]bool{}
	for _, lt := range m.Tables {
		st := SurveyedTable{Table: lt, Name: stack + "-" + lt.Suffix, ItemCount: -1}
		known[st.Name] = true
		if slices.Contains(found, st.Name) {
			d, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(st.Name)})
			var nf *types.ResourceNotFoundException
			switch {
			case errors.As(err, &nf):
			case err != nil:
				return dep, fmt.Errorf("describe %s: %w", st.Name, err)
			default:
				st.Present, st.ItemCount = true, aws.ToInt64(d.Table.ItemCount)
			}
		}
		dep.Tables = append(dep.Tables, st)
	}
	for _, n := range found {
		if !known[n] {
			dep.Unknown = append(dep.Unknown, n)
		}
	}
	return dep, nil
}
