package keys_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/singletable/singletable/keys"
)

func ExamplePattern_Build() {
	user := keys.NewPattern[keys.PK]("USER", "userId")
	event := keys.NewPattern[keys.SK]("EVT", "receivedAt", "eventId")

	pk, _ := user.Build("u_42")
	sk, _ := event.Build(keys.MustUnixMilli(time.UnixMilli(1700000000000)), "evt_abc")
	fmt.Println(pk, sk)

	_, err := user.Build("u#42")
	var se *keys.SegmentError
	fmt.Println(errors.Is(err, keys.ErrInvalidKey), errors.As(err, &se), se.Segment)
	// Output:
	// USER#u_42 EVT#1700000000000#evt_abc
	// true true userId
}

func ExamplePattern_Parse() {
	org := keys.NewPattern[keys.PK]("ORG", "organizationId", "date")
	values, err := org.Parse("ORG#o1#2024-01-31")
	fmt.Println(values, err)
	_, err = org.Parse("USER#o1#2024-01-31")
	fmt.Println(errors.Is(err, keys.ErrInvalidKey))
	// Output:
	// [o1 2024-01-31] <nil>
	// true
}

func ExamplePattern_Prefix() {
	topic := keys.NewPattern[keys.SK]("TOPIC", "topicId", "seq")
	all, _ := topic.Prefix()
	// TOPIC#1# ends at a boundary, so it never matches topic 10.
	one, _ := topic.Prefix("1")
	fmt.Println(all, one)
	// Output: TOPIC# TOPIC#1#
}

func ExampleUint() {
	fmt.Println(keys.MustUint(7, 10))
	fmt.Println(keys.MustUint(7, 4) < keys.MustUint(10, 4))
	n, _ := keys.ParseUint("0000000007")
	fmt.Println(n)
	// Output:
	// 0000000007
	// true
	// 7
}

func ExampleEscape() {
	tags := keys.NewPattern[keys.SK]("TAG", "tag", "chatId")
	sk := tags.MustBuild(keys.Escape("c#"), "chat_1")
	fmt.Println(sk)
	v, _ := tags.Segment(sk, 0)
	tag, _ := keys.Unescape(v)
	fmt.Println(tag)
	// Output:
	// TAG#c%23#chat_1
	// c#
}

func ExampleTimestamp() {
	t := time.Date(2024, 1, 31, 10, 30, 0, 500_000_000, time.FixedZone("CET", 3600))
	fmt.Println(keys.MustTimestamp(t))
	fmt.Println(keys.MustDate(t))
	// Output:
	// 2024-01-31T09:30:00.500000000Z
	// 2024-01-31
}

func ExampleFoldEmail() {
	fmt.Println(keys.FoldEmail("  Ann@Example.COM "))
	fmt.Println(keys.FoldEmail("jose\u0301@example.com") == keys.FoldEmail("jos\u00e9@example.com")) // NFD and NFC
	fmt.Println(keys.FoldEmail("ａｄａ@example.com"))                                                   // fullwidth
	// Output:
	// ann@example.com
	// true
	// ada@example.com
}
