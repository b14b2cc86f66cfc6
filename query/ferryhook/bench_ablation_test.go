package ferryhook_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/singletable/singletable/table/tabletest"
)

// ablation is the hand-written ingest transaction with the library's
// guarantees ("same" of BenchmarkWorkload), one of them switched off or
// written in its earlier form.
type ablation struct {
	oldForms   bool // the TTL and overflow conditions as written before: attribute_not_exists(x) OR comparisons
	noType     bool // no type check on the updates
	noTTL      bool // no TTL check on the updates
	noOverflow bool // no overflow check on the counters
	noRVOCCF   bool // no ReturnValuesOnConditionCheckFailure
	updRVOCCF  bool // ReturnValuesOnConditionCheckFailure on the updates too (the library's request before TxOp.WithoutOldItem)
	putFull    bool // the put's condition also taking an expired item's key (as the library sent it before it sent that only after a failure)
}

func (w *workload) ablatedIngest(a ablation) func() error {
	return func() error {
		now := time.Now()
		item, _, err := w.ingestItem(now, true)
		if err != nil {
			return err
		}
		item["_type"], item["_v"] = str("Event"), num(1)
		nowS, at := num(now.Unix()), str(now.UTC().Format(time.RFC3339Nano))
		rv := types.ReturnValuesOnConditionCheckFailureAllOld
		urv := types.ReturnValuesOnConditionCheckFailure("")
		if a.updRVOCCF {
			urv = rv
		}
		if a.noRVOCCF {
			rv, urv = "", ""
		}
		upd := func(sk, counter, field, want, typ, timeAttr string) *types.Update {
			names := map[string]string{"#s": field, "#v": "_v"}
			vals := map[string]types.AttributeValue{":one": num(1), ":want": str(want)}
			set := ""
			if timeAttr != "" {
				set, vals[":at"] = "SET "+timeAttr+" = :at ", at
			}
			var conds []string
			if !a.noType {
				conds = append(conds, "(attribute_not_exists(#ty) OR #ty = :ty)")
				names["#ty"], vals[":ty"] = "_type", str(typ)
			}
			switch {
			case a.noTTL:
			case a.oldForms:
				conds = append(conds, "(attribute_not_exists(#ttl) OR #ttl > :now OR #ttl <= :zero)")
				names["#ttl"], vals[":now"], vals[":zero"] = "ttl", nowS, num(0)
			default:
				conds = append(conds, "NOT #ttl BETWEEN :tiny AND :now")
				names["#ttl"], vals[":now"], vals[":tiny"] = "ttl", nowS, tiny
			}
			switch {
			case a.noOverflow:
			case a.oldForms:
				conds = append(conds, "(attribute_not_exists("+counter+") OR "+counter+" <= :max)")
				vals[":max"] = num(math.MaxInt64 - 1)
			default:
				conds = append(conds, "NOT "+counter+" > :max")
				vals[":max"] = num(math.MaxInt64 - 1)
			}
			conds = append(conds, "#s = :want")
			return &types.Update{TableName: aws.String(w.main),
				Key:                                 map[string]types.AttributeValue{"PK": str("USER#" + string(w.src.UserID)), "SK": str(sk)},
				UpdateExpression:                    aws.String(set + "ADD " + counter + " :one, #v :one"),
				ConditionExpression:                 aws.String(strings.Join(conds, " AND ")),
				ExpressionAttributeNames:            names,
				ExpressionAttributeValues:           vals,
				ReturnValuesOnConditionCheckFailure: urv}
		}
		put := &types.Put{TableName: aws.String(w.events), Item: item, ReturnValuesOnConditionCheckFailure: rv,
			ConditionExpression:      aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames: map[string]string{"#pk": "PK"}}
		if a.putFull {
			put.ConditionExpression = aws.String("attribute_not_exists(#pk) OR #ttl BETWEEN :tiny AND :now")
			put.ExpressionAttributeNames = map[string]string{"#pk": "PK", "#ttl": "expiresAt"}
			put.ExpressionAttributeValues = map[string]types.AttributeValue{":now": nowS, ":tiny": tiny}
		}
		if a.oldForms {
			put.ConditionExpression = aws.String("(attribute_not_exists(#pk) OR (#ttl <= :now AND #ttl > :zero))")
			put.ExpressionAttributeNames = map[string]string{"#pk": "PK", "#ttl": "expiresAt"}
			put.ExpressionAttributeValues = map[string]types.AttributeValue{":now": nowS, ":zero": num(0)}
		}
		_, err = w.c.TransactWriteItems(w.ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(txToken()), TransactItems: []types.TransactWriteItem{
			{Put: put},
			{Update: upd("SRC#"+string(w.src.SourceID), "eventCount", "status", "active", "Source", "lastEventAt")},
			{Update: upd("PROFILE", "usageThisMonth", "plan", "free", "User", "")},
		}})
		return err
	}
}

