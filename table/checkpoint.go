package table

import (
	"context"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/internal/codec"
	"github.com/singletable/singletable/internal/ddb"
)

func checkpointKey(job string, seg int) Key {
	return Key{PK: jobPrefix + job, SK: "SEGMENT#" + strconv.Itoa(seg)}
}

func (t *Table) saveCheckpoint(ctx context.Context, job string, seg *jobSegment, dryRun bool) error {
	k := checkpointKey(job, seg.n)
	item := t.c.KeyItem(k)
	if t.schema.TypeAttr != "" {
		item[t.schema.TypeAttr] = &types.AttributeValueMemberS{Value: "_job"}
	}
	item["done"] = &types.AttributeValueMemberBOOL{Value: seg.done}
	item["dryRun"] = &types.AttributeValueMemberBOOL{Value: dryRun}
	item["segments"] = codec.Num(int64(seg.of))
	if len(seg.start) > 0 {
		item["start"] = &types.AttributeValueMemberM{Value: seg.start}
	}
	for name, n := range map[string]int64{"seen": seg.rep.Seen, "changed": seg.rep.Changed, "unchanged": seg.rep.Unchanged, "skipped": seg.rep.Skipped, "conflicted": seg.rep.Conflicted} {
		item[name] = codec.Num(n)
	}
	if len(seg.rep.Conflicts) > 0 {
		var l []types.AttributeValue
		for i, c := range seg.rep.Conflicts {
			if i == 100 {
				break
			}
			l = append(l, &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"pk": &types.AttributeValueMemberS{Value: c.Key.PK}, "sk": &types.AttributeValueMemberS{Value: c.Key.SK},
				"reason": &types.AttributeValueMemberS{Value: c.Reason},
			}})
		}
		item["conflicts"] = &types.AttributeValueMemberL{Value: l}
	}
	if len(seg.rep.Notes) > 0 {
		notes := map[string]types.AttributeValue{}
		for name, n := range seg.rep.Notes {
			l := make([]types.AttributeValue, 0, len(n.Entries))
			for _, e := range n.Entries {
				l = append(l, &types.AttributeValueMemberS{Value: e})
			}
			notes[name] = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
				"entries": &types.AttributeValueMemberL{Value: l}, "count": codec.Num(int64(n.Count)),
			}}
		}
		item["notes"] = &types.AttributeValueMemberM{Value: notes}
	}
	_, err := t.client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(t.schema.Name), Item: item})
	if err != nil {
		return fmt.Errorf("job %s: save checkpoint: %w", job, ddb.MapErr(err))
	}
	return nil
}

func (t *Table) loadCheckpoint(ctx context.Context, job string, segs []*jobSegment, dryRun bool) error {
	for _, seg := range segs {
		raw, err := t.getItem(ctx, "_job", checkpointKey(job, seg.n), true)
		if err != nil {
			return fmt.Errorf("job %s: load checkpoint: %w", job, err)
		}
		if raw == nil {
			continue
		}
		if b, _ := raw["dryRun"].(*types.AttributeValueMemberBOOL); (b != nil && b.Value) != dryRun {
			continue // a dry run's position is no real run's, and the reverse
		}
		if n, ok := raw["segments"].(*types.AttributeValueMemberN); ok && n.Value != strconv.Itoa(seg.of) {
			// Segment i of another count covers other items: resuming
			// would skip some and repeat others.
			return &ValidationError{Field: "job segments", Reason: fmt.Sprintf("the checkpoint of job %s was written with %s segments; resume with %s, or start over", job, n.Value, n.Value)}
		}
		if b, ok := raw["done"].(*types.AttributeValueMemberBOOL); ok {
			seg.done = b.Value
		}
		if m, ok := raw["start"].(*types.AttributeValueMemberM); ok {
			seg.start = m.Value
		}
		num := func(name string) int64 {
			if n, ok := raw[name].(*types.AttributeValueMemberN); ok {
				v, _ := strconv.ParseInt(n.Value, 10, 64)
				return v
			}
			return 0
		}
		seg.rep = JobReport{Seen: num("seen"), Changed: num("changed"), Unchanged: num("unchanged"), Skipped: num("skipped"), Conflicted: num("conflicted")}
		if m, ok := raw["notes"].(*types.AttributeValueMemberM); ok {
			seg.rep.Notes = map[string]JobNotes{}
			for name, v := range m.Value {
				nm, _ := v.(*types.AttributeValueMemberM)
				if nm == nil {
					continue
				}
				var n JobNotes
				if l, ok := nm.Value["entries"].(*types.AttributeValueMemberL); ok {
					for _, e := range l.Value {
						if s, ok := e.(*types.AttributeValueMemberS); ok {
							n.Entries = append(n.Entries, s.Value)
						}
					}
				}
				if c, ok := nm.Value["count"].(*types.AttributeValueMemberN); ok {
					v, _ := strconv.Atoi(c.Value)
					n.Count = v
				}
				seg.rep.Notes[name] = n
			}
		}
		if l, ok := raw["conflicts"].(*types.AttributeValueMemberL); ok {
			for _, v := range l.Value {
				m, _ := v.(*types.AttributeValueMemberM)
				if m == nil {
					continue
				}
				str := func(k string) string {
					s, _ := m.Value[k].(*types.AttributeValueMemberS)
					if s == nil {
						return ""
					}
					return s.Value
				}
				seg.rep.Conflicts = append(seg.rep.Conflicts, JobConflict{Key: Key{PK: str("pk"), SK: str("sk")}, Reason: str("reason")})
			}
		}
	}
	return nil
}
