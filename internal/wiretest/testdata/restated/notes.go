package notes

// Notes are a store's declared fields.
type Notes struct {
	// ByAuthor lists an author's notes (XX-1): Query GSI1 PK =
	// AUTHOR#{author}, newest first.
	ByAuthor any
	// ByID reads one note (XX-2): GetItem NOTE#{id} / NOTE.
	ByID any
	// Create creates a note (XX-3); a note with the same ID is refused.
	Create any
}

// Other is no store: its fields are not declared.
type Other struct {
	// Query PK = X#{y}.
	Field any
}