// BenchmarkIngestAblation measures what each guarantee of the ingest
// transaction (FH-12) costs DynamoDB Local: the library's request written
// by hand ("same"), against the same with one guarantee off, with the TTL
// and overflow conditions in their earlier, longer forms, and the minimal
// transaction. It logs each variant's throughput ratio same/x (below 1:
// x is faster) and client and server CPU per op. Run it on a quiet
// machine: go test ./query/ferryhook -run xxx -bench IngestAblation
// -benchtime 1x -v -workload.rounds 200 -workload.block 5.
func BenchmarkIngestAblation(b *testing.B) {
	w := newWorkload(b)
	w.ablate(b,
		tabletest.Variant{Name: "same", Op: w.ablatedIngest(ablation{})},
		tabletest.Variant{Name: "oldForms", Op: w.ablatedIngest(ablation{oldForms: true})},
		tabletest.Variant{Name: "noType", Op: w.ablatedIngest(ablation{noType: true})},
		tabletest.Variant{Name: "noTTL", Op: w.ablatedIngest(ablation{noTTL: true})},
		tabletest.Variant{Name: "noOverflow", Op: w.ablatedIngest(ablation{noOverflow: true})},
		tabletest.Variant{Name: "noRVOCCF", Op: w.ablatedIngest(ablation{noRVOCCF: true})},
		tabletest.Variant{Name: "updRVOCCF", Op: w.ablatedIngest(ablation{updRVOCCF: true})},
		tabletest.Variant{Name: "putFull", Op: w.ablatedIngest(ablation{putFull: true})},
		tabletest.Variant{Name: "min", Op: w.minIngest},
	)
}

// ablate interleaves the variants (the first is the baseline) and logs
// each one's throughput ratio baseline/x and client and server CPU per op.
func (w *workload) ablate(b *testing.B, variants ...tabletest.Variant) {
	st := tabletest.Interleave(b, tabletest.Interleaved{Rounds: *workloadRounds, Block: *workloadBlock, Warmup: 200, ServerPID: w.pid}, variants...)
	for _, s := range st {
		b.Logf("%-10s ops/s %6.0f  same/x %.3f [%.2f-%.2f]  client %6.0f us/op  server %6.0f us/op", s.Name, s.OpsPerSec, s.Ratio, s.RatioMin, s.RatioMax,
			float64(s.ClientCPU.Nanoseconds())/1e3, float64(s.ServerCPU.Nanoseconds())/1e3)
	}
}

// attemptAblation is the hand-written attempt create ("same" of
// BenchmarkWorkload) with one part switched off.
type attemptAblation struct {
	noToken  bool // no write token attribute
	noRVOCCF bool // no ReturnValuesOnConditionCheckFailure
	fullTTL  bool // the condition also taking an expired item's key (as the library sent it before it sent that only after a failure)
	noMeta   bool // no _type and _v
	tokenS   bool // the write token a string, not a set
}

func (w *workload) ablatedAttempt(a attemptAblation) func() error {
	return func() error {
		now := time.Now()
		item, err := w.attemptItem(now)
		if err != nil {
			return err
		}
		if !a.noMeta {
			item["_type"], item["_v"] = str("DeliveryAttempt"), num(1)
		}
		switch {
		case a.noToken:
		case a.tokenS:
			item["_ct"] = str(writeToken(now))
		default:
			item["_wt"] = &types.AttributeValueMemberSS{Value: []string{writeToken(now)}}
		}
		in := &dynamodb.PutItemInput{TableName: aws.String(w.events), Item: item,
			ConditionExpression:                 aws.String("attribute_not_exists(#pk)"),
			ExpressionAttributeNames:            map[string]string{"#pk": "PK"},
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}
		if a.noRVOCCF {
			in.ReturnValuesOnConditionCheckFailure = ""
		}
		if a.fullTTL {
			in.ConditionExpression = aws.String("attribute_not_exists(#pk) OR #ttl BETWEEN :tiny AND :now")
			in.ExpressionAttributeNames = map[string]string{"#pk": "PK", "#ttl": "expiresAt"}
			in.ExpressionAttributeValues = map[string]types.AttributeValue{":now": num(now.Unix()), ":tiny": tiny}
		}
		_, err = w.c.PutItem(w.ctx, in)
		return err
	}
}

// BenchmarkAttemptAblation is BenchmarkIngestAblation for the attempt
// create (FH-10): the library's PutItem by hand, one part off, and min.
func BenchmarkAttemptAblation(b *testing.B) {
	w := newWorkload(b)
	w.ablate(b,
		tabletest.Variant{Name: "same", Op: w.ablatedAttempt(attemptAblation{})},
		tabletest.Variant{Name: "noToken", Op: w.ablatedAttempt(attemptAblation{noToken: true})},
		tabletest.Variant{Name: "noRVOCCF", Op: w.ablatedAttempt(attemptAblation{noRVOCCF: true})},
		tabletest.Variant{Name: "fullTTL", Op: w.ablatedAttempt(attemptAblation{fullTTL: true})},
		tabletest.Variant{Name: "noMeta", Op: w.ablatedAttempt(attemptAblation{noMeta: true})},
		tabletest.Variant{Name: "tokenS", Op: w.ablatedAttempt(attemptAblation{tokenS: true})},
		tabletest.Variant{Name: "lib", Op: w.libAttemptCreate},
		tabletest.Variant{Name: "min", Op: w.minAttemptCreate},
	)
}
