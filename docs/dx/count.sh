#!/bin/sh
# count.sh FILE...: for each file, the non-blank, non-comment lines between every
# "// --- counted from here ---" and the next "// --- to here ---" (a file may hold several
# regions; the marker lines themselves are not counted). A line whose first non-blank
# characters are // is a comment, and so is every line of a /* ... */ block that holds no
# code; a line with code and a trailing comment counts. Works for Go and JavaScript.
# Prints "count<TAB>file"; fails if a file has no region or an unclosed one.
status=0
for f in "$@"; do
	awk -v file="$f" '
	/^[ \t]*\/\/ --- counted from here ---[ \t]*$/ { if (on) { bad = 1 } on = 1; regions++; next }
	/^[ \t]*\/\/ --- to here ---[ \t]*$/ { if (!on) { bad = 1 } on = 0; next }
	!on { next }
	{
		line = $0
		if (inblock) {
			if (index(line, "*/") == 0) next
			line = substr(line, index(line, "*/") + 2); inblock = 0
		}
		sub(/^[ \t]+/, "", line)
		while (substr(line, 1, 2) == "/*") {
			if (index(line, "*/") == 0) { inblock = 1; next }
			line = substr(line, index(line, "*/") + 2); sub(/^[ \t]+/, "", line)
		}
		if (line == "" || substr(line, 1, 2) == "//") next
		n++
	}
	END {
		if (bad || on || regions == 0) { printf "%s: no region, or markers unbalanced\n", file > "/dev/stderr"; exit 1 }
		printf "%d\t%s\n", n, file
	}' "$f" || status=1
done
exit $status
