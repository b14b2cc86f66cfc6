package lambdafeed

import (
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/singletable/singletable/table"
)

// FromEvent converts every record of a Lambda DynamoDB stream event, in
// the event's order (a shard's order). The first record that does not
// convert is an error naming its event ID and sequence number.
func FromEvent(ev events.DynamoDBEvent) ([]table.Record, error) {
	out := make([]table.Record, 0, len(ev.Records))
	for _, r := range ev.Records {
		rec, err := FromRecord(r)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// FromRecord converts one record of a Lambda DynamoDB stream event into a
// [table.Record] (see the package doc for what it keeps). Shard is "":
// the event names its stream only.
func FromRecord(r events.DynamoDBEventRecord) (table.Record, error) {
	out := table.Record{ID: r.EventID, Op: r.EventName, Sequence: r.Change.SequenceNumber}
	if r.UserIdentity != nil {
		out.PrincipalType, out.PrincipalID = r.UserIdentity.Type, r.UserIdentity.PrincipalID
	}
	if t := r.Change.ApproximateCreationDateTime.Time; !t.IsZero() {
		out.At = t.UTC()
	}
	var err error
	if out.Keys, err = FromItem(r.Change.Keys); err != nil {
		return out, fmt.Errorf("lambdafeed: record %s (sequence %s) keys: %w", out.ID, out.Sequence, err)
	}
	if out.Old, err = FromItem(r.Change.OldImage); err != nil {
		return out, fmt.Errorf("lambdafeed: record %s (sequence %s) old image: %w", out.ID, out.Sequence, err)
	}
	if out.New, err = FromItem(r.Change.NewImage); err != nil {
		return out, fmt.Errorf("lambdafeed: record %s (sequence %s) new image: %w", out.ID, out.Sequence, err)
	}
	return out, nil
}

// FromItem converts an item of Lambda's attribute values into the
// DynamoDB API's; nil stays nil.
func FromItem(m map[string]events.DynamoDBAttributeValue) (table.Item, error) {
	if m == nil {
		return nil, nil
	}
	out := make(table.Item, len(m))
	for k, v := range m {
		av, err := FromValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = av
	}
	return out, nil
}

// FromValue converts one of Lambda's attribute values into the DynamoDB
// API's, value for value: a number keeps its spelling, a set its order.
// A value that holds nothing (the zero DynamoDBAttributeValue, which
// neither JSON nor aws-lambda-go's constructors make) is an error wrapping
// [table.ErrInvalidInput].
func FromValue(v events.DynamoDBAttributeValue) (av types.AttributeValue, err error) {
	defer func() {
		// aws-lambda-go's accessors panic on a value whose type and
		// contents disagree: only the zero value does.
		if p := recover(); p != nil {
			av, err = nil, fmt.Errorf("%w: attribute value of type %d holds no value (%v)", table.ErrInvalidInput, v.DataType(), p)
		}
	}()
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}, nil
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}, nil
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}, nil
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}, nil
	case events.DataTypeNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}, nil
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}, nil
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}, nil
	case events.DataTypeList:
		l := v.List()
		out := make([]types.AttributeValue, len(l))
		for i, e := range l {
			if out[i], err = FromValue(e); err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case events.DataTypeMap:
		m, err := FromItem(v.Map())
		if err != nil {
			return nil, err
		}
		if m == nil {
			m = table.Item{}
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("%w: attribute value of unknown type %d", table.ErrInvalidInput, v.DataType())
}
