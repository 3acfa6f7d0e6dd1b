// Replaced by the checkpoint helper (placeholder so that the library builds).
