"""Rule pieces: pure functions with no state, shared by the profiles (layer 2)."""
