"""Rules written against the environment's info, for the tests that compare with abrlab."""


def bba_level(buffer_s: float, top: int, reservoir_s: float = 5, cushion_s: float = 10) -> int:
    """Pensieve's buffer-based rule (`bba-native`'s) on the buffer the next decision sees."""
    if buffer_s < reservoir_s:
        return 0
    if buffer_s >= reservoir_s + cushion_s:
        return top
    return int(top * (buffer_s - reservoir_s) / cushion_s)
