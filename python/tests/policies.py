"""Rules written against the environment's info, for the tests that compare with abrlab."""

# bba-native (like robust_mpc-native and pensieve-native) takes this level for the first segment
# whatever the buffer, as Pensieve's bb.py starts at DEFAULT_QUALITY; the rule decides from the second.
BBA_FIRST_LEVEL = 1


def bba_level(buffer_s: float, top: int, reservoir_s: float = 5, cushion_s: float = 10) -> int:
    """Pensieve's buffer-based rule (`bba-native`'s) on the buffer the next decision sees, from
    the second segment on (the first is BBA_FIRST_LEVEL)."""
    if buffer_s < reservoir_s:
        return 0
    if buffer_s >= reservoir_s + cushion_s:
        return top
    return int(top * (buffer_s - reservoir_s) / cushion_s)
