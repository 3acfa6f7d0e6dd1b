// Replaced by the store helper (placeholder so that the library builds).
