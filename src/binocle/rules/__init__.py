"""Rule pieces: pure functions with no state, shared by the profiles (layer 2)."""

#: The rule pieces are the package's modules (``tricks``, ``points``, ``classic_melds``,
#: ``cutthroat_melds``); the package itself holds no name.
__all__: list[str] = []
