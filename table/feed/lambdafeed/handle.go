package lambdafeed

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/singletable/singletable/table/feed"
)

// Handle routes the records of a Lambda DynamoDB stream event through r,
// in order, and returns Lambda's partial-batch response: empty when every
// record was handled; else naming the sequence number of the first record
// that did not convert or whose routing failed, with that failure as the
// error (a *[table.RecordError] naming the record). Records after it are
// not routed: Lambda delivers them again after it.
//
// Enable ReportBatchItemFailures on the event source mapping and return
// the response with a nil error from the function (log the error):
// Lambda then retries from the failed record, and the records before it
// are not delivered again. Returning the error instead makes Lambda
// retry the whole batch, which is also correct (handlers are idempotent
// by the record's ID) but handles the records before it twice.
//
//	lambda.Start(func(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
//		resp, err := lambdafeed.Handle(ctx, router, ev)
//		if err != nil {
//			log.Print(err) // the response names the record Lambda retries from
//		}
//		return resp, nil
//	})
func Handle(ctx context.Context, r *feed.Router, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	resp := events.DynamoDBEventResponse{BatchItemFailures: []events.DynamoDBBatchItemFailure{}}
	for _, er := range ev.Records {
		rec, err := FromRecord(er)
		if err == nil {
			err = r.Route(ctx, rec)
		} else {
			err = r.Table().NewRecordError(rec, "", err)
		}
		if err != nil {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: er.Change.SequenceNumber})
			return resp, err
		}
	}
	return resp, nil
}
