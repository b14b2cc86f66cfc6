package podcastflow_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/entity/pf"
	"github.com/singletable/singletable/query/podcastflow"
	"github.com/singletable/singletable/table/tabletest"
)

// rawGlobalMetrics is a day of global metrics as a hand-written
// aws-sdk-go-v2 layer reads it.
type rawGlobalMetrics struct {
	Date               string    `dynamodbav:"date"`
	TotalUsers         int64     `dynamodbav:"totalUsers"`
	ActiveUsers        int64     `dynamodbav:"activeUsers"`
	TotalOrganizations int64     `dynamodbav:"totalOrganizations"`
	TotalRevenue       float64   `dynamodbav:"totalRevenue"`
	StorageUsed        float64   `dynamodbav:"storageUsed"`
	APICalls           int64     `dynamodbav:"apiCalls"`
	Uptime             float64   `dynamodbav:"uptime"`
	AvgResponseTime    float64   `dynamodbav:"avgResponseTime"`
	CreatedAt          time.Time `dynamodbav:"createdAt"`
}

// BenchmarkMetricsRange pairs PF-8, a 30-day range of global metrics (one
// Query, SK BETWEEN GLOBAL#{from} AND GLOBAL#{to}, decoded), with the same
// Query and decode written by hand.
func BenchmarkMetricsRange(b *testing.B) {
	tb := tabletest.NewTable(b, podcastflow.Schema(""))
	s := podcastflow.New(tb)
	ctx := context.Background()
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	var ms []*pf.GlobalMetrics
	for i := range 60 {
		d := pf.Date(start.AddDate(0, 0, i).Format("2006-01-02"))
		ms = append(ms, &pf.GlobalMetrics{Date: d, TotalUsers: int64(1000 + i), ActiveUsers: int64(300 + i), TotalOrganizations: 40,
			TotalRevenue: 1234.5, StorageUsed: 2.5, APICalls: 90000, Uptime: 99.9, AvgResponseTime: 120})
	}
	if err := s.Analytics.PutGlobalMetrics(ctx, ms...); err != nil {
		b.Fatal(err)
	}
	from, to := pf.Date("2026-10-10"), pf.Date("2026-11-08")
	lib := func() error {
		p, err := s.Analytics.GlobalMetrics.Between(ctx, pf.GlobalMetrics{Date: from}, pf.GlobalMetrics{Date: to})
		if err == nil && len(p.Items) != 30 {
			err = fmt.Errorf("%d days, want 30", len(p.Items))
		}
		return err
	}
	raw := func() error {
		out, err := tb.Client().Query(ctx, &dynamodb.QueryInput{
			TableName:              aws.String(tb.Name()),
			KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":pk": &types.AttributeValueMemberS{Value: "ANALYTICS"},
				":lo": &types.AttributeValueMemberS{Value: "GLOBAL#" + string(from)},
				":hi": &types.AttributeValueMemberS{Value: "GLOBAL#" + string(to)},
			},
		})
		if err != nil {
			return err
		}
		var days []rawGlobalMetrics
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &days); err != nil {
			return err
		}
		if len(days) != 30 {
			return fmt.Errorf("%d days, want 30", len(days))
		}
		return nil
	}
	tabletest.Compare(b, 100, lib, raw)
}
