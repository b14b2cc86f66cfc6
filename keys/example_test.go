package keys_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/singletable/singletable/keys"
)

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
	sk := strings.Join([]string{"TAG", keys.Escape("c#"), "chat_1"}, keys.Delimiter)
	fmt.Println(sk)
	tag, _ := keys.Unescape(strings.Split(sk, keys.Delimiter)[1])
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
