package feed

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	st "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/singletable/singletable/table"
)

// FromStreams converts a record of the Streams API (aws-sdk-go-v2's
// dynamodbstreams) read from shard into a [table.Record]. Its attribute
// values are the Streams API's own types; they become the DynamoDB API's,
// value for value (a number keeps its spelling, a set its order, NULL
// stays NULL).
func FromStreams(shard string, r st.Record) (table.Record, error) {
	out := table.Record{ID: aws.ToString(r.EventID), Op: string(r.EventName), Shard: shard}
	if r.UserIdentity != nil {
		out.PrincipalType, out.PrincipalID = aws.ToString(r.UserIdentity.Type), aws.ToString(r.UserIdentity.PrincipalId)
	}
	d := r.Dynamodb
	if d == nil {
		return out, errorf("record %s has no dynamodb section", out.ID)
	}
	out.Sequence = aws.ToString(d.SequenceNumber)
	if d.ApproximateCreationDateTime != nil {
		out.At = *d.ApproximateCreationDateTime
	}
	var err error
	if out.Keys, err = FromStreamsItem(d.Keys); err != nil {
		return out, fmt.Errorf("feed: record %s keys: %w", out.ID, err)
	}
	if out.Old, err = FromStreamsItem(d.OldImage); err != nil {
		return out, fmt.Errorf("feed: record %s old image: %w", out.ID, err)
	}
	if out.New, err = FromStreamsItem(d.NewImage); err != nil {
		return out, fmt.Errorf("feed: record %s new image: %w", out.ID, err)
	}
	return out, nil
}

// FromStreamsItem converts an item of the Streams API's attribute values
// into the DynamoDB API's; nil stays nil.
func FromStreamsItem(m map[string]st.AttributeValue) (table.Item, error) {
	if m == nil {
		return nil, nil
	}
	out := make(table.Item, len(m))
	for k, v := range m {
		av, err := FromStreamsValue(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = av
	}
	return out, nil
}

// FromStreamsValue converts one attribute value of the Streams API into
// the DynamoDB API's.
func FromStreamsValue(v st.AttributeValue) (ddb.AttributeValue, error) {
	switch v := v.(type) {
	case *st.AttributeValueMemberS:
		return &ddb.AttributeValueMemberS{Value: v.Value}, nil
	case *st.AttributeValueMemberN:
		return &ddb.AttributeValueMemberN{Value: v.Value}, nil
	case *st.AttributeValueMemberB:
		return &ddb.AttributeValueMemberB{Value: v.Value}, nil
	case *st.AttributeValueMemberBOOL:
		return &ddb.AttributeValueMemberBOOL{Value: v.Value}, nil
	case *st.AttributeValueMemberNULL:
		return &ddb.AttributeValueMemberNULL{Value: v.Value}, nil
	case *st.AttributeValueMemberSS:
		return &ddb.AttributeValueMemberSS{Value: v.Value}, nil
	case *st.AttributeValueMemberNS:
		return &ddb.AttributeValueMemberNS{Value: v.Value}, nil
	case *st.AttributeValueMemberBS:
		return &ddb.AttributeValueMemberBS{Value: v.Value}, nil
	case *st.AttributeValueMemberL:
		out := make([]ddb.AttributeValue, len(v.Value))
		for i, e := range v.Value {
			av, err := FromStreamsValue(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = av
		}
		return &ddb.AttributeValueMemberL{Value: out}, nil
	case *st.AttributeValueMemberM:
		m, err := FromStreamsItem(v.Value)
		if err != nil {
			return nil, err
		}
		if m == nil {
			m = table.Item{}
		}
		return &ddb.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("attribute value of unknown type %T", v)
}
